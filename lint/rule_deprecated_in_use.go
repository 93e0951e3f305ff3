package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var deprecatedInUse = &Rule{
	ID:       "deprecated-in-use",
	Severity: diag.Warning,
	Summary:  "a preset, agent type or agent selects a deprecated setting or option",
	Doc: doc(`A setting or an option marked deprecated (its deprecated field says what to use instead) still works, but is going away. Every selection of one, in a preset, an agent type or an agent, is reported with the replacement the deprecation names; so is a setting whose default is a deprecated option. Select the replacement.`,
		`categories: communication: settings: formatting: options: rich: {text: "Use rich text.", deprecated: "use markdown"}
agents: ann: behavior: communication: formatting: "rich"`,
		`agents: ann: behavior: communication: formatting: "markdown"`),
	Run: func(p *Pass) {
		cfg := p.Config
		for _, s := range selections(cfg) {
			for _, cn := range model.Sorted(s.behavior) {
				cat, ok := cfg.Categories[cn]
				if !ok {
					continue
				}
				for _, sn := range model.Sorted(s.behavior[cn]) {
					set, ok := cat.Settings[sn]
					if !ok {
						continue
					}
					path := append(append([]string(nil), s.path...), cn, sn)
					if set.Deprecated != "" {
						p.Reportf(path, "setting %s.%s is deprecated: %s", cn, sn, set.Deprecated)
						continue
					}
					ch := s.behavior[cn][sn]
					if opt, ok := set.Options[ch.Name]; ok && !ch.IsNumber && opt.Deprecated != "" {
						p.Reportf(path, "option %s of %s.%s is deprecated: %s", ch.Name, cn, sn, opt.Deprecated)
					}
				}
			}
		}
		for _, cn := range model.Sorted(cfg.Categories) {
			for _, sn := range model.Sorted(cfg.Categories[cn].Settings) {
				set := cfg.Categories[cn].Settings[sn]
				if opt, ok := set.Options[set.Default.Name]; ok && opt.Deprecated != "" && set.Deprecated == "" {
					p.Reportf([]string{"categories", cn, "settings", sn, "default"}, "the default, option %s, is deprecated: %s; make another option the default", set.Default.Name, opt.Deprecated)
				}
			}
		}
	},
}
