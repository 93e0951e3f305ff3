package lint

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var triggerUnknown = &Rule{
	ID:       "trigger-unknown",
	Severity: diag.Warning,
	Summary:  "a profile rule's trigger names no tool and no tool family",
	Doc: doc(`A rule's trigger is "*", a tool family of the profile (edit, read, bash, ... from tool_families, inherited through extends) or a tool name. A trigger that is neither a family nor a tool any behavior type provides or any family lists matches no call, so the rule never fires; usually it is misspelt. The message names the closest family or tool. Fix the name, or add the tool to a family under tool_families.`,
		`profiles: team: {
	extends: "coding"
	rules: review_first: {trigger: "edits", action: "remind", message: "Ask for a review."}
}`,
		`profiles: team: {
	extends: "coding"
	rules: review_first: {trigger: "edit", action: "remind", message: "Ask for a review."}
}`),
	Run: func(p *Pass) {
		known := p.KnownTools()
		for _, pn := range model.Sorted(p.Config.Profiles) {
			flat := p.Program.Profiles[pn]
			decl := p.Config.Profiles[pn]
			for _, id := range model.Sorted(decl.Rules) {
				t := decl.Rules[id].Trigger
				if t == "" || t == "*" || known[t] {
					continue
				}
				if _, fam := flat.ToolFamilies[t]; fam {
					continue
				}
				hint := didYouMean(t, slices.Sorted(maps.Keys(flat.ToolFamilies))) // families first
				if hint == "" {
					hint = didYouMean(t, slices.Sorted(maps.Keys(known)))
				}
				p.Reportf([]string{"profiles", pn, "rules", id, "trigger"},
					"trigger %q names no tool family of profile %s and no tool any behavior provides, so the rule never fires%s", t, pn, hint)
			}
		}
	},
}
