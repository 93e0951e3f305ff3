package bundlefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxSize bounds what ReadArchive and ReadDir accept: a bundle larger than
// this is refused rather than read into memory. (A bundle of 2,000 agents
// is about 50 MB.)
const MaxSize = 256 << 20

// SchemaError says a bundle was written for a newer layout than this
// charter reads.
type SchemaError struct {
	Version string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("the bundle has schema version %s, newer than %s, the newest this charter reads: upgrade charter", e.Version, SchemaVersion)
}

// CheckSchema returns a *SchemaError when version is newer than
// SchemaVersion, and an error when it is not a version at all.
func CheckSchema(version string) error {
	n, err := strconv.Atoi(version)
	if err != nil || n < 1 {
		return fmt.Errorf("schema version %q is not a positive whole number", version)
	}
	if mine, _ := strconv.Atoi(SchemaVersion); n > mine {
		return &SchemaError{Version: version}
	}
	return nil
}

// ParseManifest decodes manifest.json, refusing unknown fields and a
// schema version newer than this charter's.
func ParseManifest(b []byte) (*Manifest, error) {
	if m, ok := parseManifestFast(b); ok {
		if err := CheckSchema(m.SchemaVersion); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return decodeManifest(b)
}

// decodeManifest is ParseManifest through encoding/json: any manifest.
func decodeManifest(b []byte) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		// A newer layout may add fields: say so when its version says so.
		var probe struct {
			SchemaVersion string `json:"schema_version"`
		}
		if json.Unmarshal(b, &probe) == nil && probe.SchemaVersion != "" {
			if serr := CheckSchema(probe.SchemaVersion); serr != nil {
				return nil, serr
			}
		}
		return nil, fmt.Errorf("manifest.json: %v", err)
	}
	if err := CheckSchema(m.SchemaVersion); err != nil {
		return nil, err
	}
	return &m, nil
}

// VerifyError lists every way a tree differs from its manifest.
type VerifyError struct {
	Problems []string
}

func (e *VerifyError) Error() string {
	return fmt.Sprintf("the bundle does not match its manifest: %s", strings.Join(e.Problems, "; "))
}

// Verify checks that t holds a manifest.json and exactly the files it
// lists, each of the listed size and SHA-256. It returns the manifest, a
// *VerifyError when files differ, a *SchemaError for a newer layout.
func Verify(t Tree) (*Manifest, error) {
	mb, ok := t["manifest.json"]
	if !ok {
		return nil, errors.New("no manifest.json: not a charter bundle")
	}
	m, err := ParseManifest(mb)
	if err != nil {
		return nil, err
	}
	var problems []string
	listed := map[string]bool{"manifest.json": true, SignatureFile: true}
	for _, f := range m.Files {
		if listed[f.Path] {
			problems = append(problems, f.Path+" is listed twice, or is a file the manifest cannot list")
			continue
		}
		listed[f.Path] = true
		b, ok := t[f.Path]
		if !ok {
			problems = append(problems, f.Path+" is missing")
			continue
		}
		sum := sha256.Sum256(b)
		switch {
		case len(b) != f.Size:
			problems = append(problems, fmt.Sprintf("%s has %d bytes, the manifest says %d", f.Path, len(b), f.Size))
		case hex.EncodeToString(sum[:]) != f.SHA256:
			problems = append(problems, fmt.Sprintf("%s has sha256 %s, the manifest says %s", f.Path, hex.EncodeToString(sum[:]), f.SHA256))
		}
	}
	for _, p := range t.Paths() {
		if !listed[p] {
			problems = append(problems, p+" is not in the manifest")
		}
	}
	if problems != nil {
		return m, &VerifyError{Problems: problems}
	}
	return m, nil
}
