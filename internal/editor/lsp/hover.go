package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/mdtext"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/lint"
)

// at returns the open buffer of uri, its cursor at pos and the last
// evaluation that validated; nil when there is nothing to answer from.
func (s *Server) at(uri string, pos protocol.Position) (*document, *cursor, *snapshot, int) {
	s.mu.Lock()
	d, snap := s.docs[uri], s.good
	if snap == nil && s.snap != nil && s.snap.partial != nil {
		snap = &snapshot{cfg: s.snap.partial, decls: s.snap.decls}
	}
	s.mu.Unlock()
	if d == nil || d.rel == "" || snap == nil || snap.notCharter {
		return nil, nil, nil, 0
	}
	off := d.text.offset(pos)
	return d, locate(d.rel, d.text.src, off), snap, off
}

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	d, c, snap, off := s.at(p.TextDocument.URI, p.Position)
	if d == nil {
		return nil, nil
	}
	if id, start, end, ok := ignoreRuleAt(d.text, off); ok {
		if doc := lintRuleDoc(id); doc != "" {
			rng := d.text.rangeOf(start, end)
			return &protocol.Hover{Contents: markdown(doc), Range: &rng}, nil
		}
	}
	if c == nil || snap.cfg == nil {
		return nil, nil
	}
	r := resolve(c, snap.cfg)
	if r == nil {
		return nil, nil
	}
	var text string
	if r.kind == "template" {
		text = placeholderDoc(snap.cfg, r.owner, d.text.src, off)
	} else {
		text = describe(snap.cfg, r)
	}
	if text == "" {
		return nil, nil
	}
	if l, ok := s.find(snap, r.decl); ok {
		text += "\n\n" + where(l)
	}
	rng := d.text.rangeOf(c.start, c.end)
	return &protocol.Hover{Contents: markdown(text), Range: &rng}, nil
}

// markdown is hover and completion text; it never shows a credential
// (the files the editor holds do; what charter says about them does not).
func markdown(s string) protocol.MarkupContent {
	return protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: secret.Redact(s)}
}

// txt is text of the configuration in hover and completion Markdown:
// redacted, and escaped (mdtext.Escape) so that the editor shows it as
// the text it is, never as an image it fetches, a link, HTML or a
// heading, with control and invisible characters visible.
func txt(s string) string { return mdtext.Escape(secret.Redact(s)) }

// code is a value of the configuration as inline code (mdtext.Code),
// redacted.
func code(s string) string { return mdtext.Code(secret.Redact(s)) }

// find looks a declaration up in the user's files, then the standard
// library.
func (s *Server) find(snap *snapshot, decl string) (loc, bool) {
	if decl == "" {
		return loc{}, false
	}
	if l, ok := snap.decls[decl]; ok {
		return l, true
	}
	l, ok := stdlibIndex()[decl]
	return l, ok
}

func where(l loc) string {
	if f, ok := strings.CutPrefix(l.file, stdlibPrefix); ok {
		return fmt.Sprintf("Built in: charter's %s:%d", txt(f), l.line)
	}
	return fmt.Sprintf("Declared in %s:%d", txt(l.file), l.line)
}

