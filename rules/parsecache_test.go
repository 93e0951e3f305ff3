package rules

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// The cache answers what shell.Parse answers, the first time and every
// time after, errors included.
func TestParseCacheSameAnswer(t *testing.T) {
	for _, src := range []string{
		"python -m pytest -q",
		"sudo rm -rf / && git push --force origin main",
		"echo 'unclosed",
		"bash -c 'curl x | sh'",
		strings.Repeat("true; ", 2000), // past maxCachedLine: parsed every time
		"",
	} {
		want, wantErr := shell.Parse(src)
		for i := range 3 {
			p := parseLine(src)
			if diff := cmp.Diff(want, p.cmds); diff != "" {
				t.Errorf("%.40q, lookup %d (-parse +cache):\n%s", src, i, diff)
			}
			if fmt.Sprint(wantErr) != fmt.Sprint(p.err) {
				t.Errorf("%.40q, lookup %d: error %v, want %v", src, i, p.err, wantErr)
			}
		}
	}
}

// The cache holds at most two generations of maxParseGen lines, and no
// line longer than maxCachedLine.
func TestParseCacheBounded(t *testing.T) {
	for i := range 5*maxParseGen + 7 {
		parseLine(fmt.Sprintf("echo %d", i))
	}
	parseLine("echo " + strings.Repeat("x", maxCachedLine))
	parses.mu.Lock()
	defer parses.mu.Unlock()
	if n := len(parses.cur) + len(parses.old); n > 2*maxParseGen {
		t.Errorf("the cache holds %d lines, more than %d", n, 2*maxParseGen)
	}
	for _, m := range []map[string]*parsedLine{parses.cur, parses.old} {
		for k := range m {
			if len(k) > maxCachedLine {
				t.Errorf("a line of %d bytes is cached", len(k))
			}
		}
	}
}

// A command that cannot be read denies the call every time it comes,
// cached or not: CEL labels an error value with its node, so the error is
// never shared between evaluations.
func TestCachedUnreadableCommandStillDenies(t *testing.T) {
	e, err := Compile(Profile{Name: "p", Rules: []Rule{{ID: "no_rm", Trigger: "Bash", Action: Block, Enabled: true,
		Condition: &Condition{Type: Expr, Expr: "call.commands().exists(c, c.program == 'rm')"}}}})
	if err != nil {
		t.Fatal(err)
	}
	gated, err := Compile(e.Profile())
	if err != nil {
		t.Fatal(err)
	}
	gated.SetGate(&Gate{Agent: "a", Tools: []string{"run_bash"}, Declared: true, Names: map[string]string{"Bash": "run_bash"},
		NameRuntime: map[string]string{"Bash": "claude-code"},
		Constraints: []Constraint{{Tool: "run_bash", Field: "command", Check: CheckPrograms, Values: []string{"git", "rm"}, Behavior: "B", Param: "p"}}})
	for i := range 3 {
		for _, c := range []struct {
			e         *Engine
			cmd, rule string
		}{
			{e, "echo 'unclosed", FailClosedRule},
			{e, "git status; rm -rf /", "no_rm"},
			{gated, "echo 'unclosed", GateRule},
			{gated, "git status; rm -rf /", "no_rm"},
			{gated, "curl x | sh", GateRule},
		} {
			v := c.e.Evaluate(Pre, Call{Tool: "Bash", Args: map[string]any{"command": c.cmd}}, nil)
			if v.Decision != Blocked || len(v.Fired) == 0 || v.Fired[0].Rule != c.rule {
				t.Errorf("%q, evaluation %d: %+v; want blocked by %s", c.cmd, i, v, c.rule)
			}
		}
	}
}

// Calls in parallel share the cached lines (go test -race).
func TestParseCacheConcurrent(t *testing.T) {
	// The CEL list needs the environment, as an engine has.
	if _, err := celEnv(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				p := parseLine(fmt.Sprintf("git log -n %d | head", (i+w)%17))
				if p.err != nil || len(p.cmds) != 2 || p.cmds[0].Program != "git" {
					t.Errorf("%+v", p)
					return
				}
				p.celList()
			}
		})
	}
	wg.Wait()
}

// What the cache holds is bounded in bytes, not only in lines: a short
// line can parse into much more (a brace expansion makes 256 words of
// one), and an agent that sends many such lines must not make the server
// keep them all.
func TestParseCacheMemoryBounded(t *testing.T) {
	if _, err := celEnv(); err != nil {
		t.Fatal(err)
	}
	word := strings.Repeat("{a,b}", 8) + strings.Repeat("x", 1000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 150 {
		line := fmt.Sprintf("echo %d %s %s %s", i, word, word, word)
		p := parseLine(line)
		if p.err != nil || len(p.cmds) != 1 || len(p.cmds[0].Args) != 769 {
			t.Fatalf("%.40q: %d commands, %v", line, len(p.cmds), p.err)
		}
		p.celList()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Errorf("150 command lines of 3 KiB left %d MiB on the heap; the cache must hold at most %d MiB", grew>>20, 2*maxParseGenBytes>>20)
	}
	parses.mu.Lock()
	defer parses.mu.Unlock()
	if parses.curBytes > maxParseGenBytes {
		t.Errorf("the current generation holds %d bytes, more than %d", parses.curBytes, maxParseGenBytes)
	}
}
