package compiler

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/render/template"
)

// Injection is a context block of a behavior, as an agent's runtime
// inserts it: its parameters filled in, runtime values left as {name}.
type Injection struct {
	Name    string            `json:"name"`
	Role    string            `json:"role"`
	At      string            `json:"at"`
	When    string            `json:"when"`
	Content string            `json:"content"`
	Values  map[string]string `json:"values,omitempty"`
}

// injections resolves a behavior's context blocks with the agent's
// parameter values.
func injections(bt *model.BehaviorType, params map[string]any) []Injection {
	var out []Injection
	vals := map[string]string{}
	for name, v := range params {
		vals[name] = paramText(v)
	}
	for _, ci := range bt.Context {
		in := Injection{Name: ci.Name, Role: ci.Role, At: ci.At, When: ci.When, Content: ci.Content, Values: ci.Values}
		if in.When == "" {
			in.When = "every_call"
		}
		if tmpl, err := template.Parse(ci.Content); err == nil {
			in.Content = tmpl.Substitute(template.Map(vals)).String()
		}
		out = append(out, in)
	}
	return out
}

// FillParams returns a behavior's instructions (or a tool's) as plain
// text, each {param} the behavior has replaced by its value (paramText),
// so that the prompt says what the behavior is set to: "Only these
// programs may run: python, pytest". A placeholder naming no parameter is
// left as written (lint's behavior-placeholder-unfilled reports it), and
// text that is no template (a lone brace) is kept whole.
func FillParams(text string, params map[string]any) string {
	if !strings.Contains(text, "{") {
		return text
	}
	tmpl, err := template.Parse(text)
	if err != nil {
		return text
	}
	out, err := tmpl.Execute(func(name string) (string, bool) {
		if v, ok := params[name]; ok {
			return paramText(v), true
		}
		return "{" + name + "}", true
	})
	if err != nil {
		return text
	}
	return out
}

// paramText writes a parameter's value as the text a block shows: a
// string as it is, a list as its items joined by ", ", anything else as
// JSON.
func paramText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = paramText(e)
		}
		return strings.Join(parts, ", ")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// checkInjections parses every context block and reports a placeholder
// that is neither a parameter of its behavior nor one of its runtime
// values, and a block name used twice in one behavior.
func (c *compilation) checkInjections() {
	cfg := c.prog.Config
	for _, name := range model.Sorted(cfg.BehaviorTypes) {
		bt := cfg.BehaviorTypes[name]
		seen := map[string]bool{}
		for i, ci := range bt.Context {
			base := []string{"behaviorTypes", name, "context", fmt.Sprintf("[%d]", i)}
			if seen[ci.Name] {
				c.errorf("context", append(base, "name"), "context block %q is declared twice in behavior %s; give each block its own name", ci.Name, name)
			}
			seen[ci.Name] = true
			path := append(base, "content")
			tmpl, err := template.Parse(ci.Content)
			if err != nil {
				if list, ok := err.(template.ErrorList); ok {
					for _, e := range list {
						c.templateError(path, e.Pos, e.Msg)
					}
				}
				continue
			}
			for _, ph := range tmpl.Placeholders() {
				if _, ok := bt.Params[ph.Name]; ok {
					continue
				}
				if _, ok := ci.Values[ph.Name]; ok {
					continue
				}
				c.templateError(path, ph.Pos, fmt.Sprintf("unknown placeholder {%s}: a context block may use its behavior's parameters (%s) and the runtime values it declares under values (%s)",
					ph.Name, model.NameList(model.Sorted(bt.Params)), model.NameList(model.Sorted(ci.Values))))
			}
		}
	}
}
