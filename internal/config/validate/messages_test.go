package validate_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/diag"
)

// run loads files (path -> source) and validates them, returning every
// diagnostic as "file:line:col: [rule] message".
func run(t *testing.T, files map[string]string) []string {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, src := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(src)}
	}
	repo, ds, err := load.Load(fsys, "repo")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	res := validate.Run(repo)
	var out []string
	for _, d := range diag.Sort(append(ds, res.Diagnostics...)) {
		out = append(out, strings.TrimPrefix(d.String(), "error: "))
	}
	return out
}

// agent wraps the fields of an agent ann in a file agents/ann.cue; its
// first field is on line 4.
func agent(fields string) map[string]string {
	return map[string]string{"agents/ann.cue": "package charter\n\nagents: ann: {\n" + fields + "\n}\n"}
}

const base = "\tname: \"Ann\"\n\ttype: \"personal_assistant\"\n"

func TestMessages(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "valid",
			files: agent(base),
			want:  nil,
		},
		{
			name:  "enum: one line with the valid options",
			files: agent(base + "\tpersonality: verbosity: \"chatty\""),
			want: []string{
				`agents/ann.cue:6:26: error: [schema] agents.ann.personality.verbosity: "chatty" is not an option; valid options: balanced, terse, verbose`,
			},
		},
		{
			name:  "range: the value and the bounds",
			files: agent(base + "\tskills: primary: [{id: \"go\", name: \"Go\", proficiency: 1.5}]"),
			want: []string{
				`agents/ann.cue:6:56: error: [schema] agents.ann.skills.primary[0].proficiency: 1.5 is out of range: want a number from 0 to 1`,
			},
		},
		{
			name:  "range: an exclusive bound",
			files: agent(base + "\tmodel: {provider: \"p\", model_id: \"m\", max_tokens: -3}"),
			want: []string{
				`agents/ann.cue:6:52: error: [schema] agents.ann.model.max_tokens: -3 is out of range: want an integer more than 0`,
			},
		},
		{
			name:  "type: the value and what is wanted",
			files: agent(base + "\tmodel: {provider: \"p\", model_id: \"m\", temperature: \"hot\"}"),
			want: []string{
				`agents/ann.cue:6:53: error: [schema] agents.ann.model.temperature: "hot" has the wrong type: want a number from 0 to 2`,
			},
		},
		{
			name:  "type: a declaration that is not a struct",
			files: map[string]string{"a.cue": "package charter\n\nagents: ann: 3\n"},
			want: []string{
				`a.cue:3:14: error: [schema] agents.ann: 3 has the wrong type: want an agent (a struct of fields)`,
			},
		},
		{
			name:  "required: at the declaration, with what to add",
			files: agent("\ttype: \"personal_assistant\""),
			want: []string{
				`agents/ann.cue:3:9: error: [schema] agents.ann.name: required field is missing; add name: a non-empty string`,
			},
		},
		{
			name:  "incomplete: a type where a value is needed",
			files: agent(base + "\tmodel: {provider: \"p\", model_id: string}"),
			want: []string{
				`agents/ann.cue:6:25: error: [schema] agents.ann.model.model_id: needs a concrete value: want a non-empty string`,
			},
		},
		{
			name: "stdlib conflict: the built-in value and what to do",
			files: map[string]string{"a.cue": "package charter\n\n" +
				"profiles: coding: rules: read_before_edit: action: \"block\"\n" +
				"presets: quiet: description: \"Loud.\"\n"},
			want: []string{
				`a.cue:3:52: error: [schema] profiles.coding.rules.read_before_edit.action: conflicts with the standard library, which sets it to "warn": built-in profiles cannot be changed; declare a profile of your own with extends: "coding" and change the rule there`,
				`a.cue:4:30: error: [schema] presets.quiet.description: conflicts with the standard library, which sets it to "Say little: minimal responses and no unsolicited updates.": built-in presets cannot be changed; declare a preset of your own instead`,
			},
		},
		{
			name: "a user folder named stdlib is not the standard library",
			files: map[string]string{
				"team/stdlib/x.cue": "package charter\n\nagents: ann: name: \"Ann\"\n",
				"a.cue":             "package charter\n\nagents: ann: {name: \"Anne\", type: \"personal_assistant\"}\n",
			},
			want: []string{
				`team/stdlib/x.cue:3:20: error: [schema] agents.ann.name: conflicting values "Ann" and "Anne" (the other is set at a.cue:3:21); a field has one value: keep one of them`,
			},
		},
		{
			name: "stdlib: agreeing and adding are fine",
			files: map[string]string{"a.cue": "package charter\n\n" +
				"profiles: coding: rules: read_before_edit: action: \"warn\"\n" +
				"categories: proactivity: settings: reminders: options: weekly: text: \"Remind weekly\"\n"},
			want: nil,
		},
		{
			name: "conflict between two user files",
			files: map[string]string{
				"a.cue": "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\"}\n",
				"b.cue": "package charter\n\nagents: ann: name: \"Anne\"\n",
			},
			want: []string{
				`b.cue:3:20: error: [schema] agents.ann.name: conflicting values "Anne" and "Ann" (the other is set at a.cue:3:21); a field has one value: keep one of them`,
			},
		},
		{
			name:  "unknown field: at the label, with the closest name",
			files: agent(base + "\tpersonality: {opennes: 0.5}"),
			want: []string{
				`agents/ann.cue:6:16: error: [unknown-field] agents.ann.personality.opennes: unknown field "opennes"; did you mean "openness"?`,
			},
		},
		{
			name:  "unknown field: nothing close lists the valid fields",
			files: agent(base + "\tmemory: {type: \"none\", zzz: 1}"),
			want: []string{
				`agents/ann.cue:6:25: error: [unknown-field] agents.ann.memory.zzz: unknown field "zzz"; valid fields: retention_days, retention_overrides, type`,
			},
		},
		{
			name: "unknown field under a pattern constraint ([Name=string]: #Variable)",
			files: map[string]string{"a.cue": "package charter\n\n" +
				"agentTypes: t: {name: \"T\", system_prompt: \"x\", variables: user: {descripton: \"x\"}}\n"},
			want: []string{
				`a.cue:3:66: error: [unknown-field] agentTypes.t.variables.user.descripton: unknown field "descripton"; did you mean "description"?`,
			},
		},
		{
			name:  "unknown top-level field",
			files: map[string]string{"a.cue": "package charter\n\nprofile: x: {}\n"},
			want: []string{
				`a.cue:3:1: error: [unknown-field] profile: unknown top-level field "profile"; did you mean "profiles"?`,
			},
		},
		{
			name:  "unknown category, at its label",
			files: agent(base + "\tbehavior: sheduling: ambiguous_time: \"ask_user\""),
			want: []string{
				`agents/ann.cue:6:12: error: [unknown-category] agents.ann.behavior.sheduling: unknown category "sheduling"; did you mean "scheduling"?`,
			},
		},
		{
			name:  "unknown setting, at its label",
			files: agent(base + "\tbehavior: scheduling: ambigous_time: \"ask_user\""),
			want: []string{
				`agents/ann.cue:6:24: error: [unknown-setting] agents.ann.behavior.scheduling.ambigous_time: category scheduling has no setting "ambigous_time"; did you mean "ambiguous_time"?`,
			},
		},
		{
			name:  "unknown option, at its value",
			files: agent(base + "\tbehavior: scheduling: ambiguous_time: \"ask_users\""),
			want: []string{
				`agents/ann.cue:6:40: error: [unknown-option] agents.ann.behavior.scheduling.ambiguous_time: "ask_users" is not an option; valid options: ask_user, email_options (did you mean "ask_user"?)`,
			},
		},
		{
			name:  "numeric setting out of range",
			files: agent(base + "\tbehavior: scheduling: propose_options_count: 1"),
			want: []string{
				`agents/ann.cue:6:47: error: [unknown-option] agents.ann.behavior.scheduling.propose_options_count: 1 is out of range; valid values: 2 to 5`,
			},
		},
		{
			name:  "unknown agent type",
			files: agent("\tname: \"Ann\"\n\ttype: \"personal-assistant\""),
			want: []string{
				`agents/ann.cue:5:8: error: [reference] agents.ann.type: unknown agent type "personal-assistant"; did you mean "personal_assistant"?`,
			},
		},
		{
			name:  "unknown profile",
			files: agent(base + "\tprofile: \"reserch\""),
			want: []string{
				`agents/ann.cue:6:11: error: [reference] agents.ann.profile: unknown profile "reserch"; did you mean "research"?`,
			},
		},
		{
			name:  "unknown behavior type",
			files: agent(base + "\tbehaviors: [{type: \"FileToolBehavior\"}]"),
			want: []string{
				`agents/ann.cue:6:21: error: [reference] agents.ann.behaviors[0].type: unknown behavior type "FileToolBehavior"; did you mean "FileToolsBehavior"?`,
			},
		},
		{
			name:  "unknown behavior parameter, at its label",
			files: agent(base + "\tbehaviors: [{type: \"LoopDetectionBehavior\", params: max_repeat: 2}]"),
			want: []string{
				`agents/ann.cue:6:54: error: [unknown-param] agents.ann.behaviors[0].params.max_repeat: behavior type LoopDetectionBehavior has no parameter "max_repeat"; did you mean "max_repeats"?`,
			},
		},
		{
			name: "extends: unknown and cycle",
			files: map[string]string{"p.cue": "package charter\n\n" +
				"profiles: a: extends: \"b\"\nprofiles: b: extends: \"a\"\nprofiles: c: extends: \"dve\"\n"},
			want: []string{
				`p.cue:3:23: error: [extends-cycle] profiles.a.extends: profiles extend each other in a cycle: a -> b -> a; remove one extends`,
				`p.cue:5:23: error: [reference] profiles.c.extends: unknown profile "dve"; did you mean "dev"?`,
			},
		},
		{
			name: "masking: a conflict does not hide an unknown field or a reference",
			files: agent("\tname: \"Ann\"\n\ttype: \"assistant\"\n" +
				"\tpersonality: {openness: 2, colour: \"blue\"}"),
			want: []string{
				`agents/ann.cue:5:8: error: [reference] agents.ann.type: unknown agent type "assistant"; valid agent types: personal_assistant`,
				`agents/ann.cue:6:26: error: [schema] agents.ann.personality.openness: 2 is out of range: want a number from 0 to 1`,
				`agents/ann.cue:6:29: error: [unknown-field] agents.ann.personality.colour: unknown field "colour"; valid fields include: agreeableness, collaboration, communication_style, conflict_approach, conscientiousness, creativity, decision_making, description, extraversion, openness, risk_tolerance, stress_response, ...`,
			},
		},
		{
			name: "masking: a conflict between files does not hide the other agents",
			files: map[string]string{
				"a.cue": "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\"}\nagents: bob: {name: \"Bob\", type: \"nope\"}\n",
				"b.cue": "package charter\n\nagents: ann: name: \"Anne\"\n",
			},
			want: []string{
				`a.cue:4:34: error: [reference] agents.bob.type: unknown agent type "nope"; valid agent types: personal_assistant`,
				`b.cue:3:20: error: [schema] agents.ann.name: conflicting values "Anne" and "Ann" (the other is set at a.cue:3:21); a field has one value: keep one of them`,
			},
		},
		{
			// One mistake, one line, at the wrong-typed value: a value
			// that reaches the field by reference is named by the
			// reference, and the path is the field's (it was doubled).
			name: "type conflict through a reference",
			files: map[string]string{
				"y.cue": "package charter\n\nagents: zz_t: {name: \"Z\", type: \"personal_assistant\", personality: openness: 0.6}\n",
				"z.cue": "package charter\n\nagents: zz_t: personality: openness: agents.zz_t.name\n",
			},
			want: []string{
				`z.cue:3:38: error: [schema] agents.zz_t.personality.openness: conflicting values agents.zz_t.name (a string, set here) and 0.6 (a number, set at y.cue:3:78): want a number from 0 to 1; a field has one value: keep one of them`,
			},
		},
		{
			// Lists unify element by element: a list written in two
			// files does not append; both places are half the mistake.
			name: "a list written in two files",
			files: map[string]string{
				"y.cue": "package charter\n\nagents: zz_t: {name: \"Z\", type: \"personal_assistant\", skills: primary: [{id: \"a\", name: \"A\"}]}\n",
				"z.cue": "package charter\n\nagents: zz_t: skills: primary: [{id: \"a\", name: \"A\"}, {id: \"b\", name: \"B\"}]\n",
			},
			want: []string{
				`y.cue:3:72: error: [schema] agents.zz_t.skills.primary: this list (1 item) and the one at z.cue:3:32 (2 items) are one list written in two places: CUE unifies lists item by item, so lists do not append across files; write the whole list in one place`,
				`z.cue:3:32: error: [schema] agents.zz_t.skills.primary: this list (2 items) and the one at y.cue:3:72 (1 item) are one list written in two places: CUE unifies lists item by item, so lists do not append across files; write the whole list in one place`,
			},
		},
		{
			// A reference to nothing made the whole value an error,
			// which nothing reported: every agent of the repository
			// vanished and validate said ok.
			name: "a reference to nothing",
			files: map[string]string{
				"a.cue": "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\"}\nagents: bob: {name: \"Bob\", type: \"personal_assistant\", description: \"\\(prefix) and \\(nothing)\"}\n",
			},
			want: []string{
				`a.cue:4:72: error: [reference] agents.bob.description: reference "prefix" not found: declare it, or correct the name`,
				`a.cue:4:86: error: [reference] agents.bob.description: reference "nothing" not found: declare it, or correct the name`,
			},
		},
		{
			// A test that expects a rule its profile does not have can
			// never pass: say so, with the closest rule.
			name: "a test expects a rule its profile lacks",
			files: map[string]string{
				"t.cue": "package charter\n\nprofiles: mine: {extends: \"coding\", rules: protect: {rule: \"x\", trigger: \"edit\", action: \"block\", message: \"m\"}}\ntests: t: {profile: \"mine\", calls: [{tool: \"Edit\", args: file_path: \"a\"}], expect: [{call: 0, fires: [{rule: \"read_befor_edit\", action: \"warn\"}, {rule: \"protect\", action: \"block\"}]}]}\n",
			},
			want: []string{
				`t.cue:4:110: error: [reference] tests.t.expect[0].fires[0].rule: unknown rule "read_befor_edit" of profile mine; did you mean "read_before_edit"?`,
			},
		},
		{
			name: "type conflict through a hidden field",
			files: map[string]string{
				"y.cue": "package charter\n\nagents: zz_t: {name: \"Z\", type: \"personal_assistant\", personality: openness: 0.6}\n",
				"z.cue": "package charter\n\n_x: \"high\"\nagents: zz_t: personality: openness: _x\n",
			},
			want: []string{
				`z.cue:4:38: error: [schema] agents.zz_t.personality.openness: conflicting values _x (a string, set here) and 0.6 (a number, set at y.cue:3:78): want a number from 0 to 1; a field has one value: keep one of them`,
			},
		},
		{
			name:  "skills: duplicate in a tier and in both tiers",
			files: agent(base + "\tskills: {primary: [{id: \"a\", name: \"A\"}, {id: \"a\", name: \"A\"}], secondary: [{id: \"a\", name: \"A\"}]}"),
			want: []string{
				`agents/ann.cue:6:48: error: [skill] agents.ann.skills.primary[1].id: duplicate skill id "a" in primary skills; each skill appears once per tier`,
				`agents/ann.cue:6:83: error: [skill] agents.ann.skills.secondary[0].id: skill "a" is in both primary and secondary skills; keep it in one tier`,
			},
		},
		{
			name:  "slug",
			files: map[string]string{"a.cue": "package charter\n\nagents: \"Ann\": {name: \"Ann\", type: \"personal_assistant\"}\n"},
			want: []string{
				`a.cue:3:9: error: [slug] agents.Ann: agent id "Ann" is not a slug: use lower-case letters, digits, '-' and '_', starting with a letter or digit (it becomes a file name in the bundle)`,
			},
		},
		{
			name: "agent type categories: unknown and twice",
			files: map[string]string{"t.cue": "package charter\n\n" +
				"agentTypes: t: {name: \"T\", system_prompt: \"x\", categories: [\"comunication\", \"approval\", \"approval\"]}\n"},
			want: []string{
				`t.cue:3:61: error: [reference] agentTypes.t.categories[0]: unknown category "comunication"; did you mean "communication"?`,
				`t.cue:3:89: error: [reference] agentTypes.t.categories[2]: category "approval" is listed twice; list each once`,
			},
		},
		{
			name: "hidden fields are checked too",
			files: map[string]string{"a.cue": "package charter\n\n" +
				"_x: {a: 1}\n_x: {a: 2}\n"},
			want: []string{
				`a.cue:4:9: error: [schema] _x.a: conflicting values 2 and 1 (the other is set at a.cue:3:9); a field has one value: keep one of them`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, tt.files)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
