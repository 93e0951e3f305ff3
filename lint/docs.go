package lint

import (
	"bytes"
	"fmt"
	"strings"
)

// Markdown returns the rule reference, docs/lint-rules.md: an index, then
// every rule's id, severity, summary and doc.
func Markdown() []byte {
	var b bytes.Buffer
	b.WriteString("# Lint rules\n\n")
	b.WriteString("<!-- Generated from the lint registry; do not edit. Regenerate with: go test ./lint -run TestDocs -update -->\n\n")
	b.WriteString("`charter lint` runs these rules after validation; `charter explain RULE` prints one of them. ")
	b.WriteString("Silence a finding with `// charter:ignore RULE reason` on its line or the line above; ")
	b.WriteString("configure the repository with `lint: {disable: [...], severity: {RULE: \"info\"}}`.\n\n")
	b.WriteString("| rule | severity | summary |\n| --- | --- | --- |\n")
	for _, r := range All() {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s |\n", r.ID, r.ID, severityNote(r), strings.ReplaceAll(r.Summary, "|", "\\|"))
	}
	for _, r := range All() {
		fmt.Fprintf(&b, "\n## %s\n\nSeverity: %s. %s.\n\n%s", r.ID, severityNote(r), upperFirst(r.Summary), strings.TrimSpace(r.Doc))
		b.WriteString("\n")
	}
	return b.Bytes()
}

func severityNote(r *Rule) string {
	s := r.Severity.String()
	switch {
	case r.Off:
		s += " (off by default)"
	case r.Kind == CompilerReported:
		s += " (compiler)"
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
