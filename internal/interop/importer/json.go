package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SyntaxError is a source file that does not parse, at the parser's
// position.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// positions turns byte offsets of src into lines and columns.
type positions struct {
	src   []byte
	lines []int // offset of each line's first byte
}

func newPositions(src []byte) *positions {
	p := &positions{src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

func (p *positions) at(off int) Pos {
	off = min(max(off, 0), len(p.src))
	lo, hi := 0, len(p.lines)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if p.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{Line: lo + 1, Col: utf8.RuneCount(p.src[p.lines[lo]:off]) + 1}
}

// parseJSON parses one JSON value with the position of every value and key.
// Duplicate keys are an error, as they are in YAML: which one a consumer
// keeps differs from program to program.
func parseJSON(src []byte) (*Node, error) {
	pp := newPositions(src)
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	// start is where the next token begins: InputOffset is just past the
	// previous one, before blanks, commas and colons.
	start := func() int {
		off := int(dec.InputOffset())
		for off < len(src) {
			switch src[off] {
			case ' ', '\t', '\r', '\n', ',', ':':
				off++
				continue
			}
			break
		}
		return off
	}
	fail := func(err error) error {
		// The decoder's offsets lag behind its reading; the whole-input
		// scanner of Unmarshal says exactly which byte is wrong: the one
		// before Offset.
		var v any
		var se *json.SyntaxError
		if uerr := json.Unmarshal(src, &v); errors.As(uerr, &se) {
			off := int(se.Offset)
			if off > 0 && off <= len(src) && !strings.HasPrefix(se.Error(), "unexpected end") {
				off--
			}
			return &SyntaxError{Pos: pp.at(off), Msg: se.Error()}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return &SyntaxError{Pos: pp.at(len(src)), Msg: "unexpected end of JSON input"}
		}
		return &SyntaxError{Pos: pp.at(int(dec.InputOffset())), Msg: err.Error()}
	}
	var value func(depth int) (*Node, error)
	value = func(depth int) (*Node, error) {
		pos := pp.at(start())
		if depth > maxDepth {
			return nil, &SyntaxError{Pos: pos, Msg: fmt.Sprintf("nested deeper than %d levels", maxDepth)}
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' {
				n := &Node{Kind: List, Pos: pos}
				for dec.More() {
					item, err := value(depth + 1)
					if err != nil {
						return nil, err
					}
					n.Items = append(n.Items, item)
				}
				if _, err := dec.Token(); err != nil {
					return nil, fail(err)
				}
				return n, nil
			}
			n := &Node{Kind: Map, Pos: pos}
			seen := map[string]Pos{}
			for dec.More() {
				kpos := pp.at(start())
				k, err := dec.Token()
				if err != nil {
					return nil, fail(err)
				}
				key, _ := k.(string)
				if first, dup := seen[key]; dup {
					return nil, &SyntaxError{Pos: kpos, Msg: fmt.Sprintf("duplicate key %q (first at %s); keep one of them", key, first)}
				}
				seen[key] = kpos
				v, err := value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Fields = append(n.Fields, &Field{Key: key, KeyPos: kpos, Value: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, fail(err)
			}
			return n, nil
		case string:
			return &Node{Kind: String, Pos: pos, Text: t}, nil
		case json.Number:
			if err := finite(t.String()); err != nil {
				return nil, &SyntaxError{Pos: pos, Msg: err.Error()}
			}
			return &Node{Kind: Number, Pos: pos, Text: t.String()}, nil
		case bool:
			return &Node{Kind: Bool, Pos: pos, Text: fmt.Sprint(t)}, nil
		case nil:
			return &Node{Kind: Null, Pos: pos}, nil
		}
		return nil, &SyntaxError{Pos: pos, Msg: fmt.Sprintf("unexpected %v", tok)}
	}
	n, err := value(0)
	if err != nil {
		return nil, err
	}
	off := int(dec.InputOffset())
	for off < len(src) && (src[off] == ' ' || src[off] == '\t' || src[off] == '\r' || src[off] == '\n') {
		off++
	}
	if off < len(src) {
		return nil, &SyntaxError{Pos: pp.at(off), Msg: "more after the end of the JSON value: a file holds one value"}
	}
	return n, nil
}

// finite checks that a number literal is one every consumer of the result
// (JSON, the bundle's agent.json) can hold: within float64's range.
func finite(lit string) error {
	if _, err := strconv.ParseFloat(lit, 64); err != nil {
		return fmt.Errorf("number %s is out of range: write one between -1.8e308 and 1.8e308", lit)
	}
	return nil
}
