package lint

import "github.com/charter-dev/charter/internal/output/diag"

var regexInvalid = &Rule{
	ID:       "regex-invalid",
	Severity: diag.Error,
	Summary:  "a regular expression in a rule condition does not compile",
	Kind:     CompilerReported,
	Doc: doc(`A rule condition holds regular expressions as the pattern of a matches condition, and in a CEL expression (condition type expr) as the argument of matches() (call.args.command.matches('...')). The compiler compiles every condition of your files as the rule engine will at run time, so a bad pattern fails the build, in CI, and not on some agent's tool call in production; lint prints it and stops, like any other error. Fix the pattern in RE2 syntax (Go's regexp: no lookaround or backreferences); remember that CUE and CEL strings both process backslashes.`,
		`profiles: ops: rules: tests_first: condition: {
	type: "expr"
	expr: "call.args.command.matches('(pytest|go test')"
}`,
		`profiles: ops: rules: tests_first: condition: {
	type: "expr"
	expr: "call.args.command.matches('(pytest|go test)')"
}`),
}
