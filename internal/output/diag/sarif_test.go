package diag

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/sariftest"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaFile is the official SARIF 2.1.0 schema (OASIS, errata 01),
// kept in the repo so the tests need nothing outside it.
const sarifSchemaFile = "testdata/sarif-schema-2.1.0.json"

// compileSARIFSchema compiles the official schema.
func compileSARIFSchema(t *testing.T) *jsonschema.Schema { return sariftest.Schema(t) }

func TestWriteSARIFValidatesAgainstSchema(t *testing.T) {
	schema := compileSARIFSchema(t)
	tests := []struct {
		name  string
		ds    []Diagnostic
		rules []RuleInfo
		tool  ToolInfo
	}{
		{name: "lint run", ds: lintDiagnostics, rules: lintRules, tool: lintTool},
		{name: "nothing at all"},
		{name: "rules, no findings", rules: lintRules, tool: ToolInfo{Version: "devel"}},
		{name: "findings, no rules", ds: lintDiagnostics},
		{
			name: "odd file names",
			ds: []Diagnostic{
				{File: "c:/x.cue", Line: 1, Column: 1, Severity: Error, Rule: "r", Message: "colon in the first segment"},
				{File: "ü/a b#?%.cue", Line: 1, Severity: Error, Rule: "r", Message: "non-ASCII and reserved"},
				{File: `back\slash.cue`, Line: 1, Column: -1, Severity: Error, Rule: "r", Message: "negative column"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, tt.ds, tt.rules, tt.tool) })
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("output is not valid SARIF 2.1.0: %v\n%s", err, out)
			}
		})
	}
}

// sarifSchemaSHA256 is the hash of the schema as OASIS publishes it
// (sarif-schema-2.1.0.json of errata 01): a copy edited by accident fails.
const sarifSchemaSHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

// TestSARIFSchemaCopy holds testdata's schema to the published one.
func TestSARIFSchemaCopy(t *testing.T) {
	b, err := os.ReadFile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != sarifSchemaSHA256 {
		t.Errorf("%s has sha256 %s, want the published schema's %s: copy it again from OASIS", sarifSchemaFile, got, sarifSchemaSHA256)
	}
}

func TestWriteSARIFGolden(t *testing.T) {
	got := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, lintDiagnostics, lintRules, lintTool) })
	checkGolden(t, "lint.sarif.json", got)
}

// TestWriteSARIFDeterministic writes the same findings twice, the second time
// with the rules in another order: the bytes must not change.
func TestWriteSARIFDeterministic(t *testing.T) {
	first := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, lintDiagnostics, lintRules, lintTool) })
	reversed := slices.Clone(lintRules)
	slices.Reverse(reversed)
	second := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, lintDiagnostics, reversed, lintTool) })
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Errorf("rule order changed the output (-first +second):\n%s", diff)
	}
}

