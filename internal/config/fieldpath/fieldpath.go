// Package fieldpath is the one path type of charter: where in a repository
// a value is (agents.ann.tools.denied[1]), as a list of labels, with one
// rendering. validate, compiler, lint, diff, why and the JSON path field of
// diagnostics all print paths through it, so the same value has the same
// path everywhere.
package fieldpath

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue"
)

// Path is a field path as a list of labels; a list element is the label
// "[3]" (see Index), or "[key]" where a diff matches the elements of a list
// by a key (see Key).
type Path []string

// String renders the path in dot notation, quoting labels that are not
// identifiers (agents."my agent".name); list elements attach without a dot
// (tools.denied[1]).
func (p Path) String() string {
	var b strings.Builder
	for i, l := range p {
		elem := isElement(l)
		if i > 0 && !elem {
			b.WriteByte('.')
		}
		if elem || isIdent(l) {
			b.WriteString(l)
		} else {
			b.WriteString(cue.Str(l).String())
		}
	}
	return b.String()
}

// Index returns the path label of a list index: "[3]".
func Index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// Key returns the path label of the element of a list whose elements are
// told apart by a key rather than by place: "[Read]".
func Key(k string) string { return "[" + k + "]" }

func isElement(l string) bool { return len(l) >= 2 && l[0] == '[' && l[len(l)-1] == ']' }

// IsIndex reports whether a label is a list index ("[3]").
func IsIndex(l string) bool {
	return len(l) > 2 && l[0] == '[' && l[len(l)-1] == ']' && isDigits(l[1:len(l)-1])
}

// FromCUE returns the path of the labels of a CUE error path
// (cue/errors.Error.Path): there an index is a bare number, while a struct
// label made of digits, like any label that is no identifier, is quoted.
func FromCUE(labels []string) Path {
	out := make(Path, len(labels))
	for i, l := range labels {
		switch {
		case isDigits(l):
			l = "[" + l + "]"
		case strings.HasPrefix(l, `"`):
			if u, err := strconv.Unquote(l); err == nil {
				l = u
			}
		}
		out[i] = l
	}
	return out
}

// HasIndex reports whether the path goes through a list element.
func (p Path) HasIndex() bool {
	for _, l := range p {
		if IsIndex(l) {
			return true
		}
	}
	return false
}

// Child returns p extended by labels, without aliasing p.
func (p Path) Child(labels ...string) Path {
	out := make(Path, 0, len(p)+len(labels))
	return append(append(out, p...), labels...)
}

// Selectors returns the CUE selectors of p: a list index selects the
// element, every other label the field of that name.
func (p Path) Selectors() []cue.Selector {
	sels := make([]cue.Selector, len(p))
	for i, l := range p {
		if IsIndex(l) {
			n, _ := strconv.Atoi(l[1 : len(l)-1])
			sels[i] = cue.Index(n)
		} else {
			sels[i] = cue.Str(l)
		}
	}
	return sels
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i == 0 && r == '#': // a definition, as CUE writes it
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
