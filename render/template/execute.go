package template

import "strings"

// Lookup returns the value of the placeholder name, and false when it has
// none. A nil Lookup knows no names. Execute and Substitute call it once for
// each use of a placeholder, in order of position.
type Lookup func(name string) (value string, ok bool)

// Map returns a Lookup that knows the names in m.
func Map(m map[string]string) Lookup {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

func (l Lookup) get(name string) (string, bool) {
	if l == nil {
		return "", false
	}
	return l(name)
}

// Execute renders t: it replaces every placeholder by its value from lookup
// and turns "{{" and "}}" into "{" and "}". Values are copied verbatim and
// never parsed. When lookup does not know some placeholders, Execute returns
// "" and an [ErrorList] with one error at each of them.
//
// To render for display with unknown placeholders left in place, use a
// lookup that returns "{"+name+"}" for them; the result is then plain text in
// which a kept placeholder and a literal "{name}" look alike.
func (t *Template) Execute(lookup Lookup) (string, error) {
	var (
		b    strings.Builder
		errs ErrorList
	)
	b.Grow(len(t.src))
	for _, s := range t.segs {
		if s.name == "" {
			b.WriteString(s.text)
			continue
		}
		v, ok := lookup.get(s.name)
		if !ok {
			errs = append(errs, &Error{Pos: s.pos, Msg: "no value for placeholder {" + s.name + "}"})
			continue
		}
		if errs == nil {
			b.WriteString(v)
		}
	}
	if errs != nil {
		return "", errs
	}
	return b.String(), nil
}

// Substitute returns a template in which every placeholder lookup knows is
// replaced by its value, taken as literal text, and every other placeholder
// is kept. Its [Template.String] is valid template text: literal braces stay
// "{{" and "}}", braces in values become "{{" and "}}", and kept
// placeholders are written {name}. Positions of the kept placeholders are
// positions in that text.
//
// For any lookups a and b, t.Substitute(a).Execute(b) equals t.Execute(c)
// where c asks a first and then b. When lookup knows none of t's
// placeholders, Substitute returns t itself.
func (t *Template) Substitute(lookup Lookup) *Template {
	if lookup == nil {
		return t
	}
	var (
		b       strings.Builder
		segs    = make([]segment, 0, len(t.segs))
		changed = false
	)
	b.Grow(len(t.src))
	for _, s := range t.segs {
		if s.name == "" {
			writeEscaped(&b, s.text)
			segs = append(segs, s)
			continue
		}
		if v, ok := lookup.get(s.name); ok {
			changed = true
			writeEscaped(&b, v)
			if v != "" {
				segs = append(segs, segment{text: v})
			}
			continue
		}
		s.pos = Pos{Offset: b.Len()} // line and column below
		b.WriteByte('{')
		b.WriteString(s.name)
		b.WriteByte('}')
		segs = append(segs, s)
	}
	if !changed {
		return t
	}
	src := b.String()
	lc := newLineCounter(src)
	for i := range segs {
		if segs[i].name != "" {
			segs[i].pos = lc.pos(segs[i].pos.Offset)
		}
	}
	return &Template{src: src, segs: segs}
}

// Escape returns s as template text that renders as s: every "{" is doubled
// and every "}" is doubled. It works on any bytes, valid UTF-8 or not.
func Escape(s string) string {
	if strings.IndexByte(s, '{') < 0 && strings.IndexByte(s, '}') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	writeEscaped(&b, s)
	return b.String()
}

func writeEscaped(b *strings.Builder, s string) {
	f := braceFinder{src: s, open: -1, close: -1}
	for i := 0; ; {
		j := f.from(i)
		if j == len(s) {
			b.WriteString(s[i:])
			return
		}
		b.WriteString(s[i : j+1])
		b.WriteByte(s[j])
		i = j + 1
	}
}
