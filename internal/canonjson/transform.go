package canonjson

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting transform accepts, so that no input can
// exhaust the stack: encoding/json's own limit.
const maxDepth = 10000

// transform appends the RFC 8785 form of the JSON text src to dst, without
// building values: the bundle's encoder for what encoding/json has already
// written. It equals decoding src (as encoding/json does, with UseNumber)
// and encoding the result as RFC 8785 says; in particular, of two members
// with the same key the last is kept, and invalid UTF-8 or a lone
// surrogate escape reads as U+FFFD.
func transform(dst, src []byte) ([]byte, error) {
	if dst == nil {
		dst = make([]byte, 0, len(src))
	}
	t := &transformer{src: src, out: dst}
	t.space()
	if err := t.value(0); err != nil {
		return nil, err
	}
	t.space()
	if t.pos != len(src) {
		return nil, t.errorf("text after the JSON value")
	}
	return t.out, nil
}

// A transformer writes everything into out, in input order, and reorders
// an object's members in place when they are not in order already (as
// encoding/json writes maps, they usually are).
type transformer struct {
	src []byte
	pos int
	out []byte

	members []member // a stack: each open object's members
	tmp     []byte   // for reordering
}

// member is one member of an object being written: its key, and where
// "key":value is in out.
type member struct {
	key        string
	start, end int
}

func (t *transformer) errorf(format string, args ...any) error {
	return fmt.Errorf("JSON at offset %d: %s", t.pos, fmt.Sprintf(format, args...))
}

func (t *transformer) space() {
	for t.pos < len(t.src) {
		switch t.src[t.pos] {
		case ' ', '\t', '\n', '\r':
			t.pos++
		default:
			return
		}
	}
}

func (t *transformer) value(depth int) error {
	if t.pos >= len(t.src) {
		return t.errorf("unexpected end")
	}
	switch c := t.src[t.pos]; {
	case (c == '{' || c == '[') && depth >= maxDepth:
		return t.errorf("nested more than %d deep", maxDepth)
	case c == '{':
		return t.object(depth)
	case c == '[':
		return t.array(depth)
	case c == '"':
		if end, ok := t.plainString(); ok {
			t.out = append(t.out, t.src[t.pos:end]...)
			t.pos = end
			return nil
		}
		_, err := t.string()
		return err
	case c == 't':
		return t.literal("true")
	case c == 'f':
		return t.literal("false")
	case c == 'n':
		return t.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return t.number()
	default:
		return t.errorf("unexpected %q", c)
	}
}

func (t *transformer) literal(word string) error {
	if len(t.src)-t.pos < len(word) || string(t.src[t.pos:t.pos+len(word)]) != word {
		return t.errorf("invalid literal")
	}
	t.pos += len(word)
	t.out = append(t.out, word...)
	return nil
}

// number checks the JSON number grammar and writes the number as
// ECMAScript does.
func (t *transformer) number() error {
	start := t.pos
	digits := func() int {
		n := 0
		for t.pos < len(t.src) && '0' <= t.src[t.pos] && t.src[t.pos] <= '9' {
			t.pos++
			n++
		}
		return n
	}
	if t.src[t.pos] == '-' {
		t.pos++
	}
	if t.pos < len(t.src) && t.src[t.pos] == '0' {
		t.pos++
	} else if digits() == 0 {
		return t.errorf("invalid number")
	}
	if t.pos < len(t.src) && t.src[t.pos] == '.' {
		t.pos++
		if digits() == 0 {
			return t.errorf("invalid number")
		}
	}
	if t.pos < len(t.src) && (t.src[t.pos] == 'e' || t.src[t.pos] == 'E') {
		t.pos++
		if t.pos < len(t.src) && (t.src[t.pos] == '+' || t.src[t.pos] == '-') {
			t.pos++
		}
		if digits() == 0 {
			return t.errorf("invalid number")
		}
	}
	f, err := strconv.ParseFloat(string(t.src[start:t.pos]), 64)
	if err != nil {
		return fmt.Errorf("number %s: %v", t.src[start:t.pos], err)
	}
	t.out, err = appendNumber(t.out, f)
	return err
}

