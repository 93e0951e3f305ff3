package diag

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteText(t *testing.T) {
	full := Diagnostic{
		File: "agents/sarah.cue", Line: 12, Column: 20, Severity: Error, Rule: "tool-conflict",
		Message: `tool "bash" is both allowed and denied`, Path: "agents.sarah.tools",
	}
	tests := []struct {
		name  string
		ds    []Diagnostic
		color bool
		want  string
	}{
		{name: "none", ds: nil, want: ""},
		{
			name: "plain",
			ds:   []Diagnostic{full},
			want: "agents/sarah.cue:12:20: error: [tool-conflict] tool \"bash\" is both allowed and denied\n",
		},
		{
			name: "order kept, one line each",
			ds: []Diagnostic{
				{File: "b.cue", Line: 1, Column: 1, Severity: Warning, Rule: "r", Message: "second"},
				{File: "a.cue", Line: 3, Column: 2, Severity: Info, Message: "first"},
			},
			want: "b.cue:1:1: warning: [r] second\na.cue:3:2: info: first\n",
		},
		{
			name: "no line, no file",
			ds: []Diagnostic{
				{File: "a.cue", Severity: Error, Rule: "r", Message: "m"},
				{Severity: Error, Message: "no module"},
			},
			want: "a.cue: error: [r] m\nerror: no module\n",
		},
		{
			name:  "colour on the severity word only",
			ds:    []Diagnostic{full},
			color: true,
			want:  "agents/sarah.cue:12:20: \x1b[1;31merror\x1b[0m: [tool-conflict] tool \"bash\" is both allowed and denied\n",
		},
		{
			name: "each severity has its colour",
			ds: []Diagnostic{
				{Severity: Warning, Message: "w"},
				{File: "x.cue", Line: 1, Column: 1, Severity: Info, Message: "i"},
			},
			color: true,
			want:  "\x1b[1;33mwarning\x1b[0m: w\nx.cue:1:1: \x1b[1;36minfo\x1b[0m: i\n",
		},
		{
			// A message that looks like a location must not confuse the split.
			name:  "colour with a message holding a severity",
			ds:    []Diagnostic{{File: "error: a.cue", Line: 2, Column: 1, Severity: Warning, Message: "error: x"}},
			color: true,
			want:  "error: a.cue:2:1: \x1b[1;33mwarning\x1b[0m: error: x\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, func(b *bytes.Buffer) error { return WriteText(b, tt.ds, TextOptions{Color: tt.color}) })
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("WriteText (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteTextMatchesString holds WriteText to Diagnostic.String, with and
// without colour, on every shared fixture.
func TestWriteTextMatchesString(t *testing.T) {
	plain := render(t, func(b *bytes.Buffer) error { return WriteText(b, lintDiagnostics, TextOptions{}) })
	colored := render(t, func(b *bytes.Buffer) error { return WriteText(b, lintDiagnostics, TextOptions{Color: true}) })
	var want strings.Builder
	for _, d := range lintDiagnostics {
		want.WriteString(d.String() + "\n")
	}
	if diff := cmp.Diff(want.String(), string(plain)); diff != "" {
		t.Errorf("plain text (-want +got):\n%s", diff)
	}
	if bytes.Contains(plain, []byte("\x1b")) {
		t.Errorf("plain text holds an escape sequence:\n%q", plain)
	}
	stripped := strings.NewReplacer(ansiRed, "", ansiYellow, "", ansiCyan, "", ansiReset, "").Replace(string(colored))
	if diff := cmp.Diff(want.String(), stripped); diff != "" {
		t.Errorf("coloured text without its colours (-want +got):\n%s", diff)
	}
}
