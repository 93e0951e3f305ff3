package validate

import "github.com/charter-dev/charter/internal/output/diag"

// Checks describes every check whose id a diagnostic of loading,
// validation or compilation carries (the lint rules are lint's), for the
// formats that carry rule metadata: SARIF readers such as GitHub code
// scanning require a description and help for every rule a result names.
// The list is sorted by id; every check reports an error unless it says
// otherwise.
func Checks() []diag.RuleInfo {
	out := make([]diag.RuleInfo, len(checks))
	copy(out, checks)
	return out
}

var checks = []diag.RuleInfo{
	{ID: "build", Severity: diag.Error, Summary: "The files cannot be put together into one CUE value.",
		Doc: "CUE could not build the configuration from the files as written (an import it cannot resolve, a declaration it rejects).\n\nThe message gives CUE's reason at the file and line it points to; fix that declaration."},
	{ID: "context", Severity: diag.Error, Summary: "A behavior's context block is declared wrongly.",
		Doc: "A behavior type's context blocks (what the runtime inserts into the model's messages) must each have their own name and fill only parameters the behavior declares.\n\nThe message names the block and what is wrong; rename it, or fix the placeholder (docs/declarations.md)."},
	{ID: "depth", Severity: diag.Error, Summary: "A file nests values deeper than charter reads.",
		Doc: "A file nests fields, lists or operators more deeply than charter accepts, which no hand-written configuration needs.\n\nFlatten the value at the position given, or split it into named fields."},
	{ID: "extends-cycle", Severity: diag.Error, Summary: "Rule profiles extend each other in a cycle.",
		Doc: "A profile's extends chain comes back to itself, so no profile in the cycle has a defined set of rules.\n\nThe message lists the cycle; remove one of its extends."},
	{ID: "flow", Severity: diag.Error, Summary: "A flow's steps or what passes between them is declared wrongly.",
		Doc: "A flow needs at least one step, each with its own name and an agent that exists; an input listed twice, or a value passed from an agent whose output does not declare it, is an error.\n\nThe message names the step and the fix: declare the agent's output property, or correct the name (docs/declarations.md)."},
	{ID: "json-schema", Severity: diag.Error, Summary: "A tool's parameters or an agent's output is not a valid JSON Schema.",
		Doc: "Tool parameters and agent outputs are JSON Schema 2020-12; charter checks them as such (an unknown type, a required property that is not declared).\n\nThe message gives the place inside the schema and the closest valid word; fix the schema."},
	{ID: "package", Severity: diag.Error, Summary: "A file declares another CUE package than the rest.",
		Doc: "Every .cue file under the config root must belong to one package; a file that declares another is left out.\n\nUse one package name (package charter) in every file."},
	{ID: "placeholder", Severity: diag.Error, Summary: "A prompt template uses a placeholder that is malformed or unknown.",
		Doc: "An agent type's prompt template holds a {placeholder} that charter cannot fill: it is malformed, or names no field and no declared variable.\n\nThe message names the placeholder and the valid ones; fix the name, or declare the variable."},
	{ID: "read", Severity: diag.Error, Summary: "A .cue file cannot be read as charter configuration.",
		Doc: "A .cue file is too large, not UTF-8 text, or not a regular file (the last is a warning: it is skipped).\n\nSave it as UTF-8 text, split it, or rename it so it does not end in .cue."},
	{ID: "reference", Severity: diag.Error, Summary: "A name refers to a declaration that does not exist.",
		Doc: "An agent type, preset, profile, behavior type, agent or test call named somewhere is not declared, is listed twice, or a test names what it tests wrongly.\n\nThe message names the valid choices and the closest one; fix the name, or declare what it refers to."},
	{ID: "rule", Severity: diag.Error, Summary: "A rule profile's condition does not compile.",
		Doc: "A rule's condition (a CEL expression or a structured condition) cannot be compiled as the rule engine would at run time.\n\nThe message gives the line and column inside the expression; fix the expression (see docs/rules.md)."},
	{ID: "schema", Severity: diag.Error, Summary: "A value does not match charter's schema.",
		Doc: "A field has a value of the wrong type, out of range, or in conflict with another declaration of the same field (in another file, or in charter's standard library).\n\nThe message names the field, the value, what the schema wants and where the conflicting value is; change the value."},
	{ID: "skill", Severity: diag.Error, Summary: "An agent lists a skill twice.",
		Doc: "A skill id appears twice in one tier of an agent's skills, or in both its primary and secondary skills.\n\nKeep each skill once, in one tier."},
	{ID: "slug", Severity: diag.Error, Summary: "A declaration's name cannot be a file name in the bundle.",
		Doc: "Agents, agent types and other declarations whose names become file names in the bundle must be slugs: lower-case letters, digits, '-' and '_', starting with a letter or digit.\n\nRename the declaration."},
	{ID: "symlink", Severity: diag.Warning, Summary: "A symbolic link under the config root is not followed.",
		Doc: "charter reads only regular files, so that a repository means the same on every machine; a symbolic link to a .cue file or a directory is skipped (an error when the link is broken or leaves the config root).\n\nReplace the link by the file or directory it points to."},
	{ID: "syntax", Severity: diag.Error, Summary: "A file is not valid CUE.",
		Doc: "A .cue file does not parse, or holds a bare value at its top level where charter expects fields.\n\nFix the syntax at the position given; `charter fmt` shows the file as CUE reads it."},
	{ID: "unknown-category", Severity: diag.Error, Summary: "A behavior names a category that does not exist.",
		Doc: "A behavior block names a category that neither the standard library nor the repository declares.\n\nThe message names the closest category; fix the name, or declare the category."},
	{ID: "unknown-field", Severity: diag.Error, Summary: "A field is not part of charter's schema.",
		Doc: "A declaration holds a field charter's schema does not define, usually a typo.\n\nThe message names the closest field; rename it, or remove it."},
	{ID: "unknown-option", Severity: diag.Error, Summary: "A behavior setting is given an option that does not exist.",
		Doc: "A setting of a behavior category takes one of its declared options, and the value given is none of them.\n\nThe message lists the valid options and the closest one."},
	{ID: "unknown-param", Severity: diag.Error, Summary: "A behavior is given a parameter its type does not declare.",
		Doc: "A composable behavior passes a parameter that its behavior type does not declare.\n\nThe message names the type's parameters and the closest one."},
	{ID: "unknown-setting", Severity: diag.Error, Summary: "A behavior names a setting its category does not have.",
		Doc: "A behavior block sets a field that the category does not declare.\n\nThe message names the category's settings and the closest one."},
}