// TestWriteSARIFRuleMetadata reads the output as plain JSON and checks that
// every rule carries its metadata, and that each result points at its rule.
func TestWriteSARIFRuleMetadata(t *testing.T) {
	out := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, lintDiagnostics, lintRules, lintTool) })
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version, InformationURI string
					Rules                         []map[string]any
				}
			}
			OriginalURIBaseIDs map[string]map[string]any `json:"originalUriBaseIds"`
			Results            []map[string]any
		}
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 {
		t.Fatalf("want one SARIF 2.1.0 run with a $schema, got version %q, $schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	driver := run.Tool.Driver
	if driver.Name != "charter" || driver.Version != "1.4.0" || driver.InformationURI != DefaultInformationURI {
		t.Errorf("driver = %q %q %q", driver.Name, driver.Version, driver.InformationURI)
	}
	if diff := cmp.Diff(map[string]map[string]any{"%SRCROOT%": {"uri": "file:///home/ci/repo/"}}, run.OriginalURIBaseIDs); diff != "" {
		t.Errorf("originalUriBaseIds (-want +got):\n%s", diff)
	}

	// Every RuleInfo is there, sorted, with all its metadata; "schema", used
	// by a finding but not registered, is there with what GitHub requires.
	var ids []string
	for _, r := range driver.Rules {
		ids = append(ids, r["id"].(string))
	}
	wantIDs := []string{"prompt-budget", "schema", "secret-literal", "tool-conflict", "unknown-placeholder", "unreachable-option"}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Fatalf("rule ids (-want +got):\n%s", diff)
	}
	levels := map[Severity]string{Error: "error", Warning: "warning", Info: "note"}
	for _, info := range lintRules {
		got := driver.Rules[slices.Index(ids, info.ID)]
		want := map[string]any{
			"id":                   info.ID,
			"shortDescription":     map[string]any{"text": info.Summary},
			"fullDescription":      map[string]any{"text": firstParagraph(info.Doc)},
			"help":                 map[string]any{"text": trimmed(info.Doc), "markdown": trimmed(info.Doc)},
			"helpUri":              "https://charter.dev/docs/rules/" + info.ID,
			"defaultConfiguration": map[string]any{"level": levels[info.Severity]},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("rule %s (-want +got):\n%s", info.ID, diff)
		}
	}
	unknown := "charter reports schema findings; the message of each result says what is wrong and how to fix it."
	if diff := cmp.Diff(map[string]any{
		"id":               "schema",
		"shortDescription": map[string]any{"text": "charter check schema"},
		"fullDescription":  map[string]any{"text": unknown},
		"help":             map[string]any{"text": unknown, "markdown": unknown},
	}, driver.Rules[slices.Index(ids, "schema")]); diff != "" {
		t.Errorf("unregistered rule (-want +got):\n%s", diff)
	}

	if len(run.Results) != len(lintDiagnostics) {
		t.Fatalf("got %d results for %d diagnostics", len(run.Results), len(lintDiagnostics))
	}
	for i, res := range run.Results {
		d := lintDiagnostics[i]
		if d.Rule == "" {
			if _, ok := res["ruleIndex"]; ok {
				t.Errorf("result %d has no rule but a ruleIndex", i)
			}
			continue
		}
		idx, ok := res["ruleIndex"].(float64)
		if !ok || ids[int(idx)] != res["ruleId"] || res["ruleId"] != d.Rule {
			t.Errorf("result %d: ruleId %v, ruleIndex %v: want %q at its index", i, res["ruleId"], res["ruleIndex"], d.Rule)
		}
	}
}

func trimmed(s string) string { return string(bytes.TrimSpace([]byte(s))) }

