package template

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func mustParse(t testing.TB, src string) *Template {
	t.Helper()
	tmpl, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return tmpl
}

func TestExecute(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		values map[string]string
		want   string
		errs   ErrorList
	}{
		{
			name:   "all known",
			src:    "Current user: {user_name}\nUser timezone: {user_timezone}",
			values: map[string]string{"user_name": "Ann", "user_timezone": "Europe/Berlin"},
			want:   "Current user: Ann\nUser timezone: Europe/Berlin",
		},
		{
			name:   "values are not parsed",
			src:    "{a}|{b}|{{b}}",
			values: map[string]string{"a": "{b}", "b": "}}{{c}"},
			want:   "{b}|}}{{c}|{b}",
		},
		{
			name:   "empty value",
			src:    "[{a}]",
			values: map[string]string{"a": ""},
			want:   "[]",
		},
		{
			name:   "unicode and crlf values",
			src:    "{a}\r\n{b}",
			values: map[string]string{"a": "名前\r\n", "b": "→"},
			want:   "名前\r\n\r\n→",
		},
		{
			name:   "every missing value is an error",
			src:    "Hi {user_name},\n{current_time} {user_name} {agent.name}",
			values: map[string]string{"agent.name": "Bot"},
			errs: ErrorList{
				perr(3, 1, 4, "no value for placeholder {user_name}"),
				perr(16, 2, 1, "no value for placeholder {current_time}"),
				perr(31, 2, 16, "no value for placeholder {user_name}"),
			},
		},
		{
			name: "nil values",
			src:  "{a}",
			errs: ErrorList{perr(0, 1, 1, "no value for placeholder {a}")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := mustParse(t, tt.src)
			var lookup Lookup
			if tt.values != nil {
				lookup = Map(tt.values)
			}
			got, err := tmpl.Execute(lookup)
			var errs ErrorList
			if err != nil && !errors.As(err, &errs) {
				t.Fatalf("Execute error %v (%T), want an ErrorList", err, err)
			}
			if diff := cmp.Diff(tt.errs, errs); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
			if got != tt.want {
				t.Errorf("Execute = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSubstitute(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		values map[string]string
		want   string        // String() of the result
		keep   []Placeholder // Placeholders() of the result
	}{
		{
			name:   "compile-time values in, runtime variables kept",
			src:    "I am {agent.name}.\nCurrent user: {user_name}\nTime: {current_time}",
			values: map[string]string{"agent.name": "Sarah"},
			want:   "I am Sarah.\nCurrent user: {user_name}\nTime: {current_time}",
			keep:   []Placeholder{ph("user_name", 26, 2, 15), ph("current_time", 44, 3, 7)},
		},
		{
			name:   "literal braces stay escaped",
			src:    `{{"user": "{user_name}"}} {agent.name}`,
			values: map[string]string{"agent.name": "x"},
			want:   `{{"user": "{user_name}"}} x`,
			keep:   []Placeholder{ph("user_name", 11, 1, 12)},
		},
		{
			name:   "braces in values are escaped",
			src:    "{agent.name} / {user_name}",
			values: map[string]string{"agent.name": "{user_name} }{"},
			want:   "{{user_name}} }}{{ / {user_name}",
			keep:   []Placeholder{ph("user_name", 21, 1, 22)},
		},
		{
			name:   "multi-line values move later positions",
			src:    "{agent.description}\n{user_name} {agent.name}{user_name}",
			values: map[string]string{"agent.description": "line one\nline twö", "agent.name": "é"},
			want:   "line one\nline twö\n{user_name} é{user_name}",
			keep:   []Placeholder{ph("user_name", 19, 3, 1), ph("user_name", 33, 3, 15)},
		},
		{
			name:   "everything substituted",
			src:    "{a}{{}}{b}",
			values: map[string]string{"a": "{", "b": "}"},
			want:   "{{{{}}}}",
		},
		{
			name: "nothing known",
			src:  "{a} {{ }}",
			want: "{a} {{ }}",
			keep: []Placeholder{ph("a", 0, 1, 1)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := mustParse(t, tt.src)
			sub := tmpl.Substitute(Map(tt.values))
			if got := sub.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if diff := cmp.Diff(tt.keep, sub.Placeholders(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Placeholders() mismatch (-want +got):\n%s", diff)
			}
			// The result is a template equal to what its text parses to.
			re := mustParse(t, sub.String())
			if diff := cmp.Diff(re.Placeholders(), sub.Placeholders()); diff != "" {
				t.Errorf("Placeholders() differ from those of the reparsed text (-reparsed +got):\n%s", diff)
			}
			// Substituting then executing is executing once with both.
			rest := func(name string) (string, bool) { return "<" + name + ">", true }
			both := func(name string) (string, bool) {
				if v, ok := tt.values[name]; ok {
					return v, true
				}
				return rest(name)
			}
			want, err := tmpl.Execute(both)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range []*Template{sub, re} {
				if got, err := x.Execute(rest); err != nil || got != want {
					t.Errorf("Execute after Substitute = %q, %v; want %q", got, err, want)
				}
			}
		})
	}
}

func TestSubstituteKeepsTemplate(t *testing.T) {
	tmpl := mustParse(t, "{a}")
	if tmpl.Substitute(nil) != tmpl {
		t.Error("Substitute(nil) made a new template")
	}
	if tmpl.Substitute(Map(map[string]string{"b": "x"})) != tmpl {
		t.Error("Substitute with no known names made a new template")
	}
}

func TestExecuteKeepingUnknown(t *testing.T) {
	// The documented way to render for display with unknown names left in
	// place.
	tmpl := mustParse(t, "{{x}} {a} {b}")
	vars := map[string]string{"a": "A"}
	got, err := tmpl.Execute(func(name string) (string, bool) {
		if v, ok := vars[name]; ok {
			return v, true
		}
		return "{" + name + "}", true
	})
	if want := "{x} A {b}"; err != nil || got != want {
		t.Errorf("Execute = %q, %v; want %q", got, err, want)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"":           "",
		"plain":      "plain",
		"{a}":        "{{a}}",
		"}{":         "}}{{",
		"{{":         "{{{{",
		"é{\xff}→":   "é{{\xff}}→",
		"a\r\n{b}\n": "a\r\n{{b}}\n",
	} {
		got := Escape(in)
		if got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		tmpl := mustParse(t, got)
		if out, err := tmpl.Execute(nil); err != nil || out != in {
			t.Errorf("Parse(Escape(%q)).Execute = %q, %v", in, out, err)
		}
	}
}
