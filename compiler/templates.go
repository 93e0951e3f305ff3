package compiler

import (
	"strconv"
	"strings"
	"unicode/utf8"

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
// the line exact and the column shifted by the string's indentation; an
// escape (\u00e9, \") counts as the characters it takes in the file.
func (prog *Program) TemplatePos(path []string, p template.Pos) Position {
	return prog.stringPos(path, p.Line, p.Column, false)
}

// exprPos is TemplatePos for a position a CEL expression's error gives,
// whose column counts characters rather than bytes.
func (prog *Program) exprPos(path []string, line, col int) Position {
	return prog.stringPos(path, line, col, true)
}

func (prog *Program) stringPos(path []string, line, col int, runes bool) Position {
	lit, raw := prog.locate.LiteralPos(path...)
	if !lit.IsValid() {
		return prog.locate.Pos(path...)
	}
	return prog.locate.chars(literalPos(lit, raw, line, col, runes))
}

// literalPos maps line and col of the value of the string literal raw at
// lit to the file, in bytes; col counts characters when runes is set.
func literalPos(lit token.Pos, raw string, line, col int, runes bool) Position {
	out := Position{File: lit.Filename(), Line: lit.Line(), Column: lit.Column()}
	hashes := len(raw) - len(strings.TrimLeft(raw, "#"))
	esc := `\` + strings.Repeat("#", hashes)
	body := raw[hashes:]
	if strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, `'''`) {
		lines := strings.Split(raw, "\n")
		indent := len(lines[len(lines)-1]) - len(strings.TrimLeft(lines[len(lines)-1], " \t"))
		out.Line += line
		out.Column = indent + col
		if line > 0 && line < len(lines)-1 && len(lines[line]) >= indent {
			out.Column = indent + 1 + rawOffset(lines[line][indent:], esc, col-1, runes)
		}
		return out
	}
	if line == 1 && len(body) > 0 {
		out.Column += hashes + 1 + rawOffset(body[1:], esc, col-1, runes) // past the opening quote
	}
	return out
}

// rawOffset returns how many bytes of a string literal's text s make its
// value's first n bytes (characters, when runes is set): an escape (esc
// and what follows it) is longer in the file than in the value.
func rawOffset(s, esc string, n int, runes bool) int {
	i := 0
	for n > 0 && i < len(s) {
		units, size := 1, 0
		if strings.HasPrefix(s[i:], esc) && i+len(esc) < len(s) {
			j := i + len(esc)
			switch c := s[j]; {
			case c == 'u' || c == 'U':
				w := 4
				if c == 'U' {
					w = 8
				}
				size = len(esc) + 1 + w
				if v, err := strconv.ParseUint(s[j+1:min(j+1+w, len(s))], 16, 32); err == nil && !runes {
					units = max(utf8.RuneLen(rune(v)), 1)
				}
			case c == 'x':
				size = len(esc) + 3
			case '0' <= c && c <= '7':
				size = len(esc) + 3
			case c == '(':
				return i // an interpolation: no fixed length
			default:
				size = len(esc) + 1
			}
		} else {
			r, w := utf8.DecodeRuneInString(s[i:])
			size = w
			if !runes || r == utf8.RuneError && w == 1 {
				units = w
			}
		}
		i = min(i+size, len(s))
		n -= units
	}
	return i
}
