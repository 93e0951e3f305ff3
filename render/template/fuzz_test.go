package template

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The fuzz tests check Parse and Execute against refTokens, a second,
// deliberately naive reading of the syntax.

var refTokenRE = regexp.MustCompile(`^(?:\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}|[^{}]+)`)

type refToken struct {
	off  int
	raw  string // the source text
	name string // placeholder name, or "" for literal text
}

// text is the literal text a non-placeholder token renders as.
func (t refToken) text() string {
	switch t.raw {
	case "{{":
		return "{"
	case "}}":
		return "}"
	}
	return t.raw
}

// refTokens splits a valid template into tokens, and reports false for an
// invalid one.
func refTokens(src string) ([]refToken, bool) {
	var toks []refToken
	for i := 0; i < len(src); {
		m := refTokenRE.FindStringSubmatchIndex(src[i:])
		if m == nil {
			return nil, false
		}
		t := refToken{off: i, raw: src[i : i+m[1]]}
		if m[2] >= 0 {
			t.name = src[i+m[2] : i+m[3]]
		}
		toks = append(toks, t)
		i += m[1]
	}
	return toks, true
}

// refPos computes the position of off the slow way.
func refPos(src string, off int) Pos {
	before := src[:off]
	return Pos{
		Offset: off,
		Line:   1 + strings.Count(before, "\n"),
		Column: off - (strings.LastIndexByte(before, '\n') + 1) + 1,
	}
}

func refPlaceholders(src string, toks []refToken) []Placeholder {
	var ps []Placeholder
	for _, tok := range toks {
		if tok.name != "" {
			ps = append(ps, Placeholder{Name: tok.name, Pos: refPos(src, tok.off)})
		}
	}
	return ps
}

// refExecute renders toks with value; it never fails.
func refExecute(toks []refToken, value func(string) string) string {
	var b strings.Builder
	for _, tok := range toks {
		if tok.name != "" {
			b.WriteString(value(tok.name))
		} else {
			b.WriteString(tok.text())
		}
	}
	return b.String()
}

var fuzzSeeds = []string{
	"",
	"plain text",
	"Current user: {user_name}\nCurrent time: {current_time}\nUser timezone: {user_timezone}",
	"I am {agent.name}, {agent.role}.",
	"{{user_name}} {{{a}}} }}{{ {a}}}",
	"{{\"ok\": true}}",
	"a\r\n{x}\r\n{y}\r",
	"héllo {x} 名前 {y}\n→{z}",
	"{",
	"}",
	"{}",
	"{user name}",
	"{ user_name }",
	"{1x}",
	"{a.}{.a}{a..b}",
	"{a {b}",
	"{a\n}",
	"{\"a\": 1}",
	"{名前}",
	"\xff{\xfe}",
	"{}\nok {a} {1x} }\r\nü {bad\n{ c }",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tmpl, err := Parse(src)
		toks, valid := refTokens(src)
		if valid != (err == nil) {
			t.Fatalf("Parse(%q) error = %v; reference says valid = %v", src, err, valid)
		}
		if err != nil {
			checkParseErrors(t, src, tmpl, err)
			return
		}
		// Placeholders, with positions.
		if diff := cmp.Diff(refPlaceholders(src, toks), tmpl.Placeholders(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Parse(%q).Placeholders() mismatch (-ref +got):\n%s", src, diff)
		}
		// Round trip: keeping every placeholder gives back the source.
		if s := tmpl.String(); s != src {
			t.Fatalf("String() = %q, want %q", s, src)
		}
		none := func(string) (string, bool) { return "", false }
		if s := tmpl.Substitute(none).String(); s != src {
			t.Fatalf("Substitute(none).String() = %q, want %q", s, src)
		}
		// Executing with the identity lookup renders placeholders as
		// themselves and literal braces once.
		identity := func(name string) string { return "{" + name + "}" }
		got, err := tmpl.Execute(func(name string) (string, bool) { return identity(name), true })
		if err != nil {
			t.Fatalf("Execute(identity): %v", err)
		}
		if want := refExecute(toks, identity); got != want {
			t.Fatalf("Execute(identity) of %q = %q, want %q", src, got, want)
		}
		// Substituting the identity escapes the braces the values add, so
		// the result renders to the same text.
		sub := tmpl.Substitute(func(name string) (string, bool) { return identity(name), true })
		re, err := Parse(sub.String())
		if err != nil {
			t.Fatalf("Parse(Substitute(identity).String() = %q): %v", sub, err)
		}
		if ps := re.Placeholders(); len(ps) != 0 {
			t.Fatalf("Substitute(identity) left placeholders %v", ps)
		}
		if got2, err := re.Execute(nil); err != nil || got2 != got {
			t.Fatalf("Parse(Substitute(identity)).Execute() = %q, %v; want %q", got2, err, got)
		}
	})
}

