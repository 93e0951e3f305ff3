package lint

import "github.com/charter-dev/charter/internal/output/diag"

// toolConflict is the compiler's check, documented here: the compiler
// reports it as an error, and lint stops at errors, so it is reported once.
var toolConflict = &Rule{
	ID:       "tool-conflict",
	Severity: diag.Error,
	Summary:  "two behaviors of an agent provide the same tool",
	Kind:     CompilerReported,
	Doc: doc(`An agent's tools are the merged tools of its behaviors, and each tool may come from one behavior only: with two, the runtime cannot tell which implementation a call means. The compiler reports this as an error (lint prints it and stops, like any other error), so it is listed here for `+"`charter explain`"+` and never reported twice. Remove one of the behaviors, or use a behavior type that does not bring the tool.`,
		`agents: coder: behaviors: [
	{type: "FileToolsBehavior"},
	{type: "MyFileToolsBehavior"}, // also provides read_file
]`,
		`agents: coder: behaviors: [
	{type: "FileToolsBehavior"},
]`),
}
