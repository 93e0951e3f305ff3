package lsp

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/lint"
)

func (s *Server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	d, c, snap, off := s.at(p.TextDocument.URI, p.Position)
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	if d != nil && inIgnoreComment(d.text, off) {
		for _, r := range lint.All() {
			kind := protocol.CompletionItemKindKeyword
			summary := r.Info().Summary
			list.Items = append(list.Items, protocol.CompletionItem{Label: r.ID, Kind: &kind, Detail: &summary})
		}
		return list, nil
	}
	if d == nil || c == nil || snap.cfg == nil {
		return list, nil
	}
	cfg := snap.cfg
	add := func(kind protocol.CompletionItemKind, label, detail, doc string) {
		it := protocol.CompletionItem{Label: label, Kind: &kind}
		if detail != "" {
			// An agent's role, an option's text: plain text, redacted,
			// its control and invisible characters visible.
			detail = diag.Escape(secret.Redact(detail), "")
			it.Detail = &detail
		}
		if doc != "" {
			it.Documentation = markdown(doc)
		}
		list.Items = append(list.Items, it)
	}
	names := func(kind protocol.CompletionItemKind, ns []string, detail func(string) string) {
		for _, n := range ns {
			add(kind, n, detail(n), "")
		}
	}

	// Where a field's label goes: the fields the struct may have.
	if c.label || c.inStruct {
		parent := c.path
		if c.label {
			parent = c.path[:len(c.path)-1]
		}
		if is(parent, "agents", "*", "behaviors", elem, "params") {
			if bt := cfg.BehaviorTypes[c.element["type"]]; bt != nil {
				names(protocol.CompletionItemKindProperty, model.Sorted(bt.Params), func(n string) string { return bt.Params[n].Description })
			}
			return s.edits(list, d, c), nil
		}
		if b := behaviorAt(parent); b >= 0 && len(parent) == b+2 {
			if cat := cfg.Categories[parent[b+1]]; cat != nil {
				names(protocol.CompletionItemKindProperty, model.Sorted(cat.Settings), func(n string) string { return cat.Settings[n].Description })
			}
			return s.edits(list, d, c), nil
		}
		if is(parent, "lint", "severity") {
			for _, lr := range lint.All() {
				add(protocol.CompletionItemKindKeyword, lr.ID, lr.Info().Summary, "")
			}
			return s.edits(list, d, c), nil
		}
		names(protocol.CompletionItemKindField, fieldNames(cfg, parent), func(string) string { return "" })
		return s.edits(list, d, c), nil
	}
	if !c.str {
		return list, nil
	}

	p2 := c.path
	r := resolve(c, cfg)
	switch {
	case r == nil:
	case r.kind == "option":
		if cat := cfg.Categories[r.cat]; cat != nil && cat.Settings[r.setting] != nil {
			set := cat.Settings[r.setting]
			for _, n := range model.Sorted(set.Options) {
				add(protocol.CompletionItemKindEnumMember, n, set.Options[n].Text, txt(set.Options[n].Description))
			}
		}
	case r.kind == "agent type":
		names(protocol.CompletionItemKindClass, model.Sorted(cfg.AgentTypes), func(n string) string { return cfg.AgentTypes[n].Description })
	case r.kind == "preset":
		names(protocol.CompletionItemKindValue, model.Sorted(cfg.Presets), func(n string) string { return cfg.Presets[n].Description })
	case r.kind == "profile":
		names(protocol.CompletionItemKindModule, model.Sorted(cfg.Profiles), func(n string) string { return cfg.Profiles[n].Description })
	case r.kind == "behavior type":
		names(protocol.CompletionItemKindClass, model.Sorted(cfg.BehaviorTypes), func(n string) string { return cfg.BehaviorTypes[n].Description })
	case r.kind == "agent":
		self := ""
		if p2[0] == "agents" {
			self = p2[1]
		}
		for _, id := range model.Sorted(cfg.Agents) {
			if id != self {
				a := cfg.Agents[id]
				add(protocol.CompletionItemKindReference, id, strings.TrimSpace(a.Name+", "+a.Role), "")
			}
		}
	case r.kind == "tool":
		tools := map[string]string{}
		for _, bt := range model.Sorted(cfg.BehaviorTypes) {
			for name, t := range cfg.BehaviorTypes[bt].Tools {
				if _, ok := tools[name]; !ok {
					tools[name] = bt + ": " + t.Description
				}
			}
		}
		names(protocol.CompletionItemKindFunction, slices.Sorted(maps.Keys(tools)), func(n string) string { return tools[n] })
	case r.kind == "lint rule":
		for _, lr := range lint.All() {
			add(protocol.CompletionItemKindKeyword, lr.ID, lr.Info().Summary, "")
		}
	case r.kind == "model":
		names(protocol.CompletionItemKindValue, model.Sorted(cfg.Models), func(n string) string { return cfg.Models[n].Description })
	case r.kind == "template":
		if _, ok := placeholderAt(d.text.src+"}", off); !ok {
			break
		}
		ph := slices.Clone(compiler.CompileTimeNames)
		if t := cfg.AgentTypes[r.owner]; t != nil {
			ph = append(ph, model.Sorted(t.Variables)...)
		}
		names(protocol.CompletionItemKindVariable, ph, func(n string) string {
			if t := cfg.AgentTypes[r.owner]; t != nil && t.Variables[n] != nil {
				return t.Variables[n].Description
			}
			return "filled in at build time"
		})
		return list, nil // the client's own word boundary is right in text
	}
	return s.edits(list, d, c), nil
}

// edits makes each item replace the word the cursor is in (the string's
// content, or the label typed so far), so that the client filters by it.
func (s *Server) edits(list *protocol.CompletionList, d *document, c *cursor) *protocol.CompletionList {
	if c.inStruct && !c.label {
		return list
	}
	rng := d.text.rangeOf(c.start, c.end)
	for i := range list.Items {
		it := &list.Items[i]
		text := it.Label
		if c.quote {
			text = strconv.Quote(text)
		}
		it.TextEdit = protocol.TextEdit{Range: rng, NewText: text}
		f := it.Label
		it.FilterText = &f
	}
	return list
}

// inIgnoreComment reports whether off is where a // charter:ignore
// comment names its rules: after the marker, in its first word.
func inIgnoreComment(t *text, off int) bool {
	pos := t.position(off)
	before := t.src[t.lines[pos.Line]:off]
	i := strings.Index(before, "charter:ignore")
	if i < 0 || !strings.Contains(before[:i], "//") {
		return false
	}
	rest := before[i+len("charter:ignore"):]
	return rest != "" && !strings.Contains(strings.TrimLeft(rest, " \t"), " ")
}
