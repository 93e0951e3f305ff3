package template

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func ph(name string, off, line, col int) Placeholder {
	return Placeholder{Name: name, Pos: Pos{Offset: off, Line: line, Column: col}}
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Placeholder
		// text is what Execute renders when every name's value is <name>.
		text string
	}{
		{name: "empty", src: "", text: ""},
		{name: "plain text", src: "You are a helpful assistant.", text: "You are a helpful assistant."},
		{
			name: "runtime variables",
			src:  "Current user: {user_name}\nCurrent time: {current_time}\n",
			want: []Placeholder{ph("user_name", 14, 1, 15), ph("current_time", 40, 2, 15)},
			text: "Current user: <user_name>\nCurrent time: <current_time>\n",
		},
		{
			name: "dotted compile-time names",
			src:  "I am {agent.name}, {agent.role} in {agent.department}.",
			want: []Placeholder{ph("agent.name", 5, 1, 6), ph("agent.role", 19, 1, 20), ph("agent.department", 35, 1, 36)},
			text: "I am <agent.name>, <agent.role> in <agent.department>.",
		},
		{
			name: "name forms",
			src:  "{_}{a1}{A_b.C_2._x}",
			want: []Placeholder{ph("_", 0, 1, 1), ph("a1", 3, 1, 4), ph("A_b.C_2._x", 7, 1, 8)},
			text: "<_><a1><A_b.C_2._x>",
		},
		{
			name: "duplicates are each reported",
			src:  "{a} and {a}",
			want: []Placeholder{ph("a", 0, 1, 1), ph("a", 8, 1, 9)},
			text: "<a> and <a>",
		},
		{name: "escaped braces", src: `Reply as JSON: {{"ok": true}}`, text: `Reply as JSON: {"ok": true}`},
		{name: "escaped placeholder", src: "{{user_name}}", text: "{user_name}"},
		{name: "escapes reversed", src: "}}{{", text: "}{"},
		{name: "runs of braces", src: "{{{{ }}}}}}", text: "{{ }}}"},
		{
			name: "placeholder inside escapes",
			src:  "{{{a}}}",
			want: []Placeholder{ph("a", 2, 1, 3)},
			text: "{<a>}",
		},
		{
			name: "placeholder then escape",
			src:  "{a}}}",
			want: []Placeholder{ph("a", 0, 1, 1)},
			text: "<a>}",
		},
		{
			name: "unicode text counts bytes",
			src:  "héllo {x} 名前 {y}\n→{z}",
			want: []Placeholder{ph("x", 7, 1, 8), ph("y", 18, 1, 19), ph("z", 25, 2, 4)},
			text: "héllo <x> 名前 <y>\n→<z>",
		},
		{
			name: "windows line endings",
			src:  "a\r\n{x}\r\n\r\n  {y}\r\n",
			want: []Placeholder{ph("x", 3, 2, 1), ph("y", 12, 4, 3)},
			text: "a\r\n<x>\r\n\r\n  <y>\r\n",
		},
		{
			name: "lone carriage return does not end a line",
			src:  "a\r{x}",
			want: []Placeholder{ph("x", 2, 1, 3)},
			text: "a\r<x>",
		},
		{name: "invalid utf-8 is literal", src: "\xff{{\xfe", text: "\xff{\xfe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := Parse(tt.src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.src, err)
			}
			if diff := cmp.Diff(tt.want, tmpl.Placeholders(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Placeholders() mismatch (-want +got):\n%s", diff)
			}
			got, err := tmpl.Execute(angle)
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if got != tt.text {
				t.Errorf("Execute = %q, want %q", got, tt.text)
			}
			if s := tmpl.String(); s != tt.src {
				t.Errorf("String() = %q, want the source %q", s, tt.src)
			}
		})
	}
}

// angle is a lookup that knows every name and renders it as <name>.
func angle(name string) (string, bool) { return "<" + name + ">", true }

func perr(off, line, col int, msg string) *Error {
	return &Error{Pos: Pos{Offset: off, Line: line, Column: col}, Msg: msg}
}

