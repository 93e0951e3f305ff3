package lint

import (
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/render"
)

// budgetFraction is the share of the context window a prompt alone may
// take before the rule warns.
const budgetFraction = 0.5

// EstimateTokens estimates the tokens of a text offline: one token per four
// bytes, rounded up. For English prose with BPE tokenizers this is close to,
// and usually above, the real count; for code and non-Latin scripts it may
// be below. It needs no tokenizer tables and no network.
func EstimateTokens(text string) int { return (len(text) + 3) / 4 }

var promptOverBudget = &Rule{
	ID:       "prompt-over-budget",
	Severity: diag.Warning,
	Summary:  "an agent's prompt does not fit its model's context window",
	Doc: doc(`The standard library's models declare each model's context_window (add yours under models). For every agent whose model_id is declared, the rule renders the agent's system prompt and estimates its tokens offline, at one token per four bytes rounded up (close to, usually above, real BPE counts for English). It reports when the prompt plus the agent's max_tokens (the reply) exceeds the window, since the runtime then cannot fit one turn, or when the prompt alone takes more than half the window, leaving too little for the conversation. Shorten the prompt (fewer instructions, terser options), lower max_tokens, or pick a model with a larger window.`,
		`agents: scout: {
	type: "researcher" // a 30,000-byte system prompt
	model: {provider: "example-provider", model_id: "example-small-001", max_tokens: 4000}
}`,
		`agents: scout: {
	type: "researcher"
	model: {provider: "example-provider", model_id: "example-large-001", max_tokens: 4000}
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			m := a.Decl.Model
			if m == nil {
				continue
			}
			info, ok := p.Config.Models[m.ModelID]
			if !ok || info.ContextWindow <= 0 {
				continue // unknown-model says so
			}
			upper := (promptBound(a) + 3) / 4
			if upper+m.MaxTokens <= info.ContextWindow && float64(upper) <= budgetFraction*float64(info.ContextWindow) {
				continue // cannot fire: no need to render
			}
			prompt, err := render.Render(p.Program, a)
			if err != nil {
				continue
			}
			tokens, window := EstimateTokens(prompt.String()), info.ContextWindow
			switch {
			case tokens+m.MaxTokens > window:
				p.Reportf([]string{"agents", a.ID, "model", "model_id"},
					"the prompt (about %d tokens, estimated at 4 bytes a token) plus max_tokens %d exceeds %s's context window of %d tokens: shorten the prompt, lower max_tokens or pick a model with a larger window",
					tokens, m.MaxTokens, m.ModelID, window)
			case float64(tokens) > budgetFraction*float64(window):
				p.Reportf([]string{"agents", a.ID, "model", "model_id"},
					"the prompt (about %d tokens, estimated at 4 bytes a token) takes more than half of %s's context window of %d tokens, leaving little for the conversation: shorten the prompt or pick a model with a larger window",
					tokens, m.ModelID, window)
			}
		}
	},
}

// promptBound returns an upper bound of the length in bytes of the agent's
// rendered prompt, computed from the resolved agent without rendering: every
// piece of text render.Render may write, with room for escaped braces (each
// substituted byte may double), labels, headings and newlines. The rule
// renders only the prompts whose bound could exceed the budget; a test
// checks that the bound holds for every agent of the test repositories.
func promptBound(a *compiler.Agent) int {
	const slack = 64 // per piece: line breaks, punctuation, headings
	n := 4 * slack
	if a.Type != nil {
		n += len(a.Type.SystemPrompt) + strings.Count(a.Type.SystemPrompt, "\n") + slack
		for _, v := range compiler.CompileTimeValues(a) {
			n += 2 * len(v) * (1 + strings.Count(a.Type.SystemPrompt, "{"))
		}
	}
	for _, c := range a.Behavior {
		n += 2*len(c.Title) + slack
		for _, s := range c.Settings {
			n += len(s.Line) + slack +
				strings.Count(s.Line, "{text}")*2*len(s.Text) +
				strings.Count(s.Line, "{value}")*2*len(s.Value.String())
		}
	}
	if p := a.Decl.Personality; p != nil {
		n += 8*256 + 2*(len(p.CommunicationStyle)+len(p.RiskTolerance)+len(p.Creativity)+len(p.Description))
		for _, t := range p.Traits {
			n += 2 * (len(t) + 2)
		}
	}
	for _, b := range a.Behaviors {
		n += 2*len(b.Instructions) + strings.Count(b.Instructions, "\n") + slack
	}
	for _, t := range a.Tools {
		n += 2*(len(t.Name)+len(t.Description)) + slack
	}
	return n
}
