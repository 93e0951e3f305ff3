// Package render composes an agent's system prompt: the agent type's
// template with compile-time values filled in, one section per behavior
// category, the personality's labels, the behaviors' instructions and the
// tools. Every line remembers where it came from (render --sources).
//
// Runtime variables stay as {name} in the compiled prompt, so the result is
// itself a template; Fill renders it with the runtime's values.
package render

import (
	"fmt"
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/render/template"
)

// Line is one line of a prompt and where it came from.
type Line struct {
	Text   string
	Source string
}

// Prompt is a compiled system prompt.
type Prompt struct {
	Lines []Line
}

// String returns the prompt text (a template: runtime variables as {name},
// literal braces as {{ and }}), ending in a newline.
func (p *Prompt) String() string {
	var b strings.Builder
	for _, l := range p.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// Render composes the system prompt of a. Lines carry no Source; see
// RenderSources.
func Render(prog *compiler.Program, a *compiler.Agent) (*Prompt, error) {
	return render(prog, a, false)
}

// RenderSources composes the system prompt of a, each line with where it
// came from (looking positions up costs time, so Render does not).
func RenderSources(prog *compiler.Program, a *compiler.Agent) (*Prompt, error) {
	return render(prog, a, true)
}

func render(prog *compiler.Program, a *compiler.Agent, sources bool) (*Prompt, error) {
	p := &Prompt{}
	add := func(text, source string) { p.Lines = append(p.Lines, Line{Text: text, Source: source}) }
	// locate and describe cost nothing unless sources are wanted.
	locate := func(path ...string) compiler.Position {
		if !sources {
			return compiler.Position{}
		}
		return prog.Locate(path...)
	}
	describe := func(o compiler.Origin) string {
		if !sources {
			return ""
		}
		return prog.Describe(o)
	}
	blank := func() {
		if n := len(p.Lines); n > 0 && p.Lines[n-1].Text != "" {
			add("", "")
		}
	}

	if a.Type != nil {
		tmpl, err := template.Parse(a.Type.SystemPrompt)
		if err != nil {
			return nil, fmt.Errorf("agent type %s: %v", a.Decl.Type, err)
		}
		text := tmpl.Substitute(template.Map(compiler.CompileTimeValues(a))).String()
		for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			src := compiler.Position{}
			if sources {
				src = prog.TemplatePos([]string{"agentTypes", a.Decl.Type, "system_prompt"}, template.Pos{Line: i + 1, Column: 1})
				src.Column = 0 // the line, for a line of the prompt
			}
			add(line, "template "+src.String())
		}
	}

	for _, cat := range a.Behavior {
		var lines []Line
		for _, s := range cat.Settings {
			if !s.Value.IsNumber && s.Text == "" {
				continue // an empty option text leaves its line out
			}
			line, err := template.Parse(s.Line)
			if err != nil {
				return nil, fmt.Errorf("categories.%s.settings.%s.line: %v", cat.Name, s.Name, err)
			}
			// Substitute escapes braces in the values: the prompt stays a
			// template, and {{text}} in a line stays literal.
			text := line.Substitute(template.Map(map[string]string{"text": s.Text, "value": s.Value.String()})).String()
			var src string
			if sources {
				src = fmt.Sprintf("%s.%s = %s from %s", cat.Name, s.Name, s.Value, describe(s.Origin))
			}
			lines = append(lines, Line{Text: text, Source: src})
		}
		if len(lines) == 0 {
			continue
		}
		blank()
		add(template.Escape(cat.Title)+":", "category "+cat.Name+" "+locate("categories", cat.Name, "title").String())
		p.Lines = append(p.Lines, lines...)
	}

	if pl := personalityLines(a); len(pl) > 0 {
		blank()
		add("PERSONALITY:", "agents."+a.ID+".personality "+locate("agents", a.ID, "personality").String())
		for _, l := range pl {
			add(template.Escape(l.text), "agents."+a.ID+".personality."+l.field+" "+locate("agents", a.ID, "personality", l.field).String())
		}
	}

	if al := autonomyLines(a); len(al) > 0 {
		blank()
		add("AUTONOMY:", "agents."+a.ID+" "+locate("agents", a.ID).String())
		for _, l := range al {
			add(template.Escape(l.text), "agents."+a.ID+"."+l.field+" "+locate("agents", a.ID, l.field).String())
		}
	}

	var instr []Line
	for _, b := range a.Behaviors {
		for _, l := range lines(b.Instructions) {
			instr = append(instr, Line{Text: template.Escape(l), Source: "behavior " + b.Type + " " + locate("behaviorTypes", b.Type, "instructions").String()})
		}
		// A tool's own instructions come with the tool: a denied tool's
		// are left out with it.
		for _, t := range a.Effective {
			if t.Behavior != b.Type {
				continue
			}
			for _, l := range lines(t.Instructions) {
				instr = append(instr, Line{Text: template.Escape(l), Source: "tool " + t.Name + " of behavior " + t.Behavior + " " + locate("behaviorTypes", t.Behavior, "tools", t.Name, "instructions").String()})
			}
		}
	}
	if len(instr) > 0 {
		blank()
		add("INSTRUCTIONS:", "")
		p.Lines = append(p.Lines, instr...)
	}

	if al := authorityLines(a); len(al) > 0 {
		blank()
		add("AUTHORITY:", "agents."+a.ID+".authority "+locate("agents", a.ID, "authority").String())
		for _, l := range al {
			add(template.Escape(l.text), "agents."+a.ID+".authority."+l.field+" "+locate("agents", a.ID, "authority", l.field).String())
		}
	}

	// Only the tools the agent may call: a denied tool is not offered.
	if len(a.Effective) > 0 {
		blank()
		add("TOOLS:", "")
		for _, t := range a.Effective {
			add(template.Escape(fmt.Sprintf("- %s: %s", t.Name, t.Description)), "behavior "+t.Behavior+" "+locate("behaviorTypes", t.Behavior, "tools", t.Name).String())
		}
	}

	out, err := outputLines(a)
	if err != nil {
		return nil, fmt.Errorf("agents.%s.output: %v", a.ID, err)
	}
	if len(out) > 0 {
		blank()
		src := "agents." + a.ID + ".output " + locate("agents", a.ID, "output").String()
		add("OUTPUT:", src)
		for _, l := range out {
			add(l, src)
		}
	}
	return p, nil
}

