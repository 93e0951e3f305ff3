package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/gen"
)

// astWalkLiterals is what stringLiterals replaces: ast.Walk over the
// whole file, as secret-literal did it.
func astWalkLiterals(f *ast.File, fn func(path []string, label string, lit *ast.BasicLit)) {
	var path []string
	ast.Walk(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			name, _, _ := ast.LabelName(n.Label)
			path = append(path, name)
			if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				fn(path, name, lit)
				path = path[:len(path)-1]
				return false
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				fn(path, "", n)
			}
		}
		return true
	}, func(n ast.Node) {
		if _, ok := n.(*ast.Field); ok {
			path = path[:len(path)-1]
		}
	})
}

func compareLiterals(t *testing.T, name string, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(name, src, parser.ParseComments)
	if err != nil {
		return
	}
	var want, got []string
	astWalkLiterals(f, func(path []string, label string, lit *ast.BasicLit) {
		want = append(want, fmt.Sprintf("%s %q %s %s", strings.Join(path, "."), label, lit.Value, lit.Pos()))
	})
	stringLiterals(f, func(path []string, label string, lit *ast.BasicLit) {
		got = append(got, fmt.Sprintf("%s %q %s %s", strings.Join(path, "."), label, lit.Value, lit.Pos()))
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: string literals (-ast.Walk +stringLiterals):\n%s", name, diff)
	}
}

// stringLiterals finds what ast.Walk finds, in the same order, in the
// examples, the standard library's files, the starter and a generated
// repository.
func TestStringLiteralsMatchASTWalk(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Write(dir, 5); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, root := range []string{dir, "../examples", "../cue", "../internal/repo/starter"} {
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".cue") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n++
			compareLiterals(t, p, src)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 20 {
		t.Fatalf("compared %d files", n)
	}
}

func FuzzStringLiterals(f *testing.F) {
	for _, s := range []string{
		"package x\n// c\na: \"s\" // d\nb: [\"x\", {c: \"y\"}]\n",
		"package x\nimport \"strings\"\na: strings.ToUpper(\"k\")\nb: \"x\\(a)\"\n",
		"package x\nfor k, v in {a: \"1\"} {(k): v}\n",
		"package x\na: X=\"s\"\n\"q\": {b: 1 @tag(\"v\")} \nc: *\"d\" | \"e\"\nlet y = \"z\"\nd: [...string] & [\"w\"]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compareLiterals(t, "fuzz.cue", []byte(src))
	})
}

func literalBenchFiles(b *testing.B) []*ast.File {
	dir := b.TempDir()
	if err := gen.Write(dir, 200); err != nil {
		b.Fatal(err)
	}
	var files []*ast.File
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".cue") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(p, src, parser.ParseComments)
		if err == nil {
			files = append(files, f)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files
}

// BenchmarkStringLiterals and BenchmarkASTWalkLiterals compare the two
// walks over 200 generated agents' files.
func BenchmarkStringLiterals(b *testing.B) {
	files := literalBenchFiles(b)
	n := 0
	for b.Loop() {
		for _, f := range files {
			stringLiterals(f, func([]string, string, *ast.BasicLit) { n++ })
		}
	}
}

func BenchmarkASTWalkLiterals(b *testing.B) {
	files := literalBenchFiles(b)
	n := 0
	for b.Loop() {
		for _, f := range files {
			astWalkLiterals(f, func([]string, string, *ast.BasicLit) { n++ })
		}
	}
}
