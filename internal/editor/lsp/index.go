package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"

	cuefiles "github.com/charter-dev/charter/cue"
	"github.com/charter-dev/charter/internal/config/load"
)

// loc is where a declaration's label is: a root-relative user file, or an
// embedded file (stdlibPrefix + "stdlib/categories.cue"); line and column
// count from 1, the column in bytes.
type loc struct {
	file      string
	line, col int
}

// index maps a declaration's path ("categories.scheduling.settings.x")
// to the first place that declares it.
type index map[string]loc

// indexDepth bounds the paths indexed under each top-level field: deep
// enough for every name a reference can name (an option is
// categories.C.settings.S.options.O), shallow enough that thousands of
// agents cost little.
var indexDepth = map[string]int{"agents": 2, "tests": 2, "models": 2, "categories": 6,
	"behaviorTypes": 4, "profiles": 4, "agentTypes": 4, "presets": 2}

func indexFiles(files []*load.File) index {
	ix := index{}
	for _, f := range files {
		ix.add(f.Path, f.Syntax.Decls, nil)
	}
	return ix
}

func (ix index) add(file string, decls []ast.Decl, path []string) {
	for _, d := range decls {
		fd, ok := d.(*ast.Field)
		if !ok {
			if e, ok := d.(*ast.EmbedDecl); ok {
				if st, ok := e.Expr.(*ast.StructLit); ok {
					ix.add(file, st.Elts, path)
				}
			}
			continue
		}
		name, _, err := ast.LabelName(fd.Label)
		if err != nil {
			continue
		}
		p := append(path[:len(path):len(path)], name)
		if len(path) == 0 && indexDepth[name] == 0 {
			continue
		}
		key := strings.Join(p, ".")
		if _, ok := ix[key]; !ok {
			pos := fd.Label.Pos()
			ix[key] = loc{file: file, line: pos.Line(), col: pos.Column()}
		}
		if len(p) < indexDepth[p[0]] {
			if st, ok := unwrapStruct(fd.Value); ok {
				ix.add(file, st.Elts, p)
			}
		}
	}
}

// unwrapStruct returns the struct a field's value is, through a default
// marker or a conjunction with a struct.
func unwrapStruct(e ast.Expr) (*ast.StructLit, bool) {
	switch x := e.(type) {
	case *ast.StructLit:
		return x, true
	case *ast.BinaryExpr:
		if st, ok := unwrapStruct(x.X); ok {
			return st, true
		}
		return unwrapStruct(x.Y)
	case *ast.UnaryExpr:
		return unwrapStruct(x.X)
	}
	return nil, false
}

// stdlibPrefix names the embedded files in locs.
const stdlibPrefix = "<charter>/"

// stdlibIndex indexes the embedded standard library once.
var stdlibIndex = sync.OnceValue(func() index {
	ix := index{}
	_ = fs.WalkDir(cuefiles.FS, "stdlib", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		src, err := fs.ReadFile(cuefiles.FS, p)
		if err != nil {
			return nil
		}
		f, err := parser.ParseFile(p, src)
		if err != nil {
			return nil
		}
		ix.add(stdlibPrefix+p, f.Decls, nil)
		return nil
	})
	return ix
})

// stdlibDir writes the embedded standard library and schema, read-only,
// into a folder named for their content (so a new charter version never
// shows an old copy) and returns it.
func (s *Server) stdlibDir() (string, error) {
	s.stdOnce.Do(func() {
		h := sha256.New()
		var files []string
		_ = fs.WalkDir(cuefiles.FS, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
				src, _ := fs.ReadFile(cuefiles.FS, p)
				fmt.Fprintf(h, "%s\x00%d\x00%s", p, len(src), src)
			}
			return nil
		})
		base := s.opts.StdlibDir
		if base == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				s.stdErr = fmt.Errorf("no cache folder for the standard library's read-only copy: %v", err)
				return
			}
			base = filepath.Join(cache, "charter")
		}
		dir := filepath.Join(base, "stdlib-"+hex.EncodeToString(h.Sum(nil))[:16])
		for _, p := range files {
			dst := filepath.Join(dir, filepath.FromSlash(p))
			if _, err := os.Stat(dst); err == nil {
				continue
			}
			src, _ := fs.ReadFile(cuefiles.FS, p)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				s.stdErr = err
				return
			}
			tmp := dst + ".tmp"
			if err := os.WriteFile(tmp, src, 0o444); err != nil {
				s.stdErr = err
				return
			}
			if err := os.Rename(tmp, dst); err != nil {
				s.stdErr = err
				return
			}
		}
		s.stdPath = dir
	})
	return s.stdPath, s.stdErr
}