func TestParseErrors(t *testing.T) {
	const lit = `; write "{{" and "}}" for literal braces`
	tests := []struct {
		name string
		src  string
		want ErrorList
	}{
		{
			name: "unterminated at end of text",
			src:  "Hello {user_name",
			want: ErrorList{perr(6, 1, 7, `unterminated placeholder "{user_name": close it with "}" on the same line`+lit)},
		},
		{
			name: "unterminated at end of line",
			src:  "Hello {user_name\nbye}",
			want: ErrorList{
				perr(6, 1, 7, `unterminated placeholder "{user_name": close it with "}" on the same line`+lit),
				perr(20, 2, 4, `unexpected "}": write "}}" for a literal "}"`),
			},
		},
		{
			name: "unterminated before crlf",
			src:  "x\r\n{user_name\r\n",
			want: ErrorList{perr(3, 2, 1, `unterminated placeholder "{user_name": close it with "}" on the same line`+lit)},
		},
		{
			name: "unterminated before another placeholder",
			src:  "{a {b}",
			want: ErrorList{perr(0, 1, 1, `unterminated placeholder "{a ": close it with "}" on the same line`+lit)},
		},
		{
			name: "lone open brace",
			src:  "{",
			want: ErrorList{perr(0, 1, 1, `unterminated placeholder "{": close it with "}" on the same line`+lit)},
		},
		{
			name: "long unterminated text is shortened",
			src:  "{" + strings.Repeat("é", 30),
			want: ErrorList{perr(0, 1, 1, `unterminated placeholder "{`+strings.Repeat("é", 19)+`"...: close it with "}" on the same line`+lit)},
		},
		{
			name: "empty",
			src:  "a {} b",
			want: ErrorList{perr(2, 1, 3, `empty placeholder "{}": put a name between the braces, as in {user_name}`+lit)},
		},
		{
			name: "space inside name",
			src:  "{user name}",
			want: ErrorList{perr(0, 1, 1, `invalid placeholder name "user name": it contains a space; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}`+lit)},
		},
		{
			name: "spaces around name",
			src:  "{ user_name }",
			want: ErrorList{perr(0, 1, 1, `invalid placeholder name " user_name ": remove the spaces inside the braces: {user_name}`)},
		},
		{
			name: "leading digit",
			src:  "{1x}",
			want: ErrorList{perr(0, 1, 1, `invalid placeholder name "1x": a name (and each dotted part) must start with a letter or underscore, as in {user_name}`+lit)},
		},
		{
			name: "leading digit in dotted part",
			src:  "{agent.2nd}",
			want: ErrorList{perr(0, 1, 1, `invalid placeholder name "agent.2nd": a name (and each dotted part) must start with a letter or underscore, as in {user_name}`+lit)},
		},
		{
			name: "bad dots",
			src:  "{.a}{a.}{a..b}{.}",
			want: ErrorList{
				perr(0, 1, 1, `invalid placeholder name ".a": dots must separate non-empty parts, as in {agent.name}`+lit),
				perr(4, 1, 5, `invalid placeholder name "a.": dots must separate non-empty parts, as in {agent.name}`+lit),
				perr(8, 1, 9, `invalid placeholder name "a..b": dots must separate non-empty parts, as in {agent.name}`+lit),
				perr(14, 1, 15, `invalid placeholder name ".": dots must separate non-empty parts, as in {agent.name}`+lit),
			},
		},
		{
			name: "non-ascii name",
			src:  "{名前}",
			want: ErrorList{perr(0, 1, 1, `invalid placeholder name "名前": it contains "名"; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}`+lit)},
		},
		{
			name: "hyphen",
			src:  "{user-name}",
			want: ErrorList{perr(0, 1, 1, `invalid placeholder name "user-name": it contains "-"; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}`+lit)},
		},
		{
			name: "unescaped json",
			src:  `Answer {"ok": true}`,
			want: ErrorList{perr(7, 1, 8, `invalid placeholder name "\"ok\": true": it contains "\""; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}`+lit)},
		},
		{
			name: "lone close brace",
			src:  "a } b",
			want: ErrorList{perr(2, 1, 3, `unexpected "}": write "}}" for a literal "}"`)},
		},
		{
			name: "odd run of close braces",
			src:  "}}}",
			want: ErrorList{perr(2, 1, 3, `unexpected "}": write "}}" for a literal "}"`)},
		},
		{
			name: "every error is reported with its line and column",
			src:  "{}\nok {a} {1x} }\r\nü {bad\n{ c }",
			want: ErrorList{
				perr(0, 1, 1, `empty placeholder "{}": put a name between the braces, as in {user_name}`+lit),
				perr(10, 2, 8, `invalid placeholder name "1x": a name (and each dotted part) must start with a letter or underscore, as in {user_name}`+lit),
				perr(15, 2, 13, `unexpected "}": write "}}" for a literal "}"`),
				perr(21, 3, 4, `unterminated placeholder "{bad": close it with "}" on the same line`+lit),
				perr(26, 4, 1, `invalid placeholder name " c ": remove the spaces inside the braces: {c}`),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := Parse(tt.src)
			if tmpl != nil {
				t.Errorf("Parse(%q) returned a template with an error", tt.src)
			}
			var got ErrorList
			if !errors.As(err, &got) {
				t.Fatalf("Parse(%q) error = %v (%T), want an ErrorList", tt.src, err, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	_, err := Parse("{}\n}")
	want := "1:1: empty placeholder \"{}\": put a name between the braces, as in {user_name}; write \"{{\" and \"}}\" for literal braces\n" +
		"2:1: unexpected \"}\": write \"}}\" for a literal \"}\""
	if err == nil || err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Pos != (Pos{Offset: 0, Line: 1, Column: 1}) {
		t.Errorf("errors.As(*Error) = %v", e)
	}
	if s := (ErrorList{}).Error(); s != "no errors" {
		t.Errorf("empty ErrorList.Error() = %q", s)
	}
}

func TestIsName(t *testing.T) {
	for _, s := range []string{"a", "_", "user_name", "agent.name", "A9._b"} {
		if !IsName(s) {
			t.Errorf("IsName(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "1", "a.", ".a", "a b", "a-b", "é", "a..b", "{a}"} {
		if IsName(s) {
			t.Errorf("IsName(%q) = true, want false", s)
		}
	}
}

func TestZeroTemplate(t *testing.T) {
	var tmpl Template
	if got, err := tmpl.Execute(nil); got != "" || err != nil {
		t.Errorf("Execute = %q, %v", got, err)
	}
	if got := tmpl.Substitute(angle).String(); got != "" {
		t.Errorf("Substitute().String() = %q", got)
	}
	if ps := tmpl.Placeholders(); ps != nil {
		t.Errorf("Placeholders() = %v", ps)
	}
}
