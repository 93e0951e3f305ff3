package rules_test

// This file loads charter's embedded CUE (schema and standard library) so
// that the tests can run the built-in profiles and the CUE-declared rule
// tests. Only tests import CUE; the rules package does not.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sync"
	"testing"

	"cuelang.org/go/cue/parser"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"

	cuefiles "github.com/charter-dev/charter/cue"
	"github.com/charter-dev/charter/rules"
)

// builtinProfiles are the six profiles of the standard library.
var builtinProfiles = []string{"dev", "coding", "research", "data", "creative", "assistant"}

// stdlib builds schema/*.cue and stdlib/*.cue as one instance and checks it
// against #Config.
var stdlib = sync.OnceValues(func() (cue.Value, error) {
	ctx := cuecontext.New()
	inst := build.NewContext().NewInstance("", nil)
	for _, dir := range []string{"schema", "stdlib"} {
		entries, err := fs.ReadDir(cuefiles.FS, dir)
		if err != nil {
			return cue.Value{}, err
		}
		for _, e := range entries {
			p := dir + "/" + e.Name()
			src, err := fs.ReadFile(cuefiles.FS, p)
			if err != nil {
				return cue.Value{}, err
			}
			if err := addFile(inst, p, src); err != nil {
				return cue.Value{}, err
			}
		}
	}
	v := ctx.BuildInstance(inst)
	if err := v.Err(); err != nil {
		return cue.Value{}, err
	}
	v = v.Unify(v.LookupPath(cue.ParsePath("#Config")))
	if err := v.Validate(cue.Concrete(true)); err != nil {
		return cue.Value{}, fmt.Errorf("standard library does not match #Config: %v", err)
	}
	return v, nil
})

// decodeJSON decodes a CUE value through its JSON form, so that numbers and
// maps come out as they would from a runtime's JSON.
func decodeJSON(v cue.Value, x any) error {
	data, err := v.MarshalJSON()
	if err != nil {
		return err
	}
	return json.Unmarshal(data, x)
}

// cueProfile and cueRule are a profile as written in CUE: a rule may set
// only some fields, to change an inherited rule.
type cueProfile struct {
	Description  string              `json:"description"`
	Extends      string              `json:"extends"`
	ToolFamilies map[string][]string `json:"tool_families"`
	Rules        map[string]cueRule  `json:"rules"`
	Classifier   *rules.Classifier   `json:"classifier"`
}

type cueRule struct {
	Rule      *string          `json:"rule"`
	Trigger   *string          `json:"trigger"`
	Condition *rules.Condition `json:"condition"`
	Action    *rules.Action    `json:"action"`
	Message   *string          `json:"message"`
	Cooldown  *int             `json:"cooldown"`
	Enabled   *bool            `json:"enabled"`
}

