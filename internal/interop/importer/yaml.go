package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// maxExpanded bounds the values that YAML aliases may expand to: a few
// lines of anchors can otherwise stand for billions of values.
const maxExpanded = 100_000

var (
	yamlLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })
	jsonNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`) })
)

// yamlReader converts a yaml.Node tree, expanding aliases and merge keys.
type yamlReader struct {
	aliases int // aliases expanded
	// expanded counts the values aliases produce (inAlias > 0): the
	// values the file writes out are bounded by its size.
	expanded int
	inAlias  int
	active   map[*yaml.Node]bool // anchors being expanded, to catch a cycle
}

// parseYAML parses one YAML document. It returns the number of aliases it
// expanded (the anchors themselves do not survive: CUE has its own
// references).
func parseYAML(src []byte) (*Node, int, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, &SyntaxError{Pos: Pos{1, 1}, Msg: "the file holds no YAML document"}
		}
		return nil, 0, yamlError(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		at := pos(&next)
		if len(next.Content) > 0 {
			at = pos(next.Content[0])
		}
		return nil, 0, &SyntaxError{Pos: at, Msg: "a second YAML document (after ---): import one document at a time"}
	case !errors.Is(err, io.EOF):
		return nil, 0, yamlError(err)
	}
	r := &yamlReader{active: map[*yaml.Node]bool{}}
	root := &doc
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, 0, &SyntaxError{Pos: Pos{1, 1}, Msg: "the file holds no YAML document"}
		}
		root = doc.Content[0]
	}
	n, err := r.node(root, 0)
	return n, r.aliases, err
}

func yamlError(err error) error {
	msg := err.Error()
	line := 1
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	// YAML's parser says the line, not the column.
	return &SyntaxError{Pos: Pos{Line: line, Col: 1}, Msg: msg}
}

func pos(y *yaml.Node) Pos { return Pos{Line: y.Line, Col: y.Column} }

func (r *yamlReader) node(y *yaml.Node, depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, &SyntaxError{Pos: pos(y), Msg: fmt.Sprintf("nested deeper than %d levels", maxDepth)}
	}
	if r.inAlias > 0 {
		r.expanded++
		if r.expanded > maxExpanded {
			return nil, &SyntaxError{Pos: pos(y), Msg: fmt.Sprintf("YAML aliases expand to more than %d values; write the values out instead", maxExpanded)}
		}
	}
	switch y.Kind {
	case yaml.AliasNode:
		if y.Alias == nil || r.active[y.Alias] {
			return nil, &SyntaxError{Pos: pos(y), Msg: fmt.Sprintf("alias *%s refers to the value that contains it", y.Value)}
		}
		r.aliases++
		r.active[y.Alias] = true
		r.inAlias++
		defer func() { delete(r.active, y.Alias); r.inAlias-- }()
		return r.node(y.Alias, depth)
	case yaml.SequenceNode:
		n := &Node{Kind: List, Pos: pos(y)}
		for _, c := range y.Content {
			item, err := r.node(c, depth+1)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, item)
		}
		return n, nil
	case yaml.MappingNode:
		return r.mapping(y, depth)
	case yaml.ScalarNode:
		return scalar(y)
	}
	return nil, &SyntaxError{Pos: pos(y), Msg: "unexpected YAML node"}
}

func (r *yamlReader) mapping(y *yaml.Node, depth int) (*Node, error) {
	n := &Node{Kind: Map, Pos: pos(y)}
	seen := map[string]Pos{}
	var merges []*Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			m, err := r.node(v, depth+1)
			if err != nil {
				return nil, err
			}
			merges = append(merges, m)
			continue
		}
		kn := k
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			kn = k.Alias
		}
		if kn.Kind != yaml.ScalarNode {
			return nil, &SyntaxError{Pos: pos(k), Msg: "a key that is a map or a list: keys must be plain scalars"}
		}
		key := kn.Value
		if first, dup := seen[key]; dup {
			return nil, &SyntaxError{Pos: pos(k), Msg: fmt.Sprintf("duplicate key %q (first at %s); keep one of them", key, first)}
		}
		seen[key] = pos(k)
		val, err := r.node(v, depth+1)
		if err != nil {
			return nil, err
		}
		n.Fields = append(n.Fields, &Field{Key: key, KeyPos: pos(k), Value: val})
	}
	// Merge keys (<<: *base) fill in what the map does not set itself;
	// the first of several merged maps wins.
	for _, m := range merges {
		srcs := []*Node{m}
		if m.Kind == List {
			srcs = m.Items
		}
		for _, s := range srcs {
			if s.Kind != Map {
				return nil, &SyntaxError{Pos: s.Pos, Msg: "a merge key (<<) takes a map or a list of maps"}
			}
			for _, f := range s.Fields {
				if _, ok := seen[f.Key]; !ok {
					seen[f.Key] = f.KeyPos
					n.Fields = append(n.Fields, f)
				}
			}
		}
	}
	return n, nil
}

func scalar(y *yaml.Node) (*Node, error) {
	p := pos(y)
	switch tag := y.ShortTag(); tag {
	case "!!str", "!!timestamp", "!!binary":
		return &Node{Kind: String, Pos: p, Text: y.Value}, nil
	case "!!null":
		return &Node{Kind: Null, Pos: p}, nil
	case "!!bool":
		var b bool
		if err := y.Decode(&b); err != nil {
			return nil, &SyntaxError{Pos: p, Msg: err.Error()}
		}
		return &Node{Kind: Bool, Pos: p, Text: strconv.FormatBool(b)}, nil
	case "!!int":
		var i int64
		if err := y.Decode(&i); err == nil {
			return &Node{Kind: Number, Pos: p, Text: strconv.FormatInt(i, 10)}, nil
		}
		if jsonNumber().MatchString(y.Value) && finite(y.Value) == nil {
			return &Node{Kind: Number, Pos: p, Text: y.Value}, nil
		}
		return nil, &SyntaxError{Pos: p, Msg: fmt.Sprintf("integer %s is out of range: write one between -1.8e308 and 1.8e308", y.Value)}
	case "!!float":
		var f float64
		if err := y.Decode(&f); err != nil {
			return nil, &SyntaxError{Pos: p, Msg: err.Error()}
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, &SyntaxError{Pos: p, Msg: fmt.Sprintf("%s is not a number CUE can hold; write a finite number", y.Value)}
		}
		if jsonNumber().MatchString(y.Value) {
			return &Node{Kind: Number, Pos: p, Text: y.Value}, nil
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return &Node{Kind: Number, Pos: p, Text: s}, nil
	default:
		return nil, &SyntaxError{Pos: p, Msg: fmt.Sprintf("YAML tag %s: charter import reads plain YAML values (strings, numbers, booleans, null, maps and lists)", tag)}
	}
}
