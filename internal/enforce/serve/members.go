package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// checkMembers refuses a JSON text with an object that holds a member
// twice, by its name or by names that differ only in case (as
// encoding/json matches a struct's fields: "Context" is context, and the
// long s of "ſession" an s). encoding/json keeps the last of two; a
// gateway or a log reader in front of charter may keep the first, so
// what it checked or recorded would not be what charter judged. b is
// JSON that decoded; on anything else the walk ends, leaving the refusal
// to the decoder.
func checkMembers(b []byte) error {
	c := memberChecker{b: b}
	c.value()
	return c.err
}

type memberChecker struct {
	b   []byte
	i   int
	err error
}

// smallObject is how many members an object may hold before its names
// are compared through a map rather than each with each.
const smallObject = 16

func (c *memberChecker) space() {
	for c.i < len(c.b) && (c.b[c.i] == ' ' || c.b[c.i] == '\t' || c.b[c.i] == '\n' || c.b[c.i] == '\r') {
		c.i++
	}
}

func (c *memberChecker) value() {
	c.space()
	if c.err != nil || c.i >= len(c.b) {
		return
	}
	switch c.b[c.i] {
	case '{':
		c.object()
	case '[':
		c.i++
		for c.err == nil {
			c.space()
			if c.i >= len(c.b) || c.b[c.i] == ']' {
				c.i++
				return
			}
			c.value()
			c.space()
			if c.i < len(c.b) && c.b[c.i] == ',' {
				c.i++
			}
		}
	case '"':
		c.str()
	default:
		// A number or a literal; at least one byte, so that text that is
		// not JSON ends the walk rather than stalling it.
		for c.i++; c.i < len(c.b) && !strings.ContainsRune(",]} \t\n\r", rune(c.b[c.i])); c.i++ {
		}
	}
}

// str skips a string and returns its raw bytes, quotes left out.
func (c *memberChecker) str() []byte {
	start := c.i + 1
	for c.i++; c.i < len(c.b); c.i++ {
		switch c.b[c.i] {
		case '\\':
			c.i++
		case '"':
			c.i++
			return c.b[start : c.i-1]
		}
	}
	return c.b[start:]
}

func (c *memberChecker) object() {
	c.i++
	var small [smallObject + 1][]byte
	names := small[:0]
	var folded map[string]string
	for c.err == nil {
		c.space()
		if c.i >= len(c.b) || c.b[c.i] == '}' {
			c.i++
			return
		}
		if c.b[c.i] != '"' {
			return
		}
		name := c.str()
		if bytes.IndexByte(name, '\\') >= 0 {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &s) == nil {
				name = []byte(s)
			}
		}
		if folded == nil {
			for _, n := range names {
				if bytes.EqualFold(n, name) {
					c.err = twice(n, name)
					return
				}
			}
			names = append(names, name)
			if len(names) > smallObject {
				folded = make(map[string]string, 2*len(names))
				for _, n := range names {
					folded[foldKey(n)] = string(n)
				}
			}
		} else {
			k := foldKey(name)
			if n, ok := folded[k]; ok {
				c.err = twice([]byte(n), name)
				return
			}
			folded[k] = string(name)
		}
		c.space()
		if c.i < len(c.b) && c.b[c.i] == ':' {
			c.i++
		}
		c.value()
		c.space()
		if c.i < len(c.b) && c.b[c.i] == ',' {
			c.i++
		}
	}
}

// foldKey is a name with its case folded as bytes.EqualFold compares.
func foldKey(n []byte) string {
	return strings.ToLower(strings.ToUpper(string(n)))
}

func twice(a, b []byte) error {
	show := func(n []byte) string {
		s := string(n)
		if len(s) > 64 {
			s = s[:64] + "..."
		}
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		return fmt.Sprintf("%q", s)
	}
	if bytes.Equal(a, b) {
		return bad("the member %s is given twice in one object: give each member once", show(a))
	}
	return bad("the members %s and %s are one member given twice (names differ only in case, which charter's JSON reader ignores): give each member once", show(a), show(b))
}
