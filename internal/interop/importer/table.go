package importer

import (
	"strconv"
	"strings"
)

// A mapping says where one source key goes: the whole of the import
// formats' knowledge of charter's fields is in their tables, so that a
// field charter gains is one line here.
type mapping struct {
	// src is the key's path in the source: keys separated by dots, "*"
	// for any key, "[]" for every item of a list.
	src string
	// to is where the value goes:
	//   "scope:a.b"  field a.b of a declaration the format made (agent,
	//                type, profile, preset)
	//   ".a"         field a beside where the parent's keys go
	//   "."          the map's keys go where the parent's keys go
	//   descend      nowhere itself; its keys are looked up in the table
	//   used         read by the format's code (ids, names)
	//   derived      computed by charter from other declarations; checked
	//   outside      what build records beside the agent, outside its
	//                content hash (its version, where its fields are
	//                declared): neither written nor compared
	//   ""           not carried over; why says why
	// A key with no mapping goes, under the same name, where its parent's
	// keys go; at the top, or below a descend, it is not carried.
	to  string
	why string
	// conv reshapes the value before it is written (a toggle into
	// {enabled: ...}, a list into a map).
	conv func(*Node) *Node
}

const (
	descend = "=descend"
	used    = "=used"
	derived = "=derived"
	outside = "=outside"
)

// Entry is one source key the report names.
type Entry struct {
	Path string
	Pos  Pos
	Why  string
}

// walker copies a source tree into declarations by a table.
type walker struct {
	table []mapping
	// scopes are the bodies of the declarations being written, by the
	// name the table's targets use.
	scopes map[string]*Node
	res    *Result
}

func (w *walker) lookup(p Path) (mapping, bool) {
	for _, m := range w.table {
		if match(m.src, p) {
			return m, true
		}
	}
	return mapping{}, false
}

func match(pattern string, p Path) bool {
	segs := strings.Split(pattern, ".")
	if len(segs) != len(p) {
		return false
	}
	for i, s := range segs {
		switch {
		case s == "*":
		case s == "[]":
			if !strings.HasPrefix(p[i], "[") {
				return false
			}
		case s != p[i]:
			return false
		}
	}
	return true
}

// walk copies the keys of the map n, at path, by the table; out is where
// keys without a mapping go (nil: they are not carried).
func (w *walker) walk(n *Node, path Path, out *Node) {
	for _, f := range n.Fields {
		p := path.key(f.Key)
		m, ok := w.lookup(p)
		switch {
		case !ok && out == nil:
			w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, "not a key of this format charter knows"})
		case !ok:
			w.put(out, f.Key, f.Value, p, f.KeyPos)
		case m.to == "":
			w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, m.why})
		case m.to == used, m.to == outside:
		case m.to == derived:
			w.res.Derived = append(w.res.Derived, Entry{p.String(), f.KeyPos, m.why})
		case m.to == descend:
			if f.Value.Kind == Map {
				w.walk(f.Value, p, nil)
			} else if f.Value.Kind != Null {
				w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, "expected a map here, found a " + f.Value.Kind.String()})
			}
		case m.to == ".":
			if f.Value.Kind == Map && out != nil {
				w.walk(f.Value, p, out)
			} else if f.Value.Kind != Null {
				w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, "expected a map here, found a " + f.Value.Kind.String()})
			}
		default:
			v := f.Value
			if m.conv != nil && v.Kind != Null {
				v = m.conv(v)
			}
			if rel, ok := strings.CutPrefix(m.to, "."); ok {
				if out == nil {
					w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, "nothing to put it in"})
					continue
				}
				w.putPath(out, rel, v, p, f.KeyPos)
				continue
			}
			scope, rel, _ := strings.Cut(m.to, ":")
			body := w.scopes[scope]
			if body == nil {
				w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, "nothing to put it in"})
				continue
			}
			if rel == "" {
				// The map's keys go into the declaration itself.
				if v.Kind == Map {
					w.walk(v, p, body)
				} else if v.Kind != Null {
					w.res.NotCarried = append(w.res.NotCarried, Entry{p.String(), f.KeyPos, "expected a map here, found a " + v.Kind.String()})
				}
				continue
			}
			w.putPath(body, rel, v, p, f.KeyPos)
		}
	}
}

// putPath puts v at the dotted path rel below out, making the maps on the
// way.
func (w *walker) putPath(out *Node, rel string, v *Node, p Path, kpos Pos) {
	keys := strings.Split(rel, ".")
	for _, k := range keys[:len(keys)-1] {
		out = child(out, k)
	}
	w.put(out, keys[len(keys)-1], v, p, kpos)
}

// put writes v as field key of out: a map key by key (by the table), a
// list item by item, null not at all (it means unset in every format).
func (w *walker) put(out *Node, key string, v *Node, p Path, kpos Pos) {
	switch v.Kind {
	case Null:
		w.res.Unset = append(w.res.Unset, Entry{p.String(), kpos, "null: left unset"})
	case Map:
		w.walk(v, p, child(out, key))
	case List:
		out.Fields = append(out.Fields, &Field{Key: key, Value: w.list(v, p)})
	default:
		out.Fields = append(out.Fields, &Field{Key: key, Value: v})
	}
}

func (w *walker) list(v *Node, p Path) *Node {
	l := &Node{Kind: List, Pos: v.Pos}
	for i, item := range v.Items {
		switch item.Kind {
		case Map:
			m := &Node{Kind: Map, Pos: item.Pos}
			w.walk(item, p.index(i), m)
			l.Items = append(l.Items, m)
		case List:
			l.Items = append(l.Items, w.list(item, p.index(i)))
		default:
			l.Items = append(l.Items, item)
		}
	}
	return l
}

// child returns the map field key of out, adding it when missing.
func child(out *Node, key string) *Node {
	for _, f := range out.Fields {
		if f.Key == key && f.Value.Kind == Map {
			return f.Value
		}
	}
	m := &Node{Kind: Map}
	out.Fields = append(out.Fields, &Field{Key: key, Value: m})
	return m
}

// str is a string node, for values the import writes itself.
func quote(s string) string { return strconv.Quote(s) }

func str(s string) *Node { return &Node{Kind: String, Text: s} }

// set sets key of map out to v, replacing a value the import wrote.
func set(out *Node, key string, v *Node) {
	for _, f := range out.Fields {
		if f.Key == key {
			f.Value = v
			return
		}
	}
	out.Fields = append(out.Fields, &Field{Key: key, Value: v})
}
