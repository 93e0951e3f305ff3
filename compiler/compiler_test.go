package compiler_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

const types = `package charter
presets: p1: behavior: communication: {verbosity: "detailed", formatting: "plain"}
presets: p2: behavior: communication: verbosity: "minimal"
agentTypes: t: {
	name: "T"
	presets: ["p1"]
	behavior: communication: formatting: "rich"
	system_prompt: "I am {agent.name}, talking to {user}."
	variables: user: required: true
}
`

func TestResolutionOrder(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"types.cue": types,
		"a.cue": `package charter
agents: a: {name: "A", type: "t", presets: ["p2"], behavior: communication: error_handling: "retry_silently"}
`,
	}))
	a := prog.Agents[0]
	type row struct{ Value, Layer, Name string }
	got := map[string]row{}
	for _, s := range []string{"verbosity", "formatting", "error_handling", "confirmation_style"} {
		rs, ok := a.Setting("communication", s)
		if !ok {
			t.Fatalf("no setting %s", s)
		}
		got[s] = row{rs.Value.String(), rs.Origin.Layer, rs.Origin.Name}
	}
	want := map[string]row{
		"verbosity":          {"minimal", "agent-preset", "p2"}, // agent preset over type preset
		"formatting":         {"rich", "type", "t"},             // type over its preset
		"error_handling":     {"retry_silently", "agent", "a"},  // agent override
		"confirmation_style": {"summary", "default", ""},        // category default
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	rs, _ := a.Setting("communication", "error_handling")
	if pos := prog.Where(rs.Origin); pos.File != "a.cue" || pos.Line != 2 {
		t.Errorf("origin position = %v, want a.cue:2", pos)
	}
}

func TestFlattenProfile(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"p.cue": `package charter
profiles: mine: {
	extends: "coding"
	rules: test_after_changes: enabled: false
	rules: confirm_destructive: action: "warn"
	rules: protect_migrations: {trigger: "edit", action: "block", condition: {type: "contains", field: "file_path", substring: "migrations/"}}
}
`,
	}))
	p := prog.Profiles["mine"]
	if diff := cmp.Diff([]string{"coding", "dev"}, p.Extends); diff != "" {
		t.Errorf("extends chain (-want +got):\n%s", diff)
	}
	byID := map[string]string{}
	for _, r := range p.Rules {
		byID[r.ID] = string(r.Action) + map[bool]string{true: "", false: " (off)"}[r.Enabled]
	}
	for id, want := range map[string]string{
		"test_after_changes":  "remind (off)", // toggled, rest inherited
		"confirm_destructive": "warn",         // from dev, weakened
		"protect_migrations":  "block",        // new
		"read_before_edit":    "warn",         // from coding
		"no_sudo":             "block",        // from dev
	} {
		if byID[id] != want {
			t.Errorf("rule %s = %q, want %q", id, byID[id], want)
		}
	}
	if len(p.ToolFamilies["edit"]) == 0 {
		t.Error("tool families not inherited from dev")
	}
}

func TestToolConflict(t *testing.T) {
	ds := testrepo.Diagnostics(t, testrepo.FS(map[string]string{
		"a.cue": `package charter
behaviorTypes: MyFiles: {kind: "tools", tools: read_file: description: "mine"}
agents: a: {name: "A", type: "personal_assistant", behaviors: [{type: "FileToolsBehavior"}, {type: "MyFiles"}]}
`,
	}))
	if len(ds) != 1 || ds[0].Rule != "tool-conflict" || !strings.Contains(ds[0].Message, `"read_file" is provided by both FileToolsBehavior and MyFiles`) {
		t.Fatalf("diagnostics = %v", ds)
	}
	if ds[0].File != "a.cue" || ds[0].Line != 3 {
		t.Errorf("position = %s:%d, want a.cue:3", ds[0].File, ds[0].Line)
	}
}