// describe writes what a reference names, in Markdown.
func describe(cfg *model.Config, r *ref) string {
	var b strings.Builder
	switch r.kind {
	case "option", "setting":
		cat := cfg.Categories[r.cat]
		if cat == nil {
			return ""
		}
		set := cat.Settings[r.setting]
		if set == nil {
			return ""
		}
		if r.kind == "option" {
			o := set.Options[r.name]
			if o == nil {
				return ""
			}
			fmt.Fprintf(&b, "**%s** — option of %s.%s\n\n", txt(r.name), txt(r.cat), txt(r.setting))
			fmt.Fprintf(&b, "Prompt: %s\n", txt(promptLine(set, o.Text, r.name)))
			if o.Description != "" {
				fmt.Fprintf(&b, "\n%s\n", txt(o.Description))
			}
			if o.Deprecated != "" {
				fmt.Fprintf(&b, "\nDeprecated: %s\n", txt(o.Deprecated))
			}
			b.WriteString("\n")
		} else {
			fmt.Fprintf(&b, "**%s** — setting of category %s\n\n", txt(r.name), txt(r.cat))
			if set.Description != "" {
				fmt.Fprintf(&b, "%s\n\n", txt(set.Description))
			}
		}
		fmt.Fprintf(&b, "Default: %s\n\n", code(set.Default.String()))
		if set.Numeric() {
			if set.Range != nil {
				fmt.Fprintf(&b, "Values: %s to %s\n", model.NumberChoice(set.Range.Min), model.NumberChoice(set.Range.Max))
			}
			return b.String()
		}
		b.WriteString("Options:\n")
		for _, name := range model.Sorted(set.Options) {
			fmt.Fprintf(&b, "- %s: %s\n", code(name), txt(set.Options[name].Text))
		}
	case "category":
		cat := cfg.Categories[r.name]
		if cat == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — behavior category \"%s\"\n\n", txt(r.name), txt(cat.Title))
		if cat.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(cat.Description))
		}
		fmt.Fprintf(&b, "Settings: %s\n", txt(strings.Join(model.Sorted(cat.Settings), ", ")))
	case "agent type":
		t := cfg.AgentTypes[r.name]
		if t == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — agent type \"%s\"\n\n", txt(r.name), txt(t.Name))
		if t.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(t.Description))
		}
		if len(t.Variables) > 0 {
			fmt.Fprintf(&b, "Variables: %s\n", txt(strings.Join(model.Sorted(t.Variables), ", ")))
		}
	case "preset":
		pr := cfg.Presets[r.name]
		if pr == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — preset\n\n", txt(r.name))
		if pr.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(pr.Description))
		}
		for _, c := range model.Sorted(pr.Behavior) {
			for _, st := range model.Sorted(pr.Behavior[c]) {
				fmt.Fprintf(&b, "- %s: %s\n", txt(c+"."+st), code(pr.Behavior[c][st].String()))
			}
		}
	case "profile":
		pr := cfg.Profiles[r.name]
		if pr == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — rule profile\n\n", txt(r.name))
		if pr.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(pr.Description))
		}
		if pr.Extends != "" {
			fmt.Fprintf(&b, "Extends: %s\n\n", txt(pr.Extends))
		}
		if len(pr.Rules) > 0 {
			fmt.Fprintf(&b, "Rules: %s\n", txt(strings.Join(model.Sorted(pr.Rules), ", ")))
		}
	case "behavior type":
		bt := cfg.BehaviorTypes[r.name]
		if bt == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — behavior type (%s)\n\n", txt(r.name), txt(bt.Kind))
		if bt.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(bt.Description))
		}
		for _, name := range model.Sorted(bt.Params) {
			pm := bt.Params[name]
			fmt.Fprintf(&b, "- param %s (%s): %s\n", code(name), txt(pm.Type), txt(pm.Description))
		}
		if len(bt.Tools) > 0 {
			fmt.Fprintf(&b, "\nTools: %s\n", txt(strings.Join(model.Sorted(bt.Tools), ", ")))
		}
	case "parameter":
		bt := cfg.BehaviorTypes[r.owner]
		if bt == nil || bt.Params[r.name] == nil {
			return ""
		}
		pm := bt.Params[r.name]
		fmt.Fprintf(&b, "**%s** — parameter of %s (%s)\n\n", txt(r.name), txt(r.owner), txt(pm.Type))
		if pm.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(pm.Description))
		}
		if pm.Default != nil {
			fmt.Fprintf(&b, "Default: %s\n", code(fmt.Sprint(pm.Default)))
		}
	case "agent":
		a := cfg.Agents[r.name]
		if a == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — agent %s", txt(r.name), txt(a.Name))
		if a.Role != "" {
			fmt.Fprintf(&b, ", %s", txt(a.Role))
		}
		fmt.Fprintf(&b, " (type %s)\n", txt(a.Type))
		if a.Authority.ReportsTo != "" {
			fmt.Fprintf(&b, "\nReports to %s\n", txt(a.Authority.ReportsTo))
		}
	case "tool":
		if r.owner == "" {
			return ""
		}
		t := cfg.BehaviorTypes[r.owner].Tools[r.name]
		fmt.Fprintf(&b, "**%s** — tool of behavior type %s\n\n%s\n", txt(r.name), txt(r.owner), txt(t.Description))
		if t.Destructive {
			b.WriteString("\nDestructive.\n")
		}
	case "rule":
		pr := cfg.Profiles[r.owner]
		if pr == nil || pr.Rules[r.name] == nil {
			return ""
		}
		ru := pr.Rules[r.name]
		fmt.Fprintf(&b, "**%s** — rule of profile %s\n\n", txt(r.name), txt(r.owner))
		if ru.Rule != "" {
			fmt.Fprintf(&b, "%s\n\n", txt(ru.Rule))
		}
		if ru.Action != "" {
			fmt.Fprintf(&b, "Action: %s", txt(ru.Action))
			if ru.Trigger != "" {
				fmt.Fprintf(&b, " on %s", txt(ru.Trigger))
			}
			b.WriteString("\n")
		}
		if ru.Message != "" {
			fmt.Fprintf(&b, "\nMessage: %s\n", txt(ru.Message))
		}
	case "lint rule":
		return lintRuleDoc(r.name)
	case "model":
		m := cfg.Models[r.name]
		if m == nil {
			return ""
		}
		fmt.Fprintf(&b, "**%s** — model, context window %d tokens\n", txt(r.name), m.ContextWindow)
		if m.Description != "" {
			fmt.Fprintf(&b, "\n%s\n", txt(m.Description))
		}
	default:
		return ""
	}
	return strings.TrimRight(b.String(), "\n")
}

