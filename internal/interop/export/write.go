package export

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ManifestFile, in an output folder, lists the files export wrote there
// with their SHA-256: a file it lists, unchanged since, is export's to
// replace; any other file in the way is refused without force.
const ManifestFile = ".charter-export.json"

type manifest struct {
	Note  string            `json:"note"`
	Files map[string]string `json:"files"`
}

// WriteDir writes r's files under dir, made if missing. It refuses, before
// writing anything, a dir that is not a folder and any file in the way
// that export did not write or that was changed since (force replaces
// them), and returns the paths written, dir-relative.
func WriteDir(dir string, r Result, force bool) ([]string, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s is a file, not a folder: export writes a folder of files", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	m := manifest{Files: map[string]string{}}
	mp := filepath.Join(dir, ManifestFile)
	// Only a regular file is read as the manifest: a link is not followed
	// (a forced write replaces the link, not what it points at).
	var refused []string
	if fi, err := os.Lstat(mp); err == nil {
		var b []byte
		if fi.Mode().IsRegular() {
			b, err = os.ReadFile(mp)
			if err != nil {
				return nil, err
			}
		}
		if !fi.Mode().IsRegular() || json.Unmarshal(b, &m) != nil || m.Files == nil {
			if !force {
				return nil, fmt.Errorf("%s is not a manifest charter export wrote; remove it or pass --force", mp)
			}
			m.Files = map[string]string{}
			refused = append(refused, mp)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, f := range r.Files {
		if f.Path == "" || path.IsAbs(f.Path) || strings.HasPrefix(path.Clean(f.Path), "..") || f.Path == ManifestFile {
			return nil, fmt.Errorf("export made a file name it must not write: %q", f.Path)
		}
		// Every folder on the way is a folder, not a link to one
		// elsewhere (which export would write through) nor a file.
		if q, err := notFolder(dir, path.Dir(path.Clean(f.Path))); err != nil {
			return nil, err
		} else if q != "" {
			if !slices.Contains(refused, q) {
				refused = append(refused, q)
			}
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			if m.Files[f.Path] == sum(b) {
				continue
			}
		}
		refused = append(refused, p)
	}
	if len(refused) > 0 && !force {
		return nil, fmt.Errorf("%s %s there and charter export did not write %s (or it was changed since); move %s away, or pass --force to replace %s",
			strings.Join(refused, ", "), plural(len(refused), "is", "are"), plural(len(refused), "it", "them"), plural(len(refused), "it", "them"), plural(len(refused), "it", "them"))
	}
	// Forced: a link, file or folder in the way goes, not what it points
	// at.
	for _, p := range refused {
		if err := os.RemoveAll(p); err != nil {
			return nil, err
		}
	}
	var written []string
	for _, f := range r.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return written, err
		}
		m.Files[f.Path] = sum(f.Data)
		written = append(written, f.Path)
	}
	m.Note = "Files charter export wrote here, with their SHA-256: export replaces them while unchanged, and refuses any other file without --force."
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return written, err
	}
	return written, os.WriteFile(mp, append(b, '\n'), 0o644)
}

// notFolder returns the first path of dir/rel's folders below dir that
// exists and is no folder (a symbolic link, a file), "" when there is
// none.
func notFolder(dir, rel string) (string, error) {
	if rel == "." {
		return "", nil
	}
	q := dir
	for _, part := range strings.Split(rel, "/") {
		q = filepath.Join(q, part)
		fi, err := os.Lstat(q)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		if !fi.IsDir() {
			return q, nil
		}
	}
	return "", nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
