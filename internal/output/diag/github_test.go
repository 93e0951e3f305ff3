package diag

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteGitHub(t *testing.T) {
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{
			name: "error with every property",
			d:    Diagnostic{File: "agents/sarah.cue", Line: 12, Column: 20, Severity: Error, Rule: "tool-conflict", Message: "tool bash is both allowed and denied"},
			want: "::error title=[tool-conflict],file=agents/sarah.cue,line=12,col=20::tool bash is both allowed and denied",
		},
		{
			name: "warning",
			d:    Diagnostic{File: "a.cue", Line: 1, Column: 2, Severity: Warning, Rule: "r", Message: "m"},
			want: "::warning title=[r],file=a.cue,line=1,col=2::m",
		},
		{
			name: "info is a notice",
			d:    Diagnostic{File: "a.cue", Line: 1, Column: 2, Severity: Info, Rule: "r", Message: "m"},
			want: "::notice title=[r],file=a.cue,line=1,col=2::m",
		},
		{
			name: "no column",
			d:    Diagnostic{File: "a.cue", Line: 4, Severity: Error, Rule: "r", Message: "m"},
			want: "::error title=[r],file=a.cue,line=4::m",
		},
		{
			name: "no line: no line and no column",
			d:    Diagnostic{File: "a.cue", Column: 3, Severity: Error, Rule: "r", Message: "m"},
			want: "::error title=[r],file=a.cue::m",
		},
		{
			name: "no rule: no title",
			d:    Diagnostic{File: "a.cue", Line: 1, Column: 1, Severity: Error, Message: "m"},
			want: "::error file=a.cue,line=1,col=1::m",
		},
		{
			name: "no property at all",
			d:    Diagnostic{Severity: Error, Message: "no module"},
			want: "::error::no module",
		},
		{
			name: "message newlines and percent signs",
			d:    Diagnostic{Severity: Warning, Message: "100% over\nhint: cut it\r\nnow %0A stays"},
			want: "::warning::100%25 over%0Ahint: cut it%0D%0Anow %250A stays",
		},
		{
			name: "message colons and commas are data, left alone",
			d:    Diagnostic{Severity: Error, Message: "a: b, c :: d"},
			want: "::error::a: b, c :: d",
		},
		{
			name: "property colons, commas, percent signs and newlines",
			d:    Diagnostic{File: "dir, v2: 100%/x\ny.cue", Line: 2, Column: 1, Severity: Error, Rule: "a:b,c", Message: "m"},
			want: "::error title=[a%3Ab%2Cc],file=dir%2C v2%3A 100%25/x%0Ay.cue,line=2,col=1::m",
		},
		{
			name: "control characters from config values are made visible",
			d:    Diagnostic{File: "a.cue", Line: 1, Severity: Warning, Rule: "r", Message: "model \x1b[2Jx\u202e\x00 and\nmore"},
			want: `::warning title=[r],file=a.cue,line=1::model \x1b[2Jx\u202e\x00 and%0Amore`,
		},
		{
			name: "a file name that would be escaped is no path but starts the message",
			d:    Diagnostic{File: "a\x1b\x7f.cue", Line: 1, Column: 2, Severity: Warning, Rule: "r", Message: "m"},
			want: `::warning title=[r]::a\x1b\x7f.cue:1:2: m`,
		},
		{
			name: "a file name cannot forge a property",
			d:    Diagnostic{File: "x.cue,line=99,title=fake::pwned", Severity: Error, Message: "m"},
			want: "::error file=x.cue%2Cline=99%2Ctitle=fake%3A%3Apwned::m",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, func(b *bytes.Buffer) error { return WriteGitHub(b, []Diagnostic{tt.d}) })
			if diff := cmp.Diff(tt.want+"\n", string(got)); diff != "" {
				t.Errorf("WriteGitHub (-want +got):\n%s", diff)
			}
			// What the runner reads back is what we meant, control
			// characters made visible.
			cmd, ok := parseWorkflowCommand(strings.TrimSuffix(string(got), "\n"))
			if !ok {
				t.Fatalf("the runner would not parse %q", got)
			}
			if diff := cmp.Diff(wantWorkflowCommand(tt.d), cmd); diff != "" {
				t.Errorf("the runner reads (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteGitHubGolden(t *testing.T) {
	got := render(t, func(b *bytes.Buffer) error { return WriteGitHub(b, lintDiagnostics) })
	if n := bytes.Count(got, []byte("\n")); n != len(lintDiagnostics) {
		t.Errorf("got %d lines for %d diagnostics", n, len(lintDiagnostics))
	}
	checkGolden(t, "lint.github.txt", got)
}

// FuzzGitHubEscape checks, for any message and file name, that the command is
// one line, that no property value holds a raw separator, and that the
// runner's unescaping gives back exactly what went in.
func FuzzGitHubEscape(f *testing.F) {
	f.Add("plain", "a.cue")
	f.Add("100%\r\nnext %0A %25", "dir, v2: 100%/x.cue")
	f.Add("::error::forged", "x.cue,line=1::y")
	f.Add("%%%", "%3A%2C")
	f.Add("m", "\x7f")
	f.Add("\x1b[2J", "a.cue")
	f.Fuzz(func(t *testing.T, msg, file string) {
		data := escapeGitHubData(msg)
		if strings.ContainsAny(data, "\r\n") {
			t.Fatalf("escaped data %q holds a line break", data)
		}
		if got := unescapeRunner(data, runnerDataEscapes); got != msg {
			t.Fatalf("data %q: runner reads back %q", msg, got)
		}
		prop := escapeGitHubProperty(file)
		if strings.ContainsAny(prop, "\r\n,:") {
			t.Fatalf("escaped property %q holds a separator", prop)
		}
		if got := unescapeRunner(prop, runnerPropertyEscapes); got != file {
			t.Fatalf("property %q: runner reads back %q", file, got)
		}

		d := Diagnostic{File: file, Line: 3, Column: 4, Severity: Warning, Rule: "r", Message: msg}
		line := githubCommand(d)
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("command %q spans lines", line)
		}
		cmd, ok := parseWorkflowCommand(line)
		if !ok {
			t.Fatalf("the runner would not parse %q", line)
		}
		if diff := cmp.Diff(wantWorkflowCommand(d), cmd); diff != "" {
			t.Fatalf("command %q: the runner reads (-want +got):\n%s", line, diff)
		}
	})
}

// workflowCommand is what the GitHub Actions runner makes of a line.
type workflowCommand struct {
	Command    string
	Properties map[string]string
	Data       string
}

// wantWorkflowCommand is the command the runner should read for d.
func wantWorkflowCommand(d Diagnostic) workflowCommand {
	// Control characters but CR and LF made visible.
	c := workflowCommand{Command: githubLevel(d.Severity), Properties: map[string]string{}, Data: Escape(d.Message, "\r\n")}
	if Escape(d.File, "\r\n") != d.File {
		// No path GitHub could find: the place, escaped, starts the
		// message.
		place := Escape(d.File, "\r\n")
		if d.Line > 0 {
			place += ":" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column)
		}
		c.Data = place + ": " + c.Data
		d.File, d.Line = "", 0
	}
	if d.File != "" {
		c.Properties["file"] = d.File
	}
	if d.Line > 0 {
		c.Properties["line"] = strconv.Itoa(d.Line)
		if d.Column > 0 {
			c.Properties["col"] = strconv.Itoa(d.Column)
		}
	}
	if d.Rule != "" {
		c.Properties["title"] = "[" + Escape(d.Rule, "\r\n") + "]"
	}
	return c
}