func (t *transformer) array(depth int) error {
	t.pos++ // [
	t.out = append(t.out, '[')
	t.space()
	if t.pos < len(t.src) && t.src[t.pos] == ']' {
		t.pos++
		t.out = append(t.out, ']')
		return nil
	}
	for {
		if err := t.value(depth + 1); err != nil {
			return err
		}
		t.space()
		if t.pos >= len(t.src) {
			return t.errorf("unexpected end in an array")
		}
		switch t.src[t.pos] {
		case ',':
			t.pos++
			t.out = append(t.out, ',')
			t.space()
		case ']':
			t.pos++
			t.out = append(t.out, ']')
			return nil
		default:
			return t.errorf("expected , or ] in an array")
		}
	}
}

// object writes an object's members as they come, then puts them in
// RFC 8785 order (keeping the last of equal keys) unless they are in it.
func (t *transformer) object(depth int) error {
	t.pos++ // {
	t.out = append(t.out, '{')
	t.space()
	if t.pos < len(t.src) && t.src[t.pos] == '}' {
		t.pos++
		t.out = append(t.out, '}')
		return nil
	}
	body := len(t.out)
	base := len(t.members)
	defer func() { t.members = t.members[:base] }()
	for {
		if t.pos >= len(t.src) || t.src[t.pos] != '"' {
			return t.errorf("expected a member name")
		}
		if len(t.members) > base {
			t.out = append(t.out, ',')
		}
		start := len(t.out)
		key, err := t.string()
		if err != nil {
			return err
		}
		t.space()
		if t.pos >= len(t.src) || t.src[t.pos] != ':' {
			return t.errorf("expected : after a member name")
		}
		t.pos++
		t.out = append(t.out, ':')
		t.space()
		if err := t.value(depth + 1); err != nil {
			return err
		}
		t.members = append(t.members, member{key, start, len(t.out)})
		t.space()
		if t.pos >= len(t.src) {
			return t.errorf("unexpected end in an object")
		}
		if t.src[t.pos] == '}' {
			t.pos++
			break
		}
		if t.src[t.pos] != ',' {
			return t.errorf("expected , or } in an object")
		}
		t.pos++
		t.space()
	}
	ms := t.members[base:]
	ordered := true
	for i := 1; i < len(ms) && ordered; i++ {
		ordered = compareUTF16(ms[i-1].key, ms[i].key) < 0
	}
	if !ordered {
		t.reorder(body, ms)
	}
	t.out = append(t.out, '}')
	return nil
}

// reorder rewrites out[body:] as the members ms in RFC 8785 order,
// dropping all but the last of equal keys.
func (t *transformer) reorder(body int, ms []member) {
	t.tmp = append(t.tmp[:0], t.out[body:]...)
	for i := range ms {
		ms[i].start -= body
		ms[i].end -= body
	}
	// Stable, so that of equal keys the last written is the last here.
	slices.SortStableFunc(ms, func(a, b member) int { return compareUTF16(a.key, b.key) })
	t.out = t.out[:body]
	first := true
	for i, m := range ms {
		if i+1 < len(ms) && ms[i+1].key == m.key {
			continue
		}
		if !first {
			t.out = append(t.out, ',')
		}
		first = false
		t.out = append(t.out, t.tmp[m.start:m.end]...)
	}
}

