package template

import "strings"

// Error is one problem in a template, or one placeholder that
// [Template.Execute] had no value for.
type Error struct {
	// Pos is the position of the "{" that starts the placeholder, or of a
	// stray "}".
	Pos Pos
	// Msg says what is wrong and how to fix it.
	Msg string
}

// Error formats e as "line:column: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every error found, in order of position. Functions of this
// package that fail return a non-empty ErrorList as their error.
type ErrorList []*Error

// Error returns the errors one per line.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors, for [errors.As] and [errors.Is].
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
