package lint

import (
	"maps"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

// approvalCategory is the behavior category whose settings name the
// actions that need approval.
const approvalCategory = "approval"

var approveUnknown = &Rule{
	ID:       "approve-unknown",
	Severity: diag.Warning,
	Summary:  "authority.can_approve names nothing that can need approval",
	Doc: doc(`authority.can_approve lists what an agent may approve for others. Each entry must name something that can require approval: a setting of the approval category (financial_actions, email_send, bulk_actions, ..., bare or as approval.financial_actions), a tool a behavior type provides (write_file), a tool family of a profile (bash), or a rule of a profile (confirm_destructive: the agent may approve what that rule blocks). Anything else approves nothing a runtime can match; usually it is misspelt, and the message names the closest name. Use one of those names, or add the setting to the approval category.`,
		`agents: bob: authority: can_approve: ["refunds"]`,
		`agents: bob: authority: can_approve: ["financial_actions", "confirm_destructive"]`),
	Run: func(p *Pass) {
		names := map[string]bool{}
		if cat, ok := p.Config.Categories[approvalCategory]; ok {
			for s := range cat.Settings {
				names[s] = true
				names[approvalCategory+"."+s] = true
			}
		}
		maps.Copy(names, p.KnownTools())
		for _, pr := range p.Program.Profiles {
			for fam := range pr.ToolFamilies {
				names[fam] = true
			}
			for _, r := range pr.Rules {
				names[r.ID] = true
			}
		}
		var candidates []string
		hints := map[string]string{} // the same wrong name recurs across agents
		for _, id := range model.Sorted(p.Config.Agents) {
			for i, what := range p.Config.Agents[id].Authority.CanApprove {
				if names[what] {
					continue
				}
				if candidates == nil {
					candidates = slices.Sorted(maps.Keys(names))
				}
				hint, seen := hints[what]
				if !seen {
					hint = didYouMean(what, candidates)
					hints[what] = hint
				}
				if hint == "" {
					var settings []string
					if cat, ok := p.Config.Categories[approvalCategory]; ok {
						settings = model.Sorted(cat.Settings)
					}
					hint = "; name an approval setting (" + strings.Join(settings, ", ") + "), a tool, a tool family or a profile rule"
				}
				p.Reportf([]string{"agents", id, "authority", "can_approve", index(i)}, "can_approve names %q, which is no approval setting, tool, tool family or profile rule%s", what, hint)
			}
		}
	},
}
