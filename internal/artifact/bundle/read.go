package bundle

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
)

// maxEntries bounds the entries of an archive ReadArchive reads: a
// bundle of 10,000 agents has about 30,000 files.
var maxEntries = 100_000

// layout matches the path of every file a bundle holds (docs/bundle.md):
// an agent id and a profile name are slugs.
var layout = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:manifest|categories|delegation|flows|team)\.json$|^manifest\.jws$|^profiles/[a-z0-9][a-z0-9_-]*\.json$|^agents/[a-z0-9][a-z0-9_-]*/(?:agent\.json|prompt\.md|card\.json)$`)
})

// InLayout reports whether name is the path of a file a bundle holds.
func InLayout(name string) bool { return layout().MatchString(name) }

// ReadArchive reads a tar.gz that WriteArchive wrote into a tree. It
// refuses any file but those of a bundle's layout (InLayout: no
// .git/config, no name holding a line feed or an escape sequence), links,
// devices, sparse files, a path given twice, more than maxEntries entries
// and more than MaxSize bytes of content.
func ReadArchive(r io.Reader) (bundlefile.Tree, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip archive: %v", err)
	}
	// Content is bounded below; this bounds what inflates around it
	// (headers, folders' data, bytes after the archive's end), which a
	// few compressed bytes can make gigabytes of.
	lr := &limitedReader{r: gz, n: maxExpanded}
	tr := tar.NewReader(lr)
	t := bundlefile.Tree{}
	folded := map[string]string{} // lower-cased path: the path
	var total int64
	for entries := 0; ; entries++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the archive: %v", err)
		}
		if entries == maxEntries {
			return nil, fmt.Errorf("archive holds more than %d entries, more than a bundle may", maxEntries)
		}
		name := strings.TrimSuffix(h.Name, "/")
		// A backslash is a separator on Windows, where ..\ climbs out.
		if !fs.ValidPath(name) || name == "." || strings.Contains(name, `\`) || !filepath.IsLocal(filepath.FromSlash(name)) {
			return nil, fmt.Errorf("archive entry %q is not a clean relative path", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			continue
		case tar.TypeReg:
		default:
			return nil, fmt.Errorf("archive entry %s is not a regular file or folder (type %q)", name, h.Typeflag)
		}
		if !InLayout(name) {
			return nil, fmt.Errorf("archive entry %q is not a file of a bundle (manifest.json, manifest.jws, categories.json, delegation.json, flows.json, team.json, profiles/NAME.json, agents/ID/agent.json, prompt.md or card.json)", name)
		}
		for k := range h.PAXRecords {
			if strings.HasPrefix(k, "GNU.sparse.") {
				// A sparse file's holes read as zeros: a few bytes could
				// claim gigabytes.
				return nil, fmt.Errorf("archive entry %s is a sparse file", name)
			}
		}
		if _, dup := t[name]; dup {
			return nil, fmt.Errorf("archive entry %s appears twice", name)
		}
		// A bundle's paths are lower-case slugs; on a file system that
		// ignores case, one of two such entries would overwrite the other.
		if other, ok := folded[strings.ToLower(name)]; ok {
			a, b := min(name, other), max(name, other)
			return nil, fmt.Errorf("archive entries %s and %s differ only in case", a, b)
		}
		folded[strings.ToLower(name)] = name
		total += h.Size
		if h.Size < 0 || total > bundlefile.MaxSize {
			return nil, fmt.Errorf("archive holds more than %d bytes", bundlefile.MaxSize)
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return nil, fmt.Errorf("reading %s from the archive: %v", name, err)
		}
		t[name] = b
	}
	if _, err := io.Copy(io.Discard, lr); err != nil {
		return nil, fmt.Errorf("reading the archive: %v", err)
	}
	return t, nil
}

// maxExpanded bounds how far ReadArchive inflates its input: MaxSize of
// content and room for the tar headers of a large bundle.
var maxExpanded int64 = bundlefile.MaxSize + 64<<20

// limitedReader is io.LimitReader that fails, rather than ends, at its
// limit.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, fmt.Errorf("the archive inflates to more than %d bytes", maxExpanded)
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// ReadDir reads the bundle in dir into a tree. It refuses links and
// anything but regular files and folders.
func ReadDir(dir string) (bundlefile.Tree, error) {
	// WalkDir would name the root ".": say which folder, and what it is.
	if err := bundlefile.CheckDir(dir); err != nil {
		return nil, fmt.Errorf("%w; name the folder a build (or a pull) wrote the bundle into", err)
	}
	fsys := os.DirFS(dir)
	t := bundlefile.Tree{}
	var total int64
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file (a bundle holds only files and folders)", path.Join(dir, p))
		}
		// Sized before it is read: reading a huge file would run out of
		// memory first.
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if total+fi.Size() > bundlefile.MaxSize {
			return fmt.Errorf("%s holds more than %d bytes", dir, bundlefile.MaxSize)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		total += int64(len(b))
		if total > bundlefile.MaxSize {
			return fmt.Errorf("%s holds more than %d bytes", dir, bundlefile.MaxSize)
		}
		t[p] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}