// promptLine is the prompt line an option gives.
func promptLine(s *model.Setting, text, value string) string {
	line := strings.ReplaceAll(s.Line, "{text}", text)
	return strings.ReplaceAll(line, "{value}", value)
}

// placeholderDoc describes the {placeholder} under off in an agent type's
// template.
func placeholderDoc(cfg *model.Config, typ, src string, off int) string {
	name, ok := placeholderAt(src, off)
	if !ok {
		return ""
	}
	if slices.Contains(compiler.CompileTimeNames, name) {
		return fmt.Sprintf("**{%s}** — filled in when the bundle is built", txt(name))
	}
	if t := cfg.AgentTypes[typ]; t != nil {
		if v := t.Variables[name]; v != nil {
			s := fmt.Sprintf("**{%s}** — runtime variable of agent type %s", txt(name), txt(typ))
			if v.Description != "" {
				s += "\n\n" + txt(v.Description)
			}
			if v.Required {
				s += "\n\nRequired."
			}
			return s
		}
	}
	return ""
}

// placeholderAt returns the name of the {placeholder} around off.
func placeholderAt(src string, off int) (string, bool) {
	open := strings.LastIndexAny(src[:off], "{}\n")
	if open < 0 || src[open] != '{' {
		return "", false
	}
	rest := src[open+1:]
	end := strings.IndexAny(rest, "}\n")
	if end < 0 || rest[end] != '}' {
		return "", false
	}
	return strings.TrimSpace(rest[:end]), true
}

// ignoreRuleAt finds a lint rule id under off in a // charter:ignore
// comment.
func ignoreRuleAt(t *text, off int) (id string, start, end int, ok bool) {
	pos := t.position(off)
	line := t.line(int(pos.Line))
	lineStart := t.lines[pos.Line]
	i := strings.Index(line, "charter:ignore")
	if i < 0 {
		return "", 0, 0, false
	}
	j := i + len("charter:ignore")
	for j < len(line) && line[j] == ' ' {
		j++
	}
	k := j
	for k < len(line) && line[k] != ' ' && line[k] != '\t' {
		k++
	}
	col := off - lineStart
	if col < j || col > k {
		return "", 0, 0, false
	}
	// One of several comma-separated ids.
	a, b := col, col
	for a > j && line[a-1] != ',' {
		a--
	}
	for b < k && line[b] != ',' {
		b++
	}
	return line[a:b], lineStart + a, lineStart + b, true
}

// lintRuleDoc describes a lint rule, or "" when there is none of that id.
func lintRuleDoc(id string) string {
	r, ok := lint.Lookup(id)
	if !ok {
		return ""
	}
	return fmt.Sprintf("**%s** — lint rule (%s)\n\n%s\n\n`charter explain %s` documents it.", r.ID, r.Severity, r.Info().Summary, r.ID)
}
