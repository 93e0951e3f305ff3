package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/gcstart"
	"github.com/charter-dev/charter/internal/repo/starter"
)

// starterRepo writes the starter repository, with bad.cue added when bad.
func starterRepo(t *testing.T, bad bool) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := starter.Write(dir); err != nil {
		t.Fatal(err)
	}
	if bad {
		src := "package charter\n\nagents: cy: {name: \"Cy\", type: \"personal_assistant\", behavior: scheduling: ambiguous_time: \"sometimes\"}\n"
		if err := os.WriteFile(filepath.Join(dir, "bad.cue"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	good, bad := starterRepo(t, false), starterRepo(t, true)
	const esc = "\x1b["
	code, _, stderr := runArgs("-C", bad, "--color", "always", "validate")
	if code != exitFindings || !strings.Contains(stderr, esc+"1;31merror"+"\x1b[0m: [unknown-option]") {
		t.Errorf("--color always: exit %d, stderr %q; want exit 1 and a red severity", code, stderr)
	}
	for _, args := range [][]string{
		{"-C", bad, "--color", "never", "validate"},
		{"-C", bad, "validate"}, // auto, and stderr is no terminal
	} {
		code, _, stderr := runArgs(args...)
		if code != exitFindings || strings.Contains(stderr, esc) || !strings.Contains(stderr, "error: [unknown-option]") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and no escape sequences", args, code, stderr)
		}
	}
	g := &globals{color: "auto"}
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "")
	if !g.colorWhen(true) || g.colorWhen(false) {
		t.Errorf("auto: colour on a terminal only")
	}
	t.Setenv("NO_COLOR", "1")
	if g.colorWhen(true) {
		t.Errorf("colour on a terminal with NO_COLOR set")
	}
	// Every command checks --color, not only those that print diagnostics.
	for _, args := range [][]string{{"-C", bad, "validate"}, {"version"}, {"-C", good, "lint", "--format", "json"}} {
		code, _, stderr = runArgs(append([]string{"--color", "sometimes"}, args...)...)
		if code != exitError || !strings.Contains(stderr, `unknown color "sometimes"; valid colors: auto, always, never`) {
			t.Errorf("bad --color with %v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestQuiet(t *testing.T) {
	good, bad := starterRepo(t, false), starterRepo(t, true)
	code, stdout, stderr := runArgs("-C", good, "--quiet", "validate")
	if code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("quiet ok: exit %d, stdout %q, stderr %q; want 0 and nothing", code, stdout, stderr)
	}
	code, stdout, stderr = runArgs("-C", bad, "-q", "validate")
	if code != exitFindings || stdout != "" || !strings.Contains(stderr, "error:") || strings.Contains(stderr, "charter: 1 error") {
		t.Errorf("quiet errors: exit %d, stdout %q, stderr %q; want the diagnostics without the summary", code, stdout, stderr)
	}
	code, _, stderr = runArgs("-C", bad, "validate")
	if code != exitFindings || !strings.Contains(stderr, "charter: 1 error") {
		t.Errorf("not quiet: stderr %q; want the summary", stderr)
	}
}

// TestRuleCompletion checks the hook the lint registry connects: explain
// and lint --enable/--disable complete the ids it lists.
func TestRuleCompletion(t *testing.T) {
	old := ruleIDs
	defer func() { ruleIDs = old }()
	ruleIDs = func() []string {
		return []string{"tool-conflict\tA tool both allowed and denied", "secret-literal", "unknown-placeholder"}
	}

	root := newRoot(&globals{})
	for _, args := range [][]string{
		{"__complete", "explain", "t"},
		{"__complete", "lint", "--enable", "t"},
		{"__complete", "lint", "--disable", "t"},
		{"__complete", "lint", "--disable", "secret-literal,t"},
	} {
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&bytes.Buffer{})
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); !strings.Contains(got, "tool-conflict\tA tool both allowed and denied\n") || strings.Contains(got, "\nsecret-literal\t") || strings.HasPrefix(got, "secret-literal\t") {
			t.Errorf("%v: got %q; want tool-conflict only", args, got)
		}
	}
}

// TestFmtKeepsMode checks that fmt rewrites a file without widening its
// mode.
func TestFmtKeepsMode(t *testing.T) {
	dir := starterRepo(t, false)
	name := filepath.Join(dir, "private.cue")
	if err := os.WriteFile(name, []byte("package charter\nagents:   dee: {name: \"Dee\", type: \"personal_assistant\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runArgs("-C", dir, "fmt"); code != exitOK {
		t.Fatalf("fmt: exit %d, %s", code, stderr)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("private.cue has mode %v after fmt, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(name); strings.Contains(string(b), "agents:   dee") {
		t.Errorf("fmt did not format private.cue: %s", b)
	}
}

// TestLintGCPercent: lint raises the GC percent for its rules only. It
// kept 400 for the rest of the process, so lint --new-from-rev evaluated
// the second revision with the first one's heap live and a collection at
// five times that, and a GOGC=off it overrode stayed on.
func TestLintGCPercent(t *testing.T) {
	dir := starterRepo(t, false)
	for _, gc := range []int{100, 50, -1} {
		prev := debug.SetGCPercent(gc)
		code, _, stderr := runArgs("-C", dir, "lint")
		after := debug.SetGCPercent(prev)
		if code != exitOK {
			t.Fatalf("lint: exit %d: %s", code, stderr)
		}
		if after != gc {
			t.Errorf("GC percent %d before lint, %d after", gc, after)
		}
	}
}

// TestLintGCPercentStart: a lint that starts while internal/gcstart's
// start-up percent (400) holds leaves the percent to gcstart. gcstart's
// finalizer sets the default back when the heap has grown or 2 s have
// passed, which may be while the rules run; lint used to restore the 400
// it found after them, so --new-from-rev's second evaluation, and the rest
// of the process, ran at 400.
func TestLintGCPercentStart(t *testing.T) {
	prev := debug.SetGCPercent(gcstart.Percent)
	defer debug.SetGCPercent(prev)
	restore := raiseGCPercent(400)
	if p := debug.SetGCPercent(100); p != gcstart.Percent { // gcstart's finalizer, while the rules run
		t.Fatalf("GC percent %d while lint's rules run, want %d", p, gcstart.Percent)
	}
	restore()
	if p := debug.SetGCPercent(prev); p != 100 {
		t.Errorf("GC percent %d after lint, want the 100 gcstart set back while the rules ran", p)
	}
}
