package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var unreachableOption = &Rule{
	ID:       "unreachable-option",
	Severity: diag.Info,
	Summary:  "an option that no preset, agent type or agent selects and that is not the default",
	Doc: doc(`An option reaches a prompt only as its setting's default or when a preset, an agent type or an agent selects it. An option declared in your files that is neither is dead text: its sentence is never sent to a model, and reviewers read it as if it mattered. Select it where it is meant to apply, or remove it. Options of the standard library are not reported.`,
		`categories: tone: settings: register: {
	line: "- Register: {text}"
	default: "plain"
	options: {
		plain: text: "Use plain words."
		legal: text: "Use precise legal terms." // selected nowhere
	}
}`,
		`categories: tone: settings: register: {
	line: "- Register: {text}"
	default: "plain"
	options: {
		plain: text: "Use plain words."
		legal: text: "Use precise legal terms."
	}
}
agents: counsel: behavior: tone: register: "legal"`),
	Run: func(p *Pass) {
		// The candidates (options of the user's that are not a default)
		// are few; the selections are one an agent: the scan looks up only
		// the categories with a candidate, and stops once each is
		// selected, as an editor runs this rule over every agent after
		// each edit.
		cfg := p.Config
		type option struct{ setting, option string }
		unused := map[string]map[option]bool{} // category -> candidates
		left := 0
		for cn, cat := range cfg.Categories {
			userCategory := !cfg.Builtin["categories."+cn]
			for sn, s := range cat.Settings {
				for on := range s.Options {
					if on == s.Default.Name && !s.Default.IsNumber {
						continue
					}
					if !userCategory && p.Builtin("categories", cn, "settings", sn, "options", on) {
						continue
					}
					if unused[cn] == nil {
						unused[cn] = map[option]bool{}
					}
					unused[cn][option{sn, on}] = true
					left++
				}
			}
		}
		use := func(b model.Behavior) {
			for c, settings := range b {
				cands := unused[c]
				if len(cands) == 0 {
					continue
				}
				for name, ch := range settings {
					if o := (option{name, ch.Name}); !ch.IsNumber && cands[o] {
						delete(cands, o)
						left--
					}
				}
			}
		}
		for _, pr := range cfg.Presets {
			use(pr.Behavior)
		}
		for _, t := range cfg.AgentTypes {
			use(t.Behavior)
		}
		for _, a := range cfg.Agents {
			if left == 0 {
				break
			}
			use(a.Behavior)
		}
		for _, cn := range model.Sorted(unused) {
			cands := unused[cn]
			if len(cands) == 0 {
				continue
			}
			cat := cfg.Categories[cn]
			for _, sn := range model.Sorted(cat.Settings) {
				for _, on := range model.Sorted(cat.Settings[sn].Options) {
					if cands[option{sn, on}] {
						p.Reportf([]string{"categories", cn, "settings", sn, "options", on}, "option %s is not the default of %s.%s and no preset, agent type or agent selects it, so it never reaches a prompt: select it somewhere or remove it", on, cn, sn)
					}
				}
			}
		}
	},
}
