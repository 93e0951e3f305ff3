package lint

import (
	"regexp"
	"strings"

	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/model"
)

var regexInvalid = &Rule{
	ID:       "regex-invalid",
	Severity: diag.Error,
	Summary:  "a regular expression inside a CEL condition does not compile",
	Doc: doc(`validate already rejects a matches condition whose pattern does not compile. A CEL expression (condition type expr) can hold regular expressions too, as the string argument of matches() (call.args.command.matches('...')); CEL compiles them only when the rule first runs, so a bad one fails in production, on some call, not in CI. This rule compiles every literal pattern passed to matches() in an expr condition with Go's RE2, the syntax CEL uses. Fix the pattern; remember that CUE and CEL strings both process backslashes.`,
		`profiles: ops: rules: tests_first: condition: {
	type: "expr"
	expr: "call.args.command.matches('(pytest|go test')"
}`,
		`profiles: ops: rules: tests_first: condition: {
	type: "expr"
	expr: "call.args.command.matches('(pytest|go test)')"
}`),
	Run: func(p *Pass) {
		for _, pn := range model.Sorted(p.Config.Profiles) {
			pr := p.Config.Profiles[pn]
			for _, id := range model.Sorted(pr.Rules) {
				c := pr.Rules[id].Condition
				if c == nil || c.Type != "expr" || !strings.Contains(c.Expr, "matches") {
					continue
				}
				for _, pat := range celMatchPatterns(c.Expr) {
					if _, err := regexp.Compile(pat); err != nil {
						p.Reportf([]string{"profiles", pn, "rules", id, "condition", "expr"},
							"the pattern %q passed to matches() does not compile: %v", pat, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
					}
				}
			}
		}
	},
}

// celMatchPatterns returns the string literals passed as the first argument
// of matches( in a CEL expression, unescaped. Literals it cannot read
// (raw strings with unusual escapes, concatenations) are skipped.
func celMatchPatterns(expr string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(expr[i:], "matches(")
		if j < 0 {
			return out
		}
		k := i + j + len("matches(")
		i = k
		for k < len(expr) && (expr[k] == ' ' || expr[k] == '\t') {
			k++
		}
		raw := false
		if k < len(expr) && (expr[k] == 'r' || expr[k] == 'R') {
			raw = true
			k++
		}
		if k >= len(expr) || expr[k] != '\'' && expr[k] != '"' {
			continue
		}
		if s, ok := celString(expr[k:], raw); ok {
			out = append(out, s)
		}
	}
}

// celString reads a quoted CEL string at the start of s.
func celString(s string, raw bool) (string, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), true
		case c == '\\' && !raw && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case '\\', '\'', '"', '`', '?':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				return "", false // octal, hex, unicode: not worth reading here
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}
