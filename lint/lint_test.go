package lint_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cuelang.org/go/cue/ast"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

var update = flag.Bool("update", false, "rewrite docs/lint-rules.md")

// testdata is the root of the rules' test repositories.
const testdata = "../testdata/lint"

func TestRegistry(t *testing.T) {
	if err := lint.Check(lint.All()); err != nil {
		t.Fatal(err)
	}
	if n := len(lint.All()); n < 20 {
		t.Errorf("%d rules registered, want at least 20", n)
	}
}

func TestCheckRejects(t *testing.T) {
	bad := []*lint.Rule{
		{ID: "Bad_ID", Summary: "s", Doc: "x", Run: func(*lint.Pass) {}},
		{ID: "no-summary", Doc: "para\n\nBad:\n\n```cue\nx\n```\n\nGood:\n\n```cue\ny\n```\n", Run: func(*lint.Pass) {}},
		{ID: "no-run", Summary: "s", Doc: "para\n\nBad:\n\n```cue\nx\n```\n\nGood:\n\n```cue\ny\n```\n"},
		{ID: "dup", Summary: "s", Doc: "para\n\nBad:\n\n```cue\nx\n```\n\nGood:\n\n```cue\ny\n```\n", Run: func(*lint.Pass) {}},
		{ID: "dup", Summary: "s", Doc: "para\n\nBad:\n\n```cue\nx\n```\n\nGood:\n\n```cue\ny\n```\n", Run: func(*lint.Pass) {}},
	}
	err := lint.Check(bad)
	if err == nil {
		t.Fatal("Check accepted malformed rules")
	}
	for _, want := range []string{`"Bad_ID": id is not kebab-case`, `"Bad_ID": doc needs a bad and a good example`, `"no-summary": no summary`, `"no-run": no Run function`, `"dup": id registered twice`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check error lacks %q:\n%v", want, err)
		}
	}
}

// TestRules runs each rule over testdata/lint/<rule-id>, a repository whose
// files mark every expected finding with a comment on its line:
//
//	// want "rule-id: regexp"
//
// A "regexp" preceded by "above" expects its finding on the line above,
// for findings on a comment line:
//
//	// want above "rule-id: regexp" "rule-id: regexp"
//
// Only that rule runs; every finding must match a want on its line and
// every want must be matched. Rules the compiler checks are compared with
// the compiler's diagnostics.
func TestRules(t *testing.T) {
	for _, r := range lint.All() {
		t.Run(r.ID, func(t *testing.T) {
			dir := filepath.Join(testdata, r.ID)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("rule %s has no test repository %s", r.ID, dir)
			}
			repo, prog, cds := build(t, dir)
			var got []diag.Diagnostic
			switch {
			case r.Kind == lint.CompilerReported:
				got = cds
			case r.Run == nil: // the driver's own rules: run everything
				all, err := lint.Run(prog, repo.Files, lint.Options{})
				if err != nil {
					t.Fatal(err)
				}
				got = all
			default:
				if len(cds) > 0 {
					t.Fatalf("evaluate: %v", cds)
				}
				only, err := lint.Run(prog, repo.Files, lint.Options{Only: []string{r.ID}, Enable: []string{r.ID}})
				if err != nil {
					t.Fatal(err)
				}
				got = only
			}
			checkWants(t, repo, got, r.ID)
		})
	}
}

// build evaluates a test repository, which must validate, and returns its
// program (nil when compilation found an error) and every diagnostic.
func build(t testing.TB, dir string) (*load.Repo, *compiler.Program, []diag.Diagnostic) {
	t.Helper()
	rev, err := new(revision.Evaluator).EvaluateFS(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rev.Validation.OK() {
		t.Fatalf("%s does not validate:\n%s", dir, lines(rev.Diagnostics))
	}
	return rev.Validation.Repo(), rev.Program, rev.Diagnostics
}

type want struct {
	file string
	line int
	rule string
	re   *regexp.Regexp
	raw  string
	met  bool
}

var wantRE = regexp.MustCompile(`^"((?:[^"\\]|\\.)*)"`)

// wants reads the // want "rule: regexp" comments of the repository.
func wants(t *testing.T, repo *load.Repo) []*want {
	var out []*want
	for _, f := range repo.Files {
		ast.Walk(f.Syntax, func(n ast.Node) bool {
			c, ok := n.(*ast.Comment)
			if !ok {
				return true
			}
			text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			rest, ok := strings.CutPrefix(text, "want ")
			if !ok {
				return true
			}
			// Each "regexp" may be preceded by "above": it then expects a
			// finding on the line above (a comment line, which cannot
			// carry a second comment).
			for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
				line := c.Pos().Line()
				if r, ok := strings.CutPrefix(rest, "above "); ok {
					rest, line = strings.TrimSpace(r), line-1
				}
				m := wantRE.FindStringSubmatchIndex(rest)
				if m == nil || m[0] != 0 {
					t.Fatalf("%s:%d: bad want comment: %s", f.Path, c.Pos().Line(), text)
				}
				s, err := strconv.Unquote(`"` + rest[m[2]:m[3]] + `"`)
				if err != nil {
					t.Fatalf("%s:%d: bad want %s: %v", f.Path, c.Pos().Line(), rest[:m[1]], err)
				}
				rest = rest[m[1]:]
				rule, pat, ok := strings.Cut(s, ": ")
				if !ok {
					t.Fatalf("%s:%d: want %q is not \"rule-id: regexp\"", f.Path, c.Pos().Line(), s)
				}
				out = append(out, &want{file: f.Path, line: line, rule: rule, re: regexp.MustCompile(pat), raw: s})
			}
			return true
		}, nil)
	}
	return out
}

func checkWants(t *testing.T, repo *load.Repo, got []diag.Diagnostic, ruleID string) {
	t.Helper()
	ws := wants(t, repo)
	hasOwn := false
	for _, w := range ws {
		hasOwn = hasOwn || w.rule == ruleID
	}
	if !hasOwn {
		t.Errorf("the test repository expects no finding of %s: add a // want comment", ruleID)
	}
next:
	for _, d := range got {
		for _, w := range ws {
			if !w.met && w.file == d.File && w.line == d.Line && w.rule == d.Rule && w.re.MatchString(d.Message) {
				w.met = true
				continue next
			}
		}
		t.Errorf("unexpected finding: %s", d)
	}
	for _, w := range ws {
		if !w.met {
			t.Errorf("%s:%d: no finding matched want %q", w.file, w.line, w.raw)
		}
	}
}

func lines(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintln(&b, d)
	}
	return b.String()
}

// TestDocs compares docs/lint-rules.md with the text the registry
// generates.
func TestDocs(t *testing.T) {
	const path = "../docs/lint-rules.md"
	gen := lint.Markdown()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, gen, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil || !slices.Equal(have, gen) {
		t.Fatalf("docs/lint-rules.md is stale or missing; regenerate it with:\n\tgo test ./lint -run TestDocs -update")
	}
}

// TestREADMECount checks the rule count the README's tour gives (it said
// 39 when there were 40).
func TestREADMECount(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+) documented rules`).FindSubmatch(readme)
	if m == nil {
		t.Fatal(`README.md does not say "N documented rules"`)
	}
	if n, _ := strconv.Atoi(string(m[1])); n != len(lint.All()) {
		t.Errorf("README.md says %d documented rules; there are %d", n, len(lint.All()))
	}
}
