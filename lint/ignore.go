package lint

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
)

// ignorePrefix starts a suppression comment.
const ignorePrefix = "charter:ignore"

// ignore is one // charter:ignore RULE[,RULE...] reason comment.
type ignore struct {
	pos    token.Pos
	file   string
	line   int
	rules  []string
	reason string
	used   map[string]bool
}

// parseIgnores finds the suppression comments of files.
func parseIgnores(files []*load.File) []*ignore {
	var out []*ignore
	for _, f := range files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				if ig := parseIgnore(f, c); ig != nil {
					out = append(out, ig)
				}
			}
		}
	}
	return out
}

// parseIgnore parses one comment of f: a suppression comment, or nil.
func parseIgnore(f *load.File, c *ast.Comment) *ignore {
	text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
	rest, ok := strings.CutPrefix(text, ignorePrefix)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil
	}
	fields := strings.Fields(rest)
	ig := &ignore{pos: c.Pos(), file: f.Path, line: c.Pos().Line(), used: map[string]bool{}}
	if len(fields) > 0 {
		for _, id := range strings.Split(fields[0], ",") {
			if id != "" {
				ig.rules = append(ig.rules, id)
			}
		}
		ig.reason = strings.Join(fields[1:], " ")
	}
	return ig
}

// applyIgnores drops the diagnostics a comment on their line or the line
// above silences. A comment without a reason, or naming no rule, silences
// nothing.
func applyIgnores(ds []diag.Diagnostic, ignores []*ignore) []diag.Diagnostic {
	if len(ignores) == 0 {
		return ds
	}
	type key struct {
		file string
		line int
	}
	at := map[key][]*ignore{}
	for _, ig := range ignores {
		if ig.reason == "" {
			continue
		}
		k := key{ig.file, ig.line}
		at[k] = append(at[k], ig)
	}
	out := ds[:0]
next:
	for _, d := range ds {
		for _, line := range []int{d.Line, d.Line - 1} {
			for _, ig := range at[key{d.File, line}] {
				for _, id := range ig.rules {
					if id == d.Rule {
						ig.used[id] = true
						continue next
					}
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// problems returns the driver's findings about one comment: no rule, no
// reason, an unknown rule, or a rule (that ran) it silenced nothing of.
func (ig *ignore) problems(ran map[string]bool) []finding {
	var out []finding
	report := func(r *Rule, format string, args ...any) {
		out = append(out, finding{rule: r, pos: ig.pos, msg: fmt.Sprintf(format, args...)})
	}
	if len(ig.rules) == 0 {
		report(ignoreWithoutReason, "charter:ignore names no rule: write // charter:ignore RULE reason")
		return out
	}
	if ig.reason == "" {
		report(ignoreWithoutReason, "charter:ignore %s has no reason, so it silences nothing: say why after the rule id, e.g. // charter:ignore %s the budget is checked upstream", strings.Join(ig.rules, ","), strings.Join(ig.rules, ","))
	}
	for _, id := range ig.rules {
		if _, ok := Lookup(id); !ok {
			report(unknownRule, "charter:ignore names unknown lint rule %q%s", id, didYouMean(id, IDs()))
			continue
		}
		if ig.reason != "" && ran[id] && !ig.used[id] {
			report(unusedIgnore, "charter:ignore %s silences nothing on this line or the next: remove the comment", id)
		}
	}
	return out
}

var ignoreWithoutReason = &Rule{
	ID:       "ignore-without-reason",
	Severity: diag.Warning,
	Summary:  "a charter:ignore comment gives no reason",
	Doc: "A `// charter:ignore RULE reason` comment silences the findings of RULE on its own line and the line below; " +
		"the reason is required, so that a reviewer can judge it. A comment without one silences nothing and is reported itself.\n\n" +
		"Bad:\n\n```cue\n// charter:ignore budget-exceeds-manager\nauthority: budget_limit: 900\n```\n\n" +
		"Good:\n\n```cue\n// charter:ignore budget-exceeds-manager finance approved the exception (FIN-112)\nauthority: budget_limit: 900\n```\n",
}

var unusedIgnore = &Rule{
	ID:       "unused-ignore",
	Severity: diag.Warning,
	Summary:  "a charter:ignore comment silences nothing",
	Doc: "A suppression comment that silences no finding of a rule that ran is stale: the problem was fixed or moved, " +
		"and the comment would hide the next one. Remove it. (A comment naming a rule turned off with --disable or " +
		"lint.disable is not reported.)\n\n" +
		"Bad:\n\n```cue\n// charter:ignore fallback-same-model kept for the migration\nmodel: {provider: \"openai\", model_id: \"gpt-4o\", fallback_model: \"gpt-4o-mini\"}\n```\n\n" +
		"Good:\n\n```cue\nmodel: {provider: \"openai\", model_id: \"gpt-4o\", fallback_model: \"gpt-4o-mini\"}\n```\n",
}

var unknownRule = &Rule{
	ID:       "unknown-rule",
	Severity: diag.Warning,
	Summary:  "a charter:ignore comment or the lint settings name a rule that does not exist",
	Doc: "Rule ids in `// charter:ignore` comments and in the repository's `lint: {disable: [...], severity: {...}}` " +
		"must name a lint rule; a misspelt id silences or changes nothing. The message names the closest rule; " +
		"`charter explain` lists them all.\n\n" +
		"Bad:\n\n```cue\nlint: disable: [\"secret-literals\"]\n```\n\n" +
		"Good:\n\n```cue\nlint: disable: [\"secret-literal\"]\n```\n",
}

// driverRules are the rules the driver checks itself.
var driverRules = map[string]bool{"ignore-without-reason": true, "unused-ignore": true, "unknown-rule": true}
