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
		cfg := p.Config
		used := map[[3]string]bool{}
		for _, s := range selections(cfg) {
			for c, settings := range s.behavior {
				for name, ch := range settings {
					if !ch.IsNumber {
						used[[3]string{c, name, ch.Name}] = true
					}
				}
			}
		}
		for _, cn := range model.Sorted(cfg.Categories) {
			cat := cfg.Categories[cn]
			userCategory := !cfg.Builtin["categories."+cn]
			for _, sn := range model.Sorted(cat.Settings) {
				s := cat.Settings[sn]
				for _, on := range model.Sorted(s.Options) {
					if on == s.Default.Name && !s.Default.IsNumber || used[[3]string{cn, sn, on}] {
						continue
					}
					path := []string{"categories", cn, "settings", sn, "options", on}
					if !userCategory && p.Builtin(path...) {
						continue
					}
					p.Reportf(path, "option %s is not the default of %s.%s and no preset, agent type or agent selects it, so it never reaches a prompt: select it somewhere or remove it", on, cn, sn)
				}
			}
		}
	},
}
