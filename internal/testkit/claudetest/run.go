package claudetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// Version is the Claude Code version the pinned SDK package holds.
const Version = "2.1.332"

// Binary returns the path of the Claude Code binary that the pinned
// @anthropic-ai/claude-agent-sdk installs, or "" when it is not installed.
func Binary() string {
	pkg := fmt.Sprintf("claude-agent-sdk-%s-%s", runtime.GOOS, map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH])
	p := filepath.Join(npmtools.Dir(), "node_modules", "@anthropic-ai", pkg, "claude")
	if fi, err := os.Stat(p); err != nil || fi.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

// Missing says how to install the binary.
func Missing() string {
	return npmtools.Missing("Claude Code (@anthropic-ai/claude-agent-sdk's binary)")
}

// Need returns the binary's path, or skips t (fails it in CI).
func Need(t testing.TB) string {
	t.Helper()
	p := Binary()
	if p == "" {
		realtool.Missing(t, Missing())
	}
	return p
}

// ToolNames returns the SDK's BUILTIN_TOOL_NAMES and
// LEGACY_TOOL_NAME_ALIASES (old name -> current name), read with node
// from the installed package.
func ToolNames() (builtin []string, legacy map[string]string, err error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, nil, errors.New("node is not installed")
	}
	cmd := exec.Command(node, "--input-type=module", "-e",
		`import * as m from '@anthropic-ai/claude-agent-sdk'; console.log(JSON.stringify({builtin: m.BUILTIN_TOOL_NAMES, legacy: m.LEGACY_TOOL_NAME_ALIASES}))`)
	cmd.Dir = npmtools.Dir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the SDK's tool names: %v\n%s", err, stderr.Bytes())
	}
	var v struct {
		Builtin []string          `json:"builtin"`
		Legacy  map[string]string `json:"legacy"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, nil, fmt.Errorf("reading the SDK's tool names: %v", err)
	}
	if len(v.Builtin) == 0 {
		return nil, nil, errors.New("the SDK exports no BUILTIN_TOOL_NAMES")
	}
	return v.Builtin, v.Legacy, nil
}

// Run is one `claude -p` run.
type Run struct {
	// Prompt is the user's prompt; "Do the scripted task." when empty.
	Prompt string
	// Dir is the project folder to run in, made by the caller; empty: a
	// new temporary one, with Files written into it.
	Dir string
	// Files are written into the project (".claude/settings.json",
	// ".claude/agents/NAME.md", ...), relative paths.
	Files map[string]string
	// Args are more arguments for claude (--permission-mode acceptEdits).
	Args []string
	// Env is more environment, KEY=value (PATH for the hooks' programs).
	Env []string
	// Timeout bounds the run; 2 minutes when zero.
	Timeout time.Duration
}

// Result is what a run printed.
type Result struct {
	// Events are the stream-json events, in order.
	Events []map[string]any
	// Stderr is what claude wrote on standard error.
	Stderr string
	// Err is the run's error: an exit status, a timeout.
	Err error
	// Dir and Home are the project and home folders it ran in.
	Dir, Home string
	tmp       string
}

// Close removes the run's temporary folders.
func (r *Result) Close() error { return os.RemoveAll(r.tmp) }

// RunT is Start for a test: it needs the binary (Need), fails t on an
// error, and removes the run's folders when t ends.
func (sv *Server) RunT(t testing.TB, r Run) *Result {
	t.Helper()
	claude := Need(t)
	res, err := sv.Start(claude, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	return res
}

// Start runs claude -p against the scripted server, in a temporary HOME
// and the project, with no network but the server: the environment holds
// only what the run needs (the server's URL, a dummy API key, no
// telemetry, no retries) and r.Env.
func (sv *Server) Start(claude string, r Run) (*Result, error) {
	tmp, err := os.MkdirTemp("", "claudetest-")
	if err != nil {
		return nil, err
	}
	home := filepath.Join(tmp, "home")
	dir := r.Dir
	if dir == "" {
		dir = filepath.Join(tmp, "proj")
	}
	for _, d := range []string{home, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for name, body := range r.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	prompt := r.Prompt
	if prompt == "" {
		prompt = "Do the scripted task."
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose"}, r.Args...)
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"ANTHROPIC_BASE_URL=" + sv.URL,
		"ANTHROPIC_API_KEY=scripted",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_MAX_RETRIES=0",
	}
	cmd.Env = append(cmd.Env, r.Env...)
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	res := &Result{Dir: dir, Home: home, tmp: tmp}
	res.Err = cmd.Run()
	if ctx.Err() != nil {
		res.Err = fmt.Errorf("claude ran longer than %v", timeout)
	}
	res.Stderr = stderr.String()
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			res.Events = append(res.Events, ev)
		}
	}
	return res, nil
}

// ToolCall is one tool call of a run and what came of it.
type ToolCall struct {
	ID, Name string
	Input    map[string]any
	// Agent is the id of the subagent that made the call ("" for the
	// main thread).
	Agent string
	// Result is the tool_result's text; Error whether it is an error (a
	// denial is one).
	Result string
	Error  bool
	// Denied is set when the run's result lists the call among its
	// permission denials.
	Denied bool
}

// Calls returns the run's tool calls, in order, with their results.
func (r *Result) Calls() []ToolCall {
	var calls []*ToolCall
	byID := map[string]*ToolCall{}
	for _, ev := range r.Events {
		msg, _ := ev["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		parent, _ := ev["parent_tool_use_id"].(string)
		for _, b := range blocks {
			blk, _ := b.(map[string]any)
			switch blk["type"] {
			case "tool_use":
				c := &ToolCall{ID: str(blk["id"]), Name: str(blk["name"]), Agent: parent}
				c.Input, _ = blk["input"].(map[string]any)
				calls = append(calls, c)
				byID[c.ID] = c
			case "tool_result":
				if c := byID[str(blk["tool_use_id"])]; c != nil {
					c.Result = text(blk["content"])
					c.Error, _ = blk["is_error"].(bool)
				}
			}
		}
		if ev["type"] == "result" {
			denials, _ := ev["permission_denials"].([]any)
			for _, d := range denials {
				dm, _ := d.(map[string]any)
				if c := byID[str(dm["tool_use_id"])]; c != nil {
					c.Denied = true
				}
			}
		}
	}
	out := make([]ToolCall, len(calls))
	for i, c := range calls {
		out[i] = *c
	}
	return out
}

// Messages returns the texts of the system/informational events: what a
// hook's systemMessage shows the user.
func (r *Result) Messages() []string {
	var out []string
	for _, ev := range r.Events {
		if ev["type"] == "system" && ev["subtype"] == "informational" {
			out = append(out, str(ev["content"]))
		}
	}
	return out
}

// Summary writes the run as lines a test can match: each call with its
// outcome, each message, the result.
func (r *Result) Summary() string {
	var b strings.Builder
	for _, c := range r.Calls() {
		in, _ := json.Marshal(c.Input)
		state := "ran"
		switch {
		case c.Denied:
			state = "denied"
		case c.Error:
			state = "error"
		}
		who := "main"
		if c.Agent != "" {
			who = "subagent"
		}
		fmt.Fprintf(&b, "call %s %s %s %s: %s\n", who, c.Name, in, state, oneLine(c.Result))
	}
	for _, m := range r.Messages() {
		fmt.Fprintf(&b, "message: %s\n", oneLine(m))
	}
	for _, ev := range r.Events {
		if ev["type"] == "result" {
			fmt.Fprintf(&b, "result: %s %s\n", str(ev["subtype"]), str(ev["terminal_reason"]))
		}
	}
	if r.Err != nil {
		fmt.Fprintf(&b, "exit: %v\n", r.Err)
	}
	return b.String()
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// text is a tool_result's content: a string, or the texts of its blocks.
func text(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			pm, _ := p.(map[string]any)
			parts = append(parts, str(pm["text"]))
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}
