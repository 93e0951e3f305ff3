package lint

import (
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// doc assembles a rule's documentation: a paragraph, then a bad and a good
// CUE example.
func doc(para, bad, good string) string {
	return strings.TrimSpace(para) + "\n\nBad:\n\n```cue\n" + strings.TrimSpace(bad) + "\n```\n\nGood:\n\n```cue\n" + strings.TrimSpace(good) + "\n```\n"
}

// textKind says what a free-text field is for.
type textKind int

const (
	// promptText is copied into a prompt or shown to the model literally.
	promptText textKind = iota
	// templateText is a template (system_prompt, a setting's line).
	templateText
	// docText is for people: descriptions, names.
	docText
	// instructionText is a behavior's instructions or a tool's: copied into
	// the prompt with the behavior's {param} filled in.
	instructionText
)

// eachText calls fn with every free-text field of the model and its path.
func eachText(cfg *model.Config, fn func(path []string, kind textKind, text string)) {
	str := func(kind textKind, text string, path ...string) {
		if text != "" {
			fn(path, kind, text)
		}
	}
	for cn, c := range cfg.Categories {
		str(docText, c.Title, "categories", cn, "title")
		str(docText, c.Description, "categories", cn, "description")
		for sn, s := range c.Settings {
			str(templateText, s.Line, "categories", cn, "settings", sn, "line")
			str(docText, s.Description, "categories", cn, "settings", sn, "description")
			for on, o := range s.Options {
				str(promptText, o.Text, "categories", cn, "settings", sn, "options", on, "text")
				str(docText, o.Description, "categories", cn, "settings", sn, "options", on, "description")
			}
		}
	}
	for slug, t := range cfg.AgentTypes {
		str(docText, t.Name, "agentTypes", slug, "name")
		str(docText, t.Description, "agentTypes", slug, "description")
		str(templateText, t.SystemPrompt, "agentTypes", slug, "system_prompt")
		for vn, v := range t.Variables {
			str(docText, v.Description, "agentTypes", slug, "variables", vn, "description")
		}
	}
	for pn, p := range cfg.Presets {
		str(docText, p.Description, "presets", pn, "description")
	}
	for bn, b := range cfg.BehaviorTypes {
		str(docText, b.Description, "behaviorTypes", bn, "description")
		str(instructionText, b.Instructions, "behaviorTypes", bn, "instructions")
		for tn, t := range b.Tools {
			str(promptText, t.Description, "behaviorTypes", bn, "tools", tn, "description")
			str(instructionText, t.Instructions, "behaviorTypes", bn, "tools", tn, "instructions")
		}
		for pn, p := range b.Params {
			str(docText, p.Description, "behaviorTypes", bn, "params", pn, "description")
		}
		for i, ci := range b.Context {
			// A template of the block's own values, shown to the model.
			str(templateText, ci.Content, "behaviorTypes", bn, "context", index(i), "content")
		}
	}
	for pn, p := range cfg.Profiles {
		str(docText, p.Description, "profiles", pn, "description")
		for rn, r := range p.Rules {
			str(docText, r.Rule, "profiles", pn, "rules", rn, "rule")
			str(promptText, r.Message, "profiles", pn, "rules", rn, "message")
		}
		if p.Classifier != nil {
			for h, text := range p.Classifier.Hints {
				str(promptText, text, "profiles", pn, "classifier", "hints", h)
			}
		}
	}
	for fn, f := range cfg.Flows {
		str(docText, f.Description, "flows", fn, "description")
	}
	for id, a := range cfg.Agents {
		str(docText, a.Name, "agents", id, "name")
		str(docText, a.Role, "agents", id, "role")
		str(docText, a.Description, "agents", id, "description")
		if p := a.Personality; p != nil {
			str(promptText, p.Description, "agents", id, "personality", "description")
			str(promptText, p.CommunicationStyle, "agents", id, "personality", "communication_style")
			for i, t := range p.Traits {
				str(promptText, t, "agents", id, "personality", "traits", index(i))
			}
		}
		for _, tier := range []struct {
			name   string
			skills []model.Skill
		}{{"primary", a.Skills.Primary}, {"secondary", a.Skills.Secondary}} {
			for i, s := range tier.skills {
				str(docText, s.Description, "agents", id, "skills", tier.name, index(i), "description")
			}
		}
	}
}