func TestPlaceholders(t *testing.T) {
	all := strings.Join(compiler.CompileTimeNames, ", ")
	for _, tc := range []struct {
		name, prompt string
		want         []string
	}{
		{
			name:   "undeclared and unknown compile-time",
			prompt: "\"\"\"\n\t\tHello {user}, I am {agent.nmae}.\n\t\t\"\"\"",
			want: []string{
				`a.cue:5:9: error: [placeholder] agentTypes.t.system_prompt: undeclared placeholder {user}: declare it under agentTypes.t.variables.user (a runtime variable), or use a compile-time value: ` + all,
				`a.cue:5:22: error: [placeholder] agentTypes.t.system_prompt: unknown compile-time value {agent.nmae}; compile-time values are ` + all,
			},
		},
		{
			name:   "unterminated on a single line",
			prompt: `"Hi {agent.name}, {oops"`,
			want: []string{
				`a.cue:4:35: error: [placeholder] agentTypes.t.system_prompt: unterminated placeholder "{oops": close it with "}" on the same line; write "{{" and "}}" for literal braces`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := testrepo.Diagnostics(t, testrepo.FS(map[string]string{
				"a.cue": "package charter\nagentTypes: t: {\n\tname: \"T\"\n\tsystem_prompt: " + tc.prompt + "\n}\n",
			}))
			var got []string
			for _, d := range ds {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReleaseSource checks that a program that let go of its CUE values
// still holds everything a build reads, and finds no positions.
func TestReleaseSource(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"types.cue": types,
		"a.cue":     "package charter\nagents: a: {name: \"A\", type: \"t\"}\n",
	}))
	if p := prog.Locate("agents", "a"); p.File != "a.cue" {
		t.Fatalf("before: Locate(agents.a) = %+v, want a.cue", p)
	}
	prog.ReleaseSource()
	if p := prog.Locate("agents", "a"); p != (compiler.Position{}) {
		t.Errorf("after: Locate(agents.a) = %+v, want no position", p)
	}
	rs, ok := prog.Agents[0].Setting("communication", "formatting")
	if !ok || rs.Value.String() != "rich" {
		t.Errorf("after: formatting = %v, %v; want rich", rs.Value, ok)
	}
}

// TestTypeCategories checks that a type's categories choose the sections
// its agents carry, in the type's order, and that a type without them
// carries every category.
func TestTypeCategories(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"types.cue": types + `agentTypes: narrow: {name: "N", system_prompt: "x", categories: ["communication", "approval"]}
`,
		"a.cue": "package charter\nagents: a: {name: \"A\", type: \"narrow\"}\nagents: b: {name: \"B\", type: \"t\"}\n",
	}))
	names := func(a *compiler.Agent) []string {
		var out []string
		for _, c := range a.Behavior {
			out = append(out, c.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"communication", "approval"}, names(prog.Agents[0])); diff != "" {
		t.Errorf("narrow type's categories (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(prog.CategoryOrder, names(prog.Agents[1])); diff != "" {
		t.Errorf("a type without categories (-want +got):\n%s", diff)
	}
}

// TestConditions checks that the compiler compiles every condition of the
// user's rules as the engine will, reporting each problem at its field.
func TestConditions(t *testing.T) {
	ds := testrepo.Diagnostics(t, testrepo.FS(map[string]string{"a.cue": `package charter
profiles: ops: {
	extends: "dev"
	rules: {
		a: {trigger: "bash", action: "remind", condition: {type: "expr", expr: "call.args.command.matches('(x')"}}
		b: {trigger: "bash", action: "remind", condition: {type: "expr", expr: "call.tool"}}
		c: {trigger: "bash", action: "remind", condition: {type: "contains", field: "command", substring: "x", pattern: "y"}}
		d: {trigger: "bash", action: "remind", condition: {type: "matches", field: "command", pattern: "(x"}}
		ok: {trigger: "bash", action: "remind", condition: {type: "expr", expr: "call.args.command.matches('^make')"}}
	}
}
`}))
	var got []string
	for _, d := range ds {
		got = append(got, d.Rule+" "+d.Path)
	}
	want := []string{
		"regex-invalid profiles.ops.rules.a.condition.expr",
		"rule profiles.ops.rules.b.condition.expr",
		"rule profiles.ops.rules.c.condition.pattern",
		"regex-invalid profiles.ops.rules.d.condition.pattern",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestLocateListElement: the locator selects list elements ("[1]"), so a
// finding at an element is placed at the element, not at the list.
func TestLocateListElement(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"a.cue": "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\", model: {provider: \"openai\", model_id: \"gpt-4o\"}\n\ttools: denied: [\n\t\t\"deployment\",\n\t\t\"run_bash\",\n\t]\n}\n",
	}))
	got := prog.Locate("agents", "ann", "tools", "denied", "[1]")
	if got.File != "a.cue" || got.Line != 6 || got.Column != 3 {
		t.Errorf("Locate(agents.ann.tools.denied[1]) = %+v, want a.cue:6:3", got)
	}
}

// TestRuleOrigins: flattening records, per rule, the profiles of the chain
// that declare it (nearest first) and the one whose trigger wins.
func TestRuleOrigins(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"p.cue": `package charter
profiles: base: rules: {
	r1: {rule: "One.", trigger: "bash", action: "remind"}
	r2: {rule: "Two.", trigger: "bash", action: "remind"}
}
profiles: mid: {extends: "base", rules: r1: trigger: "edit"}
profiles: top: {extends: "mid", rules: {r1: message: "Nearer.", r3: {rule: "Three.", trigger: "read", action: "warn"}}}
`,
	}))
	got := prog.RuleOrigins["top"]
	want := map[string]compiler.RuleOrigin{
		"r1": {Declared: []string{"top", "mid", "base"}, Trigger: "mid"},
		"r2": {Declared: []string{"base"}, Trigger: "base"},
		"r3": {Declared: []string{"top"}, Trigger: "top"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("RuleOrigins[top] (-want +got):\n%s", d)
	}
}