// TestWriteSARIFResults checks each kind of finding becomes the right result.
func TestWriteSARIFResults(t *testing.T) {
	rules := []RuleInfo{{ID: "r", Severity: Error, Summary: "s"}}
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{
			name: "full position and path",
			d:    Diagnostic{File: "agents/sarah.cue", Line: 12, Column: 20, Severity: Error, Rule: "r", Message: "m", Path: "agents.sarah.model"},
			want: `{"ruleId": "r", "ruleIndex": 0, "level": "error", "message": {"text": "m"},
				"locations": [{"physicalLocation": {
					"artifactLocation": {"uri": "agents/sarah.cue", "uriBaseId": "%SRCROOT%"},
					"region": {"startLine": 12, "startColumn": 20}}}],
				"properties": {"path": "agents.sarah.model"}}`,
		},
		{
			name: "warning, no column",
			d:    Diagnostic{File: "a.cue", Line: 3, Severity: Warning, Rule: "r", Message: "m"},
			want: `{"ruleId": "r", "ruleIndex": 0, "level": "warning", "message": {"text": "m"},
				"locations": [{"physicalLocation": {
					"artifactLocation": {"uri": "a.cue", "uriBaseId": "%SRCROOT%"},
					"region": {"startLine": 3}}}]}`,
		},
		{
			name: "info is a note; no line, no region",
			d:    Diagnostic{File: "a.cue", Column: 7, Severity: Info, Rule: "r", Message: "m"},
			want: `{"ruleId": "r", "ruleIndex": 0, "level": "note", "message": {"text": "m"},
				"locations": [{"physicalLocation": {
					"artifactLocation": {"uri": "a.cue", "uriBaseId": "%SRCROOT%"}}}]}`,
		},
		{
			name: "no file, no locations",
			d:    Diagnostic{Severity: Error, Rule: "r", Message: "m", Path: "agents"},
			want: `{"ruleId": "r", "ruleIndex": 0, "level": "error", "message": {"text": "m"}, "properties": {"path": "agents"}}`,
		},
		{
			name: "no rule, no ruleId or ruleIndex",
			d:    Diagnostic{Severity: Error, Message: "m"},
			want: `{"level": "error", "message": {"text": "m"}}`,
		},
		{
			name: "unregistered rule gets the index of its added entry",
			d:    Diagnostic{Severity: Error, Rule: "a-check", Message: "m"},
			want: `{"ruleId": "a-check", "ruleIndex": 0, "level": "error", "message": {"text": "m"}}`,
		},
		{
			// SARIF reads [text](target) in a plain text message as an
			// embedded link (GitHub links related locations so); a
			// value from the configuration must not make one. Literal
			// brackets and backslashes are escaped as CodeQL writes
			// them (\[, \], \\), which SARIF viewers unescape.
			name: "embedded link syntax escaped",
			d:    Diagnostic{Severity: Error, Rule: "r", Message: `agent "[click](https://evil.example/)" \[x\](1)`},
			want: `{"ruleId": "r", "ruleIndex": 0, "level": "error", "message": {"text": "agent \"\\[click\\](https://evil.example/)\" \\\\\\[x\\\\\\](1)"}}`,
		},
		{
			name: "message text kept as is",
			d:    Diagnostic{Severity: Error, Rule: "r", Message: "a <b> & \"c\"\nd 100%"},
			want: `{"ruleId": "r", "ruleIndex": 0, "level": "error", "message": {"text": "a <b> & \"c\"\nd 100%"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, []Diagnostic{tt.d}, rules, ToolInfo{}) })
			var log struct {
				Runs []struct{ Results []map[string]any }
			}
			if err := json.Unmarshal(out, &log); err != nil {
				t.Fatal(err)
			}
			for _, r := range log.Runs[0].Results {
				fp, _ := r["partialFingerprints"].(map[string]any)
				if len(fp) != 1 || fp["charterFinding/v1"] == nil {
					t.Errorf("partialFingerprints = %v, want one charterFinding/v1", r["partialFingerprints"])
				}
				delete(r, "partialFingerprints") // TestFingerprints checks the values
			}
			var want any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]any{want}, anys(log.Runs[0].Results)); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// TestFingerprints checks that a finding keeps its fingerprint when its
// line moves, that any other change gives a new one, and that equal
// findings are told apart by their count.
func TestFingerprints(t *testing.T) {
	base := Diagnostic{File: "agents/a.cue", Line: 3, Column: 5, Severity: Warning, Rule: "r", Path: "agents.a.model", Message: "m"}
	moved := base
	moved.Line, moved.Column = 30, 1
	fp := func(d Diagnostic) string { return Fingerprints([]Diagnostic{d})[0] }
	if fp(base) != fp(moved) {
		t.Errorf("moving a finding changed its fingerprint: %s, %s", fp(base), fp(moved))
	}
	for _, change := range []func(*Diagnostic){
		func(d *Diagnostic) { d.File = "agents/b.cue" },
		func(d *Diagnostic) { d.Rule = "s" },
		func(d *Diagnostic) { d.Path = "agents.b.model" },
		func(d *Diagnostic) { d.Message = "n" },
	} {
		d := base
		change(&d)
		if fp(d) == fp(base) {
			t.Errorf("%+v has the fingerprint of %+v", d, base)
		}
	}
	two := Fingerprints([]Diagnostic{base, moved})
	if two[0] == two[1] || two[0][:len(two[0])-2] != two[1][:len(two[1])-2] {
		t.Errorf("equal findings: %v, want the same hash with :1 and :2", two)
	}
}

func TestArtifactURI(t *testing.T) {
	tests := []struct{ file, want string }{
		{"agents/sarah.cue", "agents/sarah.cue"},
		{"a b/c.cue", "a%20b/c.cue"},
		{"100%.cue", "100%25.cue"},
		{"what?#.cue", "what%3F%23.cue"},
		{"c:/x.cue", "./c:/x.cue"},
		{"dir/c:x.cue", "dir/c:x.cue"},
		{"ü.cue", "%C3%BC.cue"},
	}
	for _, tt := range tests {
		if got := artifactURI(tt.file); got != tt.want {
			t.Errorf("artifactURI(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
}

func TestFirstParagraph(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"", ""},
		{"One line.", "One line."},
		{"\n  First\nstill first.\n\nSecond.", "First\nstill first."},
		{"First.\r\n\r\nSecond.", "First."},
	}
	for _, tt := range tests {
		if got := firstParagraph(tt.doc); got != tt.want {
			t.Errorf("firstParagraph(%q) = %q, want %q", tt.doc, got, tt.want)
		}
	}
}
