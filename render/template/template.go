package template

import (
	"strings"
)

// Template is a parsed template. The zero Template is the empty template.
type Template struct {
	src  string
	segs []segment
}

// segment is literal text (name == "") or a placeholder. Literal text is held
// unescaped; adjacent literal segments are allowed.
type segment struct {
	text string
	name string
	pos  Pos
}

// Placeholder is one use of a placeholder in a template.
type Placeholder struct {
	// Name is the text between the braces, e.g. "user_name" or "agent.name".
	Name string
	// Pos is the position of the opening "{".
	Pos Pos
}

// Parse parses src. On failure it returns a nil Template and an [ErrorList]
// holding every error in src.
func Parse(src string) (*Template, error) {
	var (
		// A guess: most "{" start a placeholder and the text after it.
		segs = make([]segment, 0, 2*strings.Count(src, "{")+1)
		next = braceFinder{src: src, open: -1, close: -1}
		errs ErrorList
		lc   = newLineCounter(src)
		lit  = 0 // start of the literal text not yet in segs
	)
	flush := func(end int) {
		if end > lit {
			segs = append(segs, segment{text: src[lit:end]})
		}
	}
	for i := 0; i < len(src); {
		j := next.from(i)
		if j == len(src) {
			break
		}
		doubled := j+1 < len(src) && src[j+1] == src[j]
		switch {
		case doubled:
			// "{{" or "}}": keep the first brace, drop the second.
			flush(j + 1)
			lit = j + 2
			i = j + 2
		case src[j] == '}':
			errs = append(errs, &Error{Pos: lc.pos(j), Msg: `unexpected "}": write "}}" for a literal "}"`})
			i = j + 1
		default:
			k := strings.IndexAny(src[j+1:], "{}\n")
			if k < 0 || src[j+1+k] != '}' {
				end := len(src)
				if k >= 0 {
					end = j + 1 + k
				}
				errs = append(errs, &Error{Pos: lc.pos(j), Msg: unterminatedMsg(src[j:end])})
				i = end
				break
			}
			name := src[j+1 : j+1+k]
			if msg := checkName(name); msg != "" {
				errs = append(errs, &Error{Pos: lc.pos(j), Msg: msg})
			} else {
				flush(j)
				segs = append(segs, segment{name: name, pos: lc.pos(j)})
			}
			i = j + k + 2
			lit = i
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	flush(len(src))
	return &Template{src: src, segs: segs}, nil
}

// String returns the template's source text. For a parsed template that is
// the text given to [Parse]; for the result of [Template.Substitute] it is
// text that parses to an equivalent template.
func (t *Template) String() string { return t.src }

// Placeholders returns every placeholder in t in order of position,
// including repeated uses of the same name. The slice is the caller's.
func (t *Template) Placeholders() []Placeholder {
	var ps []Placeholder
	for _, s := range t.segs {
		if s.name != "" {
			ps = append(ps, Placeholder{Name: s.name, Pos: s.pos})
		}
	}
	return ps
}

// IsName reports whether s is a valid placeholder name.
func IsName(s string) bool { return checkName(s) == "" }

const literalHint = `; write "{{" and "}}" for literal braces`

// checkName returns "" when name is valid, else a message that says how to
// fix it.
func checkName(name string) string {
	if name == "" {
		return `empty placeholder "{}": put a name between the braces, as in {user_name}` + literalHint
	}
	bad := -1 // offset of the first byte no name may hold
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) && name[i] != '.' {
			bad = i
			break
		}
	}
	if bad < 0 {
		for part := range strings.SplitSeq(name, ".") {
			switch {
			case part == "":
				return "invalid placeholder name " + quote(name) + ": dots must separate non-empty parts, as in {agent.name}" + literalHint
			case isDigit(part[0]):
				return "invalid placeholder name " + quote(name) + ": a name (and each dotted part) must start with a letter or underscore, as in {user_name}" + literalHint
			}
		}
		return ""
	}
	if trimmed := strings.TrimSpace(name); trimmed != name && checkName(trimmed) == "" {
		return "invalid placeholder name " + quote(name) + ": remove the spaces inside the braces: {" + trimmed + "}"
	}
	what := quote(runeAt(name, bad))
	switch name[bad] {
	case ' ', '\t', '\r', '\v', '\f':
		what = "a space"
	}
	return "invalid placeholder name " + quote(name) + ": it contains " + what + "; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}" + literalHint
}

func unterminatedMsg(frag string) string {
	frag = strings.TrimSuffix(frag, "\r")
	return "unterminated placeholder " + quote(frag) + `: close it with "}" on the same line` + literalHint
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// braceFinder finds the next brace with two fast byte searches, remembering
// each result until the parser has passed it.
type braceFinder struct {
	src         string
	open, close int // offset of the next "{" and "}", or len(src); -1 at first
}

// from returns the offset of the first brace at or after i, or len(src).
func (f *braceFinder) from(i int) int {
	if f.open < i {
		f.open = indexFrom(f.src, '{', i)
	}
	if f.close < i {
		f.close = indexFrom(f.src, '}', i)
	}
	return min(f.open, f.close)
}

func indexFrom(s string, c byte, i int) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}
