package bundlefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A 10,000-agent bundle's manifest lists 30,000 files in 4.5 MB, and the
// Claude Code hook reads it on every tool call: encoding/json decodes it
// in over 100 ms. charter writes the list in one form only (Pretty), which
// a scan of its bytes reads in a fraction of that. The scan accepts
// nothing but that form, entry by entry; anything else (another
// indentation, an escape in a path, a key more or in another order) is
// decoded by encoding/json, so both read every manifest alike
// (FuzzParseManifest holds them to it).

// The bytes around one entry of the files list as Pretty writes it.
const (
	filesKey   = "\n  \"files\": [\n"
	entryPath  = "    {\n      \"path\": \""
	entrySHA   = "\",\n      \"sha256\": \""
	entrySize  = "\",\n      \"size\": "
	entryEnd   = "\n    }"
	entriesEnd = "\n  ]"
)

// parseManifestFast parses a manifest whose files list is in Pretty's
// form: the list is scanned, the rest decoded as ParseManifest does. ok
// is false when the list is in another form or the rest does not decode:
// the caller then decodes the whole manifest.
func parseManifestFast(b []byte) (Manifest, bool) {
	start := bytes.Index(b, []byte(filesKey))
	if start < 0 {
		return Manifest{}, false
	}
	list := start + len(filesKey) - 2 // at the list's '['
	// One copy of the bytes: the paths and sums are slices of it.
	files, end, ok := scanFiles(string(b), start+len(filesKey))
	if !ok {
		return Manifest{}, false
	}
	// The rest, with the list left out, must set Files once: through the
	// list left out. A second key that encoding/json takes for "files"
	// (the later one wins; keys match in any case, "FILES", "fileſ") is
	// a second call of keyCount's UnmarshalJSON; a "files" that was not
	// the top level's fails to decode (Source has no such field).
	rest := make([]byte, 0, list+2+len(b)-end)
	rest = append(rest, b[:list]...)
	rest = append(rest, "[]"...)
	rest = append(rest, b[end:]...)
	var probe struct {
		SchemaVersion  string   `json:"schema_version"`
		CharterVersion string   `json:"charter_version"`
		CUEVersion     string   `json:"cue_version"`
		Source         *Source  `json:"source,omitempty"`
		Files          keyCount `json:"files"`
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&probe); err != nil || probe.Files != 1 {
		return Manifest{}, false
	}
	// A list scanned after the manifest's object is not its files (the
	// decoder stops at the object's end): only white space may follow.
	if len(bytes.TrimLeft(rest[dec.InputOffset():], " \t\r\n")) != 0 {
		return Manifest{}, false
	}
	return Manifest{SchemaVersion: probe.SchemaVersion, CharterVersion: probe.CharterVersion, CUEVersion: probe.CUEVersion,
		Source: probe.Source, Files: files}, true
}

// keyCount counts the values decoded into it, each of which must be the
// "[]" put in the list's place: a list scanned inside the files value
// (an entry's object, an object for the list) leaves something else
// there, which encoding/json would refuse.
type keyCount int

func (n *keyCount) UnmarshalJSON(b []byte) error {
	if string(b) != "[]" {
		return errors.New("the files value is not the list scanned")
	}
	*n++
	return nil
}

// scanFiles reads the entries of the files list from b[i:], just after
// its opening line, to its closing bracket; end is the index just after
// that bracket.
func scanFiles(b string, i int) (files []File, end int, ok bool) {
	files = make([]File, 0, strings.Count(b[i:], entryEnd))
	for {
		var f File
		if f.Path, i, ok = scanString(b, i, entryPath, 0); !ok {
			return nil, 0, false
		}
		if f.SHA256, i, ok = scanString(b, i, entrySHA, 64); !ok || !isLowerHex(f.SHA256) {
			return nil, 0, false
		}
		if f.Size, i, ok = scanSize(b, i); !ok {
			return nil, 0, false
		}
		if !strings.HasPrefix(b[i:], entryEnd) {
			return nil, 0, false
		}
		i += len(entryEnd)
		files = append(files, f)
		switch {
		case strings.HasPrefix(b[i:], ",\n"):
			i += 2
		case strings.HasPrefix(b[i:], entriesEnd):
			return files, i + len(entriesEnd), true
		default:
			return nil, 0, false
		}
	}
}

// scanString reads, at b[i:], prefix and then a string's content up to
// its closing quote (left for the next prefix): content with no escape
// and no control character, valid UTF-8, n bytes long when n > 0.
func scanString(b string, i int, prefix string, n int) (string, int, bool) {
	if !strings.HasPrefix(b[i:], prefix) {
		return "", 0, false
	}
	i += len(prefix)
	j := strings.IndexByte(b[i:], '"')
	if j < 0 || n > 0 && j != n {
		return "", 0, false
	}
	s := b[i : i+j]
	for k := range len(s) {
		if c := s[k]; c < 0x20 || c == '\\' {
			return "", 0, false
		}
	}
	if !utf8.ValidString(s) {
		return "", 0, false
	}
	return s, i + j, true
}

// scanSize reads the size key and its value: a whole number as RFC 8785
// writes one (no sign, no leading zero, no fraction or exponent).
func scanSize(b string, i int) (int, int, bool) {
	if !strings.HasPrefix(b[i:], entrySize) {
		return 0, 0, false
	}
	i += len(entrySize)
	j := i
	for j < len(b) && '0' <= b[j] && b[j] <= '9' {
		j++
	}
	if j == i || j-i > 1 && b[i] == '0' {
		return 0, 0, false
	}
	n, err := strconv.Atoi(b[i:j])
	if err != nil {
		return 0, 0, false
	}
	return n, j, true
}

func isLowerHex(s string) bool {
	for i := range len(s) {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
