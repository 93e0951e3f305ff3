package template

import (
	"fmt"
	"strings"
	"testing"
)

// benchTemplate is about 4 KB of prompt text with 20 placeholders, half
// compile-time (dotted) and half runtime names, and some escaped braces.
func benchTemplate() (src string, values map[string]string) {
	const filler = "Break requests into tasks with clear dependencies, call the right tools, track progress and report back; "
	var b strings.Builder
	values = map[string]string{}
	for i := range 20 {
		name := fmt.Sprintf("var_%d", i)
		if i%2 == 0 {
			name = fmt.Sprintf("agent.field_%d", i)
		}
		values[name] = fmt.Sprintf("value %d with {braces}", i)
		fmt.Fprintf(&b, "%d. %s%s{%s}.", i+1, filler, filler[:78], name)
		if i%5 == 0 {
			b.WriteString(` Reply as {{"ok": true}}.`)
		}
		b.WriteString("\n")
	}
	return b.String(), values
}

func BenchmarkParse(b *testing.B) {
	src, _ := benchTemplate()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExecute(b *testing.B) {
	src, values := benchTemplate()
	tmpl := mustParse(b, src)
	lookup := Map(values)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tmpl.Execute(lookup); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSubstitute(b *testing.B) {
	src, values := benchTemplate()
	tmpl := mustParse(b, src)
	compileTime := func(name string) (string, bool) {
		if !strings.Contains(name, ".") {
			return "", false
		}
		v, ok := values[name]
		return v, ok
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if tmpl.Substitute(compileTime) == tmpl {
			b.Fatal("nothing substituted")
		}
	}
}

func BenchmarkParseExecute(b *testing.B) {
	src, values := benchTemplate()
	lookup := Map(values)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		tmpl, err := Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tmpl.Execute(lookup); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchTemplate(t *testing.T) {
	src, values := benchTemplate()
	if len(src) < 4000 || len(src) > 4400 {
		t.Errorf("bench template is %d bytes, want about 4 KB", len(src))
	}
	if n := len(mustParse(t, src).Placeholders()); n != 20 || len(values) != 20 {
		t.Errorf("bench template has %d placeholders, want 20", n)
	}
}
