package importer

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of a source value.
type Kind int

// The kinds of source values. JSON and YAML both parse into them.
const (
	Null Kind = iota
	String
	Number
	Bool
	Map
	List
)

func (k Kind) String() string {
	return [...]string{"null", "string", "number", "bool", "map", "list"}[k]
}

// Pos is a place in the source file: 1-based line and column (in
// characters).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Node is one value of the source file, with where it starts.
type Node struct {
	Kind Kind
	Pos  Pos
	// Text is a string's value, a number's literal as CUE and JSON write
	// it, or "true"/"false".
	Text string
	// Fields are a map's entries in source order; keys are unique.
	Fields []*Field
	// Items are a list's elements.
	Items []*Node
}

// Field is one key of a map and its value.
type Field struct {
	Key    string
	KeyPos Pos
	Value  *Node
}

// Get returns the value of key in a map node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Map {
		return nil
	}
	for _, f := range n.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// Str returns a string node's value, or "" for any other node.
func (n *Node) Str() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Text
}

// Has reports whether a map node has every one of the keys.
func (n *Node) Has(keys ...string) bool {
	for _, k := range keys {
		if n.Get(k) == nil {
			return false
		}
	}
	return n != nil && n.Kind == Map
}

// Path is where a value sits in the source: map keys, and list indexes as
// "[i]".
type Path []string

func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		if strings.HasPrefix(s, "[") {
			b.WriteString(s)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func (p Path) key(k string) Path { return append(p[:len(p):len(p)], k) }
func (p Path) index(i int) Path  { return append(p[:len(p):len(p)], "["+strconv.Itoa(i)+"]") }

// maxDepth is the deepest nesting of maps and lists import accepts; the
// configurations of the seed formats are a handful of levels deep.
const maxDepth = 100
