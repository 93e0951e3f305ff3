package compiler

import (
	"strings"

	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/render/template"
	"slices"
)

// CompileTimeNames are the placeholders filled in when the bundle is built.
var CompileTimeNames = []string{
	"agent.id", "agent.name", "agent.role", "agent.department", "agent.level", "agent.description",
	"agent.tools", "type.name", "type.description",
}

// CompileTimeValues returns the compile-time placeholder values of an agent.
func CompileTimeValues(a *Agent) map[string]string {
	m := map[string]string{
		"agent.id": a.ID, "agent.name": a.Decl.Name, "agent.role": a.Decl.Role,
		"agent.department": a.Decl.Department, "agent.level": a.Decl.Level, "agent.description": a.Decl.Description,
		// The tools the agent may call, as the gate admits them: a
		// template that lists them never names a denied one.
		"agent.tools": strings.Join(a.EffectiveNames(), ", "),
	}
	if a.Type != nil {
		m["type.name"], m["type.description"] = a.Type.Name, a.Type.Description
	}
	return m
}

// checkTemplates parses every agent type's template and reports syntax
// errors and placeholders that are neither compile-time values nor
// declared variables, at their line in the user's file.
func (c *compilation) checkTemplates() {
	cfg := c.prog.Config
	for _, slug := range model.Sorted(cfg.AgentTypes) {
		t := cfg.AgentTypes[slug]
		path := []string{"agentTypes", slug, "system_prompt"}
		tmpl, err := template.Parse(t.SystemPrompt)
		if err != nil {
			if list, ok := err.(template.ErrorList); ok {
				for _, e := range list {
					c.templateError(path, e.Pos, e.Msg)
				}
			}
			continue
		}
		for _, ph := range tmpl.Placeholders() {
			if slices.Contains(CompileTimeNames, ph.Name) {
				continue
			}
			if _, ok := t.Variables[ph.Name]; ok {
				continue
			}
			msg := "undeclared placeholder {" + ph.Name + "}: declare it under agentTypes." + slug + ".variables." + ph.Name +
				" (a runtime variable), or use a compile-time value: " + strings.Join(CompileTimeNames, ", ")
			if strings.Contains(ph.Name, ".") {
				msg = "unknown compile-time value {" + ph.Name + "}; compile-time values are " + strings.Join(CompileTimeNames, ", ")
			}
			c.templateError(path, ph.Pos, msg)
		}
	}
}

// templateError reports msg at a position inside the template string at
// path, mapped to the CUE file.
func (c *compilation) templateError(path []string, p template.Pos, msg string) {
	pos := c.prog.TemplatePos(path, p)
	c.diags = append(c.diags, diag.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Column, Severity: diag.Error,
		Rule: "placeholder", Path: dotted(path), Message: dotted(path) + ": " + msg})
}

// TemplatePos maps a position in the template string at path to the CUE
// source: exact for single-line strings, and for multi-line ("""") strings
// the line exact and the column shifted by the string's indentation.
func (prog *Program) TemplatePos(path []string, p template.Pos) Position {
	lit, raw := prog.locate.LiteralPos(path...)
	if !lit.IsValid() {
		return prog.locate.Pos(path...)
	}
	return prog.locate.chars(templatePos(lit, raw, p))
}

func templatePos(lit token.Pos, raw string, p template.Pos) Position {
	out := Position{File: lit.Filename(), Line: lit.Line(), Column: lit.Column()}
	if strings.HasPrefix(raw, `"""`) || strings.HasPrefix(raw, `'''`) || strings.HasPrefix(raw, `#"""`) {
		lines := strings.Split(raw, "\n")
		indent := len(lines[len(lines)-1]) - len(strings.TrimLeft(lines[len(lines)-1], " \t"))
		out.Line += p.Line
		out.Column = indent + p.Column
		return out
	}
	if p.Line == 1 {
		out.Column += 1 + p.Column - 1 // past the opening quote
	}
	return out
}
