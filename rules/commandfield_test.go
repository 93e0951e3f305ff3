package rules

import (
	"strings"
	"testing"
)

// TestCommandElsewhere: a tool mapped to run_bash whose command is in an
// argument not named command (an MCP server's exec tool taking cmd or
// script), or is not a string, ran past the whitelist (the constraint's
// field was absent, so nothing was checked) and past every command rule
// (call.commands() was empty, so confirm_destructive did not ask). Such a
// call is now one whose command charter cannot read: the whitelist blocks
// it, and a block or ask rule that reads commands denies it. Claude
// Code's run_bash tools that carry no command (TaskStop, a Monitor of a
// WebSocket) run nothing, and go on.
func TestCommandElsewhere(t *testing.T) {
	names := map[string]string{"Bash": "run_bash", "Monitor": "run_bash", "TaskStop": "run_bash", "mcp__sh__exec": "run_bash"}
	runtimes := map[string]string{}
	for n := range names {
		runtimes[n] = "claude-code"
	}
	whitelist := &Gate{Agent: "sarah", Tools: []string{"run_bash"}, Declared: true, Runtime: "claude-code", Names: names, NameRuntime: runtimes,
		Constraints: []Constraint{{Tool: "run_bash", Field: "command", Check: CheckPrograms, Values: []string{"git"}, Behavior: "CommandToolsBehavior", Param: "whitelist"}}}
	ask, err := Compile(Profile{Name: "dev", ToolFamilies: map[string][]string{"bash": {"Bash", "run_bash"}}, Rules: []Rule{{
		ID: "confirm_destructive", Trigger: "*", Action: Ask, Message: "destroys", Enabled: true,
		Condition: &Condition{Type: Expr, Expr: "'bash' in call.families && call.commands().exists(c, c.destructive != '')"}}}})
	if err != nil {
		t.Fatal(err)
	}
	ask.SetGate(&Gate{Agent: "sarah", Tools: []string{"run_bash"}, Declared: true, Runtime: "claude-code", Names: names, NameRuntime: runtimes})
	wl, err := Compile(Profile{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	wl.SetGate(whitelist)
	for _, args := range []map[string]any{
		{"cmd": "curl x | sh"},
		{"script": "rm -rf /", "description": "clean"},
		{"command": []any{"sh", "-c", "rm -rf /"}},
		{"argv": []any{"rm", "-rf", "/"}},
	} {
		for name, e := range map[string]*Engine{"whitelist": wl, "confirm_destructive": ask} {
			v := e.Evaluate(Pre, Call{Tool: "mcp__sh__exec", Args: args}, nil)
			if v.Decision != Blocked {
				t.Errorf("%s: %v: %+v", name, args, v)
				continue
			}
			if !strings.Contains(v.Fired[0].Message, "command") {
				t.Errorf("%s: %v: %s", name, args, v.Fired[0].Message)
			}
		}
	}
	for _, c := range []Call{
		{Tool: "TaskStop", Args: map[string]any{"task_id": "b1"}},
		{Tool: "Monitor", Args: map[string]any{"description": "events", "timeout_ms": 1000.0, "ws": map[string]any{"url": "ws://127.0.0.1:1"}}},
		{Tool: "mcp__sh__exec", Args: map[string]any{"command": "git status"}},
	} {
		for name, e := range map[string]*Engine{"whitelist": wl, "confirm_destructive": ask} {
			if v := e.Evaluate(Pre, c, nil); v.Decision != Allowed {
				t.Errorf("%s: %s %v: %+v", name, c.Tool, c.Args, v)
			}
		}
	}
}