// The runner's unescape tables, in the order it applies them
// (actions/runner src/Runner.Common/ActionCommand.cs): each escape is
// replaced everywhere in turn, %25 last.
var (
	runnerDataEscapes     = [][2]string{{"\r", "%0D"}, {"\n", "%0A"}, {"%", "%25"}}
	runnerPropertyEscapes = [][2]string{{"\r", "%0D"}, {"\n", "%0A"}, {":", "%3A"}, {",", "%2C"}, {"%", "%25"}}
)

func unescapeRunner(s string, table [][2]string) string {
	for _, m := range table {
		s = strings.ReplaceAll(s, m[1], m[0])
	}
	return s
}

// parseWorkflowCommand follows the runner's ActionCommand.TryParseV2: the
// command runs from "::" to the next "::", properties follow the first space,
// trimmed, and split on "," then on the first "=", and the rest of the line is
// data.
func parseWorkflowCommand(line string) (workflowCommand, bool) {
	line = strings.TrimLeft(line, " \t")
	rest, ok := strings.CutPrefix(line, "::")
	if !ok {
		return workflowCommand{}, false
	}
	info, data, ok := strings.Cut(rest, "::")
	if !ok {
		return workflowCommand{}, false
	}
	c := workflowCommand{Properties: map[string]string{}, Data: unescapeRunner(data, runnerDataEscapes)}
	name, props, _ := strings.Cut(info, " ")
	c.Command = name
	for _, p := range strings.Split(strings.TrimSpace(props), ",") {
		k, v, ok := strings.Cut(p, "=")
		if ok && k != "" && v != "" {
			c.Properties[k] = unescapeRunner(v, runnerPropertyEscapes)
		}
	}
	return c, true
}