// plainString reports whether the string at pos is written the same in
// RFC 8785 form (no escapes, valid UTF-8), and where it ends.
func (t *transformer) plainString() (end int, ok bool) {
	ascii := true
	for i := t.pos + 1; i < len(t.src); i++ {
		switch c := t.src[i]; {
		case c == '"':
			return i + 1, ascii || utf8.Valid(t.src[t.pos+1:i])
		case c == '\\' || c < 0x20:
			return 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return 0, false
}

// string reads a string, writes it in RFC 8785 form, and returns its
// value.
func (t *transformer) string() (string, error) {
	start := t.pos
	s, err := t.str()
	if err != nil {
		return "", err
	}
	if raw := t.src[start:t.pos]; len(raw) == len(s)+2 && string(raw[1:len(raw)-1]) == s {
		t.out = append(t.out, raw...) // no escapes, valid UTF-8: as it is
	} else {
		t.out = appendString(t.out, s)
	}
	return s, nil
}

// str reads a string and returns its value. Invalid UTF-8 and lone
// surrogates become U+FFFD, as encoding/json decodes them.
func (t *transformer) str() (string, error) {
	t.pos++ // "
	start := t.pos
	for t.pos < len(t.src) {
		switch c := t.src[t.pos]; {
		case c == '"':
			s := t.src[start:t.pos]
			t.pos++
			return validString(s), nil
		case c == '\\':
			return t.escaped(start)
		case c < 0x20:
			return "", t.errorf("control character in a string")
		default:
			t.pos++
		}
	}
	return "", t.errorf("unterminated string")
}

var errBadEscape = errors.New("invalid escape in a string")

// escaped reads the rest of a string that has an escape; the string began
// at start.
func (t *transformer) escaped(start int) (string, error) {
	b := []byte(string(t.src[start:t.pos]))
	for t.pos < len(t.src) {
		c := t.src[t.pos]
		switch {
		case c == '"':
			t.pos++
			return validString(b), nil
		case c < 0x20:
			return "", t.errorf("control character in a string")
		case c != '\\':
			b = append(b, c)
			t.pos++
			continue
		}
		if t.pos+1 >= len(t.src) {
			return "", t.errorf("unterminated string")
		}
		t.pos += 2
		switch e := t.src[t.pos-1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := t.hex4()
			if !ok {
				return "", t.errorf("%v", errBadEscape)
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if save := t.pos; t.pos+1 < len(t.src) && t.src[t.pos] == '\\' && t.src[t.pos+1] == 'u' {
					t.pos += 2
					if r2, ok = t.hex4(); !ok {
						return "", t.errorf("%v", errBadEscape)
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						t.pos = save // the second escape stands on its own
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", t.errorf("%v", errBadEscape)
		}
	}
	return "", t.errorf("unterminated string")
}

func (t *transformer) hex4() (rune, bool) {
	if len(t.src)-t.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range t.src[t.pos : t.pos+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	t.pos += 4
	return r, true
}

// validString returns b as a string with each byte of invalid UTF-8
// replaced by U+FFFD, as encoding/json decodes it (so that two keys that
// decode the same are the same key).
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		out = utf8.AppendRune(out, r)
		b = b[size:]
	}
	return string(out)
}

// indent indents compact JSON (transform's output) by two spaces, as
// json.Indent does, and ends it in a newline.
func indent(compact []byte) []byte {
	out := make([]byte, 0, len(compact)+len(compact)/2)
	depth := 0
	newline := func() {
		out = append(out, '\n')
		for range depth {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(compact); i++ {
		switch c := compact[i]; c {
		case '"':
			end := stringEnd(compact, i)
			out = append(out, compact[i:end]...)
			i = end - 1
		case '{', '[':
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				out = append(out, c, compact[i+1])
				i++
				continue
			}
			out = append(out, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, ':', ' ')
		default:
			out = append(out, c)
		}
	}
	return append(out, '\n')
}

// stringEnd returns the index just past the string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// insertMember returns the canonical object obj with the member key: value
// (value in canonical form) added at its place in RFC 8785 order. obj
// must not have key already.
func insertMember(obj []byte, key string, value []byte) []byte {
	member := appendString(nil, key)
	member = append(member, ':')
	member = append(member, value...)
	at, comma := len(obj)-1, len(obj) > 2 // before the closing }, after the last member
	for i := 1; i < len(obj)-1; {
		t := &transformer{src: obj, pos: i}
		k, err := t.str()
		if err != nil {
			break // not canonical; append at the end
		}
		if compareUTF16(key, k) < 0 {
			at, comma = i, false
			member = append(member, ',')
			break
		}
		i = memberEnd(obj, t.pos+1) + 1 // past the comma
	}
	out := make([]byte, 0, len(obj)+len(member)+1)
	out = append(out, obj[:at]...)
	if comma {
		out = append(out, ',')
	}
	out = append(out, member...)
	return append(out, obj[at:]...)
}

// memberEnd returns the index of the comma or closing brace that ends the
// value starting at b[i], in compact JSON.
func memberEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(b)
}
