package shell

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// TestRunsOthers: every program readsCode has a case for is in
// codeReaders (read from interp.go's source, so that a case added there
// and not here fails), every wrapper runs others, and a plain program
// does not.
func TestRunsOthers(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "interp.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "readsCode" {
			return true
		}
		for _, st := range fn.Body.List {
			sw, ok := st.(*ast.SwitchStmt)
			if !ok {
				continue
			}
			for _, cc := range sw.Body.List {
				for _, e := range cc.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						cases = append(cases, s)
					}
				}
			}
		}
		return false
	})
	if len(cases) == 0 {
		t.Fatal("found no case of readsCode's switch")
	}
	slices.Sort(cases)
	want := slices.Clone(codeReaders)
	slices.Sort(want)
	if !slices.Equal(cases, want) {
		t.Errorf("readsCode reads %v, codeReaders lists %v", cases, want)
	}
	for w := range wrappers {
		if !RunsOthers(w) {
			t.Errorf("RunsOthers(%q) = false for a wrapper", w)
		}
	}
	for _, p := range []string{"env", "ENV.exe", "/usr/bin/git", "find", "sed", "bash"} {
		if !RunsOthers(p) {
			t.Errorf("RunsOthers(%q) = false", p)
		}
	}
	for _, p := range []string{"ls", "go", "python", "cat", "grep"} {
		if RunsOthers(p) {
			t.Errorf("RunsOthers(%q) = true", p)
		}
	}
}