func checkParseErrors(t *testing.T, src string, tmpl *Template, err error) {
	t.Helper()
	if tmpl != nil {
		t.Fatalf("Parse(%q) returned a template and an error", src)
	}
	var errs ErrorList
	if !errors.As(err, &errs) || len(errs) == 0 {
		t.Fatalf("Parse(%q) error = %#v, want a non-empty ErrorList", src, err)
	}
	last := -1
	for _, e := range errs {
		off := e.Pos.Offset
		if off <= last || off >= len(src) {
			t.Fatalf("Parse(%q): error offset %d out of order or range: %v", src, off, errs)
		}
		last = off
		if c := src[off]; c != '{' && c != '}' {
			t.Fatalf("Parse(%q): error at %d points at %q, not a brace", src, off, c)
		}
		if p := refPos(src, off); e.Pos != p {
			t.Fatalf("Parse(%q): error position %+v, want %+v", src, e.Pos, p)
		}
		if e.Msg == "" || strings.ContainsAny(e.Msg, "\r\n") || len(e.Msg) > 400 {
			t.Fatalf("Parse(%q): bad message %q", src, e.Msg)
		}
	}
}

func FuzzExecute(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, "{user_name}", "}{x}}{{", uint64(i)*0x9e3779b97f4a7c15)
	}
	f.Add("{a}{b}{a}{c}", "{b}", "{{c}}", uint64(0b101))
	f.Add("{{{a}}}{b}", "}", "{", uint64(1))
	f.Fuzz(func(t *testing.T, src, va, vb string, mask uint64) {
		tmpl, err := Parse(src)
		if err != nil {
			return
		}
		toks, ok := refTokens(src)
		if !ok {
			t.Fatalf("reference rejects %q, which Parse accepted", src)
		}

		// Give each distinct name a value; a third of them contain
		// another placeholder's text.
		var names []string
		for _, tok := range toks {
			if tok.name != "" && !slices.Contains(names, tok.name) {
				names = append(names, tok.name)
			}
		}
		values := map[string]string{}
		early := map[string]bool{} // names known to the first, partial lookup
		for i, n := range names {
			switch i % 3 {
			case 0:
				values[n] = va
			case 1:
				values[n] = vb
			default:
				values[n] = "{" + names[(i+1)%len(names)] + "}" + va
			}
			early[n] = mask&(1<<(i%64)) != 0
		}
		full := Map(values)
		partial := func(name string) (string, bool) {
			if !early[name] {
				return "", false
			}
			return full(name)
		}
		want := refExecute(toks, func(name string) string { return values[name] })

		// A single Execute puts each value verbatim where its placeholder
		// was, and nowhere else.
		got, err := tmpl.Execute(full)
		if err != nil || got != want {
			t.Fatalf("Execute(%q) = %q, %v; want %q", src, got, err, want)
		}

		// A partial Execute fails at each placeholder it has no value for.
		var missing ErrorList
		for _, p := range refPlaceholders(src, toks) {
			if !early[p.Name] {
				missing = append(missing, &Error{Pos: p.Pos, Msg: "no value for placeholder {" + p.Name + "}"})
			}
		}
		got, err = tmpl.Execute(partial)
		var errs ErrorList
		if err != nil && !errors.As(err, &errs) {
			t.Fatalf("Execute(partial) error %#v is not an ErrorList", err)
		}
		if diff := cmp.Diff(missing, errs); diff != "" {
			t.Fatalf("Execute(partial) of %q errors (-want +got):\n%s", src, diff)
		}
		if missing == nil && got != want {
			t.Fatalf("Execute(partial) = %q, want %q", got, want)
		}

		// Substitute keeps the names it does not know as {name} and escapes
		// values, so later placeholders are exactly the kept ones.
		sub := tmpl.Substitute(partial)
		var wantSrc strings.Builder
		var kept []string
		for _, tok := range toks {
			switch {
			case tok.name == "":
				wantSrc.WriteString(tok.raw)
			case early[tok.name]:
				wantSrc.WriteString(Escape(values[tok.name]))
			default:
				wantSrc.WriteString(tok.raw)
				kept = append(kept, tok.name)
			}
		}
		if sub.String() != wantSrc.String() {
			t.Fatalf("Substitute(%q).String() = %q, want %q", src, sub, wantSrc.String())
		}
		re, err := Parse(sub.String())
		if err != nil {
			t.Fatalf("Parse(Substitute(%q).String() = %q): %v", src, sub, err)
		}
		if diff := cmp.Diff(re.Placeholders(), sub.Placeholders(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Substitute(%q).Placeholders() differ from the reparsed text's (-reparsed +got):\n%s", src, diff)
		}
		var gotKept []string
		for _, p := range sub.Placeholders() {
			gotKept = append(gotKept, p.Name)
		}
		if diff := cmp.Diff(kept, gotKept); diff != "" {
			t.Fatalf("Substitute(%q) kept placeholders (-want +got):\n%s", src, diff)
		}
		for _, x := range []*Template{sub, re} {
			if got, err := x.Execute(full); err != nil || got != want {
				t.Fatalf("Substitute then Execute of %q = %q, %v; want %q", src, got, err, want)
			}
		}
	})
}
