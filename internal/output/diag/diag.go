// Package diag holds charter's diagnostics: what is wrong, where, and under
// which rule. Validation, lint and every output format share this one type.
package diag

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Severity orders how much a diagnostic matters.
type Severity int

// Severities, from least to most severe.
const (
	Info Severity = iota
	Warning
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// ParseSeverity parses "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return Info, fmt.Errorf("unknown severity %q; valid severities: error, warning, info", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// Diagnostic is one finding at one place.
type Diagnostic struct {
	// File is relative to the config root, slash-separated; empty when the
	// finding has no place in a file.
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	// Rule is the lint rule id, or the validation check that failed.
	Rule    string `json:"rule"`
	Message string `json:"message"`
	// Path is the CUE field path in dot notation, e.g. agents.sarah.model.
	Path string `json:"path"`
	// Suggestion is the closest valid name when the message says "did you
	// mean": it replaces the name (a value or a field's label) that starts
	// at Line:Column. Editors offer it as a fix; the formats leave it out,
	// since the message already says it.
	Suggestion string `json:"-"`
}

// String formats d as file:line:col: severity: [rule] message, with the
// control characters of the file name and the message but the message's
// line feeds made visible (Escape).
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(Escape(d.File, ""))
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	if d.Rule != "" {
		fmt.Fprintf(&b, "[%s] ", Escape(d.Rule, ""))
	}
	b.WriteString(Escape(d.Message, ""))
	return b.String()
}

// Compare orders diagnostics by file, line, column, then rule, path and message.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Message, b.Message),
	)
}

// Sort sorts ds in place by Compare and drops exact duplicates.
func Sort(ds []Diagnostic) []Diagnostic {
	slices.SortFunc(ds, Compare)
	return slices.Compact(ds)
}

// Max returns the highest severity in ds, and false when ds is empty.
func Max(ds []Diagnostic) (Severity, bool) {
	if len(ds) == 0 {
		return Info, false
	}
	m := Info
	for _, d := range ds {
		m = max(m, d.Severity)
	}
	return m, true
}

// RuleInfo describes a rule for output formats that carry rule metadata
// (SARIF) and for documentation.
type RuleInfo struct {
	ID       string
	Severity Severity
	// Summary is one line.
	Summary string
	// Doc is the full documentation in Markdown.
	Doc string
}

// JSON encodes ds as an indented JSON array (never null).
func JSON(ds []Diagnostic) ([]byte, error) {
	if ds == nil {
		ds = []Diagnostic{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // messages hold "a -> b", not HTML
	enc.SetIndent("", "  ")
	if err := enc.Encode(ds); err != nil {
		return nil, err
	}
	return EscapeJSON(b.Bytes()), nil
}