// flatten resolves a profile's extends chain, as the compiler does: tool
// families merge (a profile's own list replaces an inherited one of the same
// name), and each rule's fields override the inherited rule's field by field.
func flatten(root cue.Value, name string) (rules.Profile, error) {
	var chain []cueProfile
	var names []string
	for n := name; n != ""; {
		if slices.Contains(names, n) {
			return rules.Profile{}, fmt.Errorf("profile %s: extends cycle through %s", name, n)
		}
		v := root.LookupPath(cue.MakePath(cue.Str("profiles"), cue.Str(n)))
		if !v.Exists() {
			return rules.Profile{}, fmt.Errorf("profile %s: no profile %q", name, n)
		}
		var cp cueProfile
		if err := decodeJSON(v, &cp); err != nil {
			return rules.Profile{}, fmt.Errorf("profile %s: %v", n, err)
		}
		chain = append(chain, cp)
		names = append(names, n)
		n = cp.Extends
	}
	p := rules.Profile{Name: name, Description: chain[0].Description, Extends: names[1:], ToolFamilies: map[string][]string{}}
	merged := map[string]*rules.Rule{}
	for i := len(chain) - 1; i >= 0; i-- {
		cp := chain[i]
		maps.Copy(p.ToolFamilies, cp.ToolFamilies)
		if cp.Classifier != nil {
			p.Classifier = cp.Classifier
		}
		for id, cr := range cp.Rules {
			r := merged[id]
			if r == nil {
				r = &rules.Rule{ID: id, Enabled: true}
				merged[id] = r
			}
			set(&r.Text, cr.Rule)
			set(&r.Trigger, cr.Trigger)
			if cr.Condition != nil {
				r.Condition = cr.Condition
			}
			set(&r.Action, cr.Action)
			set(&r.Message, cr.Message)
			set(&r.Cooldown, cr.Cooldown)
			set(&r.Enabled, cr.Enabled)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(merged)) {
		p.Rules = append(p.Rules, *merged[id])
	}
	return p, nil
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// builtin returns a built-in profile, flattened.
func builtin(t testing.TB, name string) rules.Profile {
	t.Helper()
	root, err := stdlib()
	if err != nil {
		t.Fatal(err)
	}
	p, err := flatten(root, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// builtinEngine compiles a built-in profile.
func builtinEngine(t testing.TB, name string) *rules.Engine {
	t.Helper()
	e, err := rules.Compile(builtin(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// cueTest is one entry of tests in CUE (#Test).
type cueTest struct {
	Description string              `json:"description"`
	Profile     string              `json:"profile"`
	Agent       string              `json:"agent"`
	Calls       []rules.Call        `json:"calls"`
	Expect      []rules.Expectation `json:"expect"`
}

// TestBuiltinProfilesCompile compiles every built-in profile, and checks
// every rule one by one as a validator would.
func TestBuiltinProfilesCompile(t *testing.T) {
	for _, name := range builtinProfiles {
		t.Run(name, func(t *testing.T) {
			p := builtin(t, name)
			if _, err := rules.Compile(p); err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Rules {
				if err := rules.CheckRule(r); err != nil {
					t.Errorf("CheckRule(%s): %v", r.ID, err)
				}
			}
			// The compiled form round-trips through its JSON.
			data, err := rules.MarshalProfile(p)
			if err != nil {
				t.Fatal(err)
			}
			back, err := rules.DecodeProfile(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(p.Rules, back.Rules, func(a, b rules.Rule) bool {
				x, _ := json.Marshal(a)
				y, _ := json.Marshal(b)
				return string(x) == string(y)
			}) {
				t.Errorf("profile %s does not round-trip through JSON", name)
			}
		})
	}
}

// TestStdlibRuleTests runs every test declared in cue/stdlib/rule_tests.cue
// through the engine, and checks that together they fire every rule of the
// six built-in profiles at least once and leave it quiet at least once.
func TestStdlibRuleTests(t *testing.T) {
	root, err := stdlib()
	if err != nil {
		t.Fatal(err)
	}
	var tests map[string]cueTest
	if err := decodeJSON(root.LookupPath(cue.ParsePath("tests")), &tests); err != nil {
		t.Fatal(err)
	}
	if len(tests) == 0 {
		t.Fatal("no tests in the standard library")
	}
	fired := map[string]bool{}   // profile/rule that fired where expected
	checked := map[string]bool{} // profile/rule that was expected quiet on a triggering call
	engines := map[string]*rules.Engine{}
	for _, name := range slices.Sorted(maps.Keys(tests)) {
		tc := tests[name]
		t.Run(name, func(t *testing.T) {
			e := engines[tc.Profile]
			if e == nil {
				e = builtinEngine(t, tc.Profile)
				engines[tc.Profile] = e
			}
			res := rules.RunTest(e, tc.Calls, tc.Expect)
			if !res.Passed {
				t.Fatalf("%s\n%s", tc.Description, res)
			}
			for _, x := range tc.Expect {
				want := map[string]bool{}
				for _, f := range x.Fires {
					fired[tc.Profile+"/"+f.Rule] = true
					want[f.Rule] = true
				}
				for _, r := range e.Profile().Rules {
					// A rule with neither condition nor cooldown fires on every
					// call it triggers on: its negative case is a call it does
					// not trigger on.
					always := r.Condition == nil && r.Cooldown == 0
					if !want[r.ID] && (always || triggers(e, r, tc.Calls[x.Call].Tool)) {
						checked[tc.Profile+"/"+r.ID] = true
					}
				}
			}
		})
	}
	for _, name := range builtinProfiles {
		for _, r := range builtin(t, name).Rules {
			key := name + "/" + r.ID
			// Inherited dev rules are covered by the dev tests.
			if name != "dev" && slices.ContainsFunc(builtin(t, "dev").Rules, func(d rules.Rule) bool { return d.ID == r.ID }) {
				continue
			}
			if !fired[key] {
				t.Errorf("no test in rule_tests.cue expects %s to fire", key)
			}
			if !checked[key] {
				t.Errorf("no test in rule_tests.cue expects %s to stay quiet on a call it triggers on", key)
			}
		}
	}
}

// triggers reports whether a rule's trigger matches a tool.
func triggers(e *rules.Engine, r rules.Rule, tool string) bool {
	return r.Trigger == "*" || r.Trigger == tool || slices.Contains(e.Families(tool), r.Trigger)
}

// addFile parses src and adds it to inst (build.Instance.AddFile, which
// is deprecated, did both).
func addFile(inst *build.Instance, name string, src any) error {
	f, err := parser.ParseFile(name, src)
	if err != nil {
		return err
	}
	return inst.AddSyntax(f)
}