// lines splits text into lines; none for "".
func lines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimRight(text, "\n"), "\n")
}

// MissingVariableError lists required runtime variables with no value.
type MissingVariableError struct{ Names []string }

func (e *MissingVariableError) Error() string {
	return fmt.Sprintf("missing required runtime variable(s): %s", strings.Join(e.Names, ", "))
}

// Fill renders a compiled prompt with runtime values. A variable without
// a value takes its declared default, else stays as {name}; a required one
// without a value is reported in a *MissingVariableError along with the
// text.
func Fill(a *compiler.Agent, prompt string, values map[string]string) (string, error) {
	tmpl, err := template.Parse(prompt)
	if err != nil {
		return "", err
	}
	var missing []string
	for _, ph := range tmpl.Placeholders() {
		if _, ok := values[ph.Name]; ok {
			continue
		}
		if v, ok := a.Variables[ph.Name]; ok && v.Required && !contains(missing, ph.Name) {
			missing = append(missing, ph.Name)
		}
	}
	out, err := tmpl.Execute(func(name string) (string, bool) {
		if v, ok := values[name]; ok {
			return v, true
		}
		if v, ok := a.Variables[name]; ok && v.Default != "" {
			return v.Default, true
		}
		return "{" + name + "}", true
	})
	if err != nil {
		return "", err
	}
	if len(missing) > 0 {
		return out, &MissingVariableError{Names: missing}
	}
	return out, nil
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
