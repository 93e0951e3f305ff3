package render

import (
	"strconv"
	"strings"

	"github.com/charter-dev/charter/compiler"
)

// authorityLines are the prompt lines of what the agent may approve and
// spend: the agent acts on both, so it is told them.
func authorityLines(a *compiler.Agent) []labelLine {
	au := a.Decl.Authority
	var out []labelLine
	if len(au.CanApprove) > 0 {
		out = append(out, labelLine{field: "can_approve", text: "- You may approve: " + strings.Join(au.CanApprove, ", ")})
	}
	if au.BudgetLimit != nil {
		out = append(out, labelLine{field: "budget_limit", text: "- Your budget limit: " + strconv.FormatFloat(*au.BudgetLimit, 'f', -1, 64) + "; ask before spending more"})
	}
	return out
}
