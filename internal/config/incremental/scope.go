// Package incremental computes what an edit of a charter repository can
// change, from a base: the index of the last full evaluation that
// validated. The editor (internal/editor/lsp) keeps its base in memory;
// charter lint and build keep theirs on disk (internal/config/evalcache).
// Both call this package, so there is one answer to "what must be
// evaluated again".
//
// An edit of files that declare agents and nothing else (load.AgentsOnly)
// changes no other declaration, so what it can change is known from the
// base and the edited text:
//
//   - the edited files' own diagnostics;
//   - those of the files whose agents name an agent the edited files
//     declare, before or after the edit (a manager's budget, a pair's
//     compatibility, an unknown reports_to), or declare it too;
//   - those of the agents on a reporting or delegation cycle through an
//     edited agent, before or after the edit, or through an agent of
//     another file redone (a cycle in the base, which an advanced base,
//     see Graph.Advance, can hold: its finding would be lost if only
//     part of the cycle were evaluated);
//   - those of the files that declare more than agents (a flow's agent,
//     a test), which are always evaluated;
//   - the rules that judge a declaration by every agent (lint.Global: an
//     unused preset, an unreachable option), which run over the base's
//     agents with the evaluated ones in their place.
//
// These files (Plan.Redo) are evaluated with the files of the agents they
// name (Plan.Scope), through package revision and lint as charter lint
// does, and their diagnostics replace the base's; every other file keeps
// its own. An edit of any other file, or a base that did not validate,
// needs a full evaluation.
package incremental

import (
	"maps"
	"slices"
	"strconv"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
)

// Graph is what the incremental path needs of a full evaluation that
// validated: who declares and who names each agent, and the authority
// edges, for cycles. Its fields are plain data, so that it can be kept on
// disk. Plan fills a cache the first time: calls on one Graph are not
// safe at the same time.
type Graph struct {
	// Files tells, for every file the evaluation read, whether it
	// declares agents and nothing else.
	Files      map[string]bool
	Declared   map[string][]string // agents-only file -> the agents it declares
	DeclaredIn map[string][]string // agent -> the agents-only files that declare it
	Names      map[string][]string // file -> the agents (and roles) its strings name
	NamedBy    map[string][]string // agent or role -> the agents-only files whose strings name it
	Reports    map[string]string   // agent -> the agent it reports to
	Delegates  map[string][]string // agent -> can_delegate_to
	Delegators map[string][]string // agent -> the agents that can delegate to it
	// Members are the members of each role (roles.NAME.members), and
	// RolesOf the roles each agent is a member of: an authority field
	// that names a role names its members (delegation-widens).
	Members map[string][]string
	RolesOf map[string][]string
	// Package is the package every file declares (the loader gave each
	// one the clause): an edited file that declares another changes the
	// diagnostics of every file, since the first file read names it.
	Package string
	// Opaque is set when a file reads the agents by reference (agents.x.y,
	// a comprehension over agents), names agents by anything but string
	// literals (a name computed from parts, or taken from another field,
	// may be any agent's) or declares agents under labels that are not
	// plain names: who depends on whom is not in the strings, so no edit
	// is answered incrementally.
	Opaque bool
	// Naming are the top-level fields (#Lead, _boss) of the files that
	// declare more than agents and whose strings name an agent or role,
	// or that refer to such a field: an agents-only file that refers to
	// one names what its strings do not show (authority: #Lead).
	Naming map[string]bool
	// all is the set of DeclaredIn's keys, built once (Plan clones it
	// rather than walk thousands of agents per edit) and kept up to date
	// by Advance; not stored (gob skips it).
	all map[string]bool
}

// agentSet returns the agents agents-only files declare, as a set the
// caller must not change.
func (g *Graph) agentSet() map[string]bool {
	if g.all == nil {
		g.all = make(map[string]bool, len(g.DeclaredIn))
		for id := range g.DeclaredIn {
			g.all[id] = true
		}
	}
	return g.all
}

// NewGraph indexes a validated evaluation: its user files and program.
func NewGraph(files []*load.File, prog *compiler.Program) *Graph {
	g := &Graph{Files: map[string]bool{}, Declared: map[string][]string{}, DeclaredIn: map[string][]string{}, Names: map[string][]string{},
		NamedBy: map[string][]string{}, Reports: map[string]string{}, Delegates: map[string][]string{},
		Delegators: map[string][]string{}, Members: map[string][]string{}, RolesOf: map[string][]string{}}
	for _, f := range files {
		if g.Package == "" {
			g.Package = f.Syntax.PackageName()
		}
		if refersToAgents(f.Syntax) {
			g.Opaque = true
		}
		ids, ok := load.AgentsOnly(f.Syntax)
		g.Files[f.Path] = ok
		if ok {
			g.Declared[f.Path] = ids
			for _, id := range ids {
				g.DeclaredIn[id] = append(g.DeclaredIn[id], f.Path)
			}
		}
	}
	// The names an authority field may give, which an agent added later
	// may take: a reports_to that named a role names the agent then.
	who := map[string]bool{}
	for id := range prog.Config.Agents {
		who[id] = true
	}
	for name, r := range prog.Config.Roles {
		who[name] = true
		g.Members[name] = r.Members
		for _, m := range r.Members {
			g.RolesOf[m] = append(g.RolesOf[m], name)
		}
	}
	for _, f := range files {
		ns := NamedAgents(f.Syntax, who)
		if !g.Files[f.Path] {
			// A file always evaluated may declare part of an agent
			// (agents: x: status: "active"): its scope holds the files
			// that declare the rest.
			labels, ok := labelledAgents(f.Syntax, prog.Config.Agents)
			if !ok {
				g.Opaque = true
			}
			ns = slices.Compact(slices.Sorted(slices.Values(append(ns, labels...))))
		}
		g.Names[f.Path] = ns
		if g.Files[f.Path] {
			for _, id := range ns {
				g.NamedBy[id] = append(g.NamedBy[id], f.Path)
			}
		}
	}
	g.Naming = namingFields(files, g.Files, g.Names)
	for _, f := range files {
		if g.Files[f.Path] && g.refersToNaming(f.Syntax) || !g.Files[f.Path] && g.patternNames(f.Syntax, who) {
			g.Opaque = true
		}
	}
	for id, a := range prog.Config.Agents {
		if a.Authority.ReportsTo != "" {
			g.Reports[id] = a.Authority.ReportsTo
		}
		g.Delegates[id] = a.Authority.CanDelegateTo
		for _, to := range a.Authority.CanDelegateTo {
			g.Delegators[to] = append(g.Delegators[to], id)
		}
	}
	return g
}

// NamedAgents returns the agents of known that f's strings name, sorted.
func NamedAgents[V any](f *ast.File, known map[string]V) []string {
	seen := map[string]bool{}
	ast.Walk(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && len(lit.Value) < 200 {
			if v, err := strconv.Unquote(lit.Value); err == nil {
				if _, ok := known[v]; ok {
					seen[v] = true
				}
			}
		}
		return true
	}, nil)
	return slices.Sorted(maps.Keys(seen))
}

// refersToAgents reports whether f may name agents in a way its strings
// do not show: it refers to the field agents other than by declaring it
// (an identifier agents anywhere but in a label, or an alias of a label
// agents: A=agents: ...), or a field that names agents (nameFields) holds
// anything but string literals: a name computed from parts ("a\(n)",
// "a" + "6", strings.ToLower("A6")) or taken from another field may be
// any agent's.
func refersToAgents(f *ast.File) bool {
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Package, *ast.ImportDecl:
			return false
		case *ast.Field:
			if a, ok := n.Label.(*ast.Alias); ok {
				if id, ok := a.Expr.(*ast.Ident); ok && id.Name == "agents" {
					found = true
					return false
				}
			}
			name, _, err := ast.LabelName(n.Label)
			if nameFields[name] && !literalNames(n.Value) {
				found = true
				return false
			}
			// A label computed ("\(x)", ("agent")) or not a plain string
			// (#"agent"#) may be any of those fields.
			if _, pattern := n.Label.(*ast.ListLit); err != nil && !pattern && !literalNames(n.Value) {
				if _, lit := n.Value.(*ast.BasicLit); !lit {
					found = true
					return false
				}
			}
			ast.Walk(n.Value, visit, nil)
			return false
		case *ast.Ident:
			if n.Name == "agents" {
				found = true
			}
		}
		return true
	}
	ast.Walk(f, visit, nil)
	return found
}

// namingFields returns the top-level fields of the files that are not
// agents-only (only) whose strings name something (names), or that refer
// to a field of such a file, until no more are found.
func namingFields(files []*load.File, only map[string]bool, names map[string][]string) map[string]bool {
	labels, refs := map[string][]string{}, map[string]map[string]bool{}
	var todo []string
	naming := map[string]bool{}
	for _, f := range files {
		if only[f.Path] {
			continue
		}
		for _, d := range f.Syntax.Decls {
			if fd, ok := d.(*ast.Field); ok {
				if name, _, err := ast.LabelName(fd.Label); err == nil {
					labels[f.Path] = append(labels[f.Path], name)
				}
			}
		}
		refs[f.Path] = referenced(f.Syntax)
		if len(names[f.Path]) > 0 {
			todo = append(todo, f.Path)
		}
	}
	done := map[string]bool{}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if done[p] {
			continue
		}
		done[p] = true
		var added []string
		for _, l := range labels[p] {
			if !naming[l] {
				naming[l] = true
				added = append(added, l)
			}
		}
		for q, r := range refs {
			if done[q] {
				continue
			}
			for _, l := range added {
				if r[l] {
					todo = append(todo, q)
					break
				}
			}
		}
	}
	return naming
}

// referenced returns the identifiers f's values use (labels left out).
func referenced(f *ast.File) map[string]bool {
	out := map[string]bool{}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Package, *ast.ImportDecl:
			return false
		case *ast.Field:
			if l, ok := n.Label.(*ast.ParenExpr); ok {
				ast.Walk(l, visit, nil)
			}
			ast.Walk(n.Value, visit, nil)
			return false
		case *ast.Ident:
			out[n.Name] = true
		}
		return true
	}
	ast.Walk(f, visit, nil)
	return out
}

// patternNames reports whether a field of f labelled by a pattern
// (agents: [=~"^a"]: authority: reports_to: "bob") names an agent or
// role of known, or uses a field of Naming: it names them for agents
// declared elsewhere, whose strings do not show it.
func (g *Graph) patternNames(f *ast.File, known map[string]bool) bool {
	found := false
	ast.Walk(f, func(n ast.Node) bool {
		fd, ok := n.(*ast.Field)
		if found || !ok {
			return !found
		}
		if _, pattern := fd.Label.(*ast.ListLit); !pattern {
			return true
		}
		ast.Walk(fd.Value, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && known[v] {
					found = true
				}
			case *ast.Ident:
				if g.Naming[n.Name] {
					found = true
				}
			}
			return !found
		}, nil)
		return false
	}, nil)
	return found
}

// refersToNaming reports whether f uses a field of Naming.
func (g *Graph) refersToNaming(f *ast.File) bool {
	for id := range referenced(f) {
		if g.Naming[id] {
			return true
		}
	}
	return false
}

// nameFields are the fields whose strings name agents (or roles): the
// authority fields, a role's members, a flow step's and a test's agent.
var nameFields = map[string]bool{"reports_to": true, "can_delegate_to": true, "can_approve": true, "members": true, "agent": true}

// literalNames reports whether x is a string literal or a list of them:
// names the strings of the file show.
func literalNames(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		return plainString(x)
	case *ast.ListLit:
		for _, e := range x.Elts {
			if l, ok := e.(*ast.BasicLit); !ok || !plainString(l) {
				return false
			}
		}
		return true
	case *ast.StructLit:
		// A field of a field named so (agent: {...}): its own fields are
		// judged; an embedded value ({"b" + "ob"}) is the field's value.
		for _, d := range x.Elts {
			switch d.(type) {
			case *ast.Field, *ast.Attribute, *ast.CommentGroup:
			default:
				return false
			}
		}
		return true
	}
	return false
}

// plainString reports whether l is a string literal NamedAgents reads:
// a raw (#"a6"#) or multi-line one, or one too long, is not, though it
// may name an agent.
func plainString(l *ast.BasicLit) bool {
	if l.Kind != token.STRING || len(l.Value) >= 200 {
		return false
	}
	_, err := strconv.Unquote(l.Value)
	return err == nil
}

// labelledAgents returns the agents of known that some field of f is
// labelled with (what a file declares of them), sorted, and false when
// a label is not a plain name (an interpolation, an expression), which
// could be any agent's.
func labelledAgents[V any](f *ast.File, known map[string]V) ([]string, bool) {
	seen := map[string]bool{}
	ok := true
	ast.Walk(f, func(n ast.Node) bool {
		fd, isField := n.(*ast.Field)
		if !isField {
			return true
		}
		l := fd.Label
		if a, isAlias := l.(*ast.Alias); isAlias {
			if e, isLabel := a.Expr.(ast.Label); isLabel {
				l = e
			}
		}
		switch l := l.(type) {
		case *ast.Ident:
			if _, k := known[l.Name]; k {
				seen[l.Name] = true
			}
		case *ast.BasicLit:
			if v, err := strconv.Unquote(l.Value); err == nil {
				if _, k := known[v]; k {
					seen[v] = true
				}
			} else {
				ok = false
			}
		case *ast.ListLit: // a pattern: [string]: ..., every agent's alike
		default:
			ok = false
		}
		return true
	}, nil)
	return slices.Sorted(maps.Keys(seen)), ok
}

// edges are an agent's authority edges: the agent it reports to and
// those it can delegate to.
type edges struct {
	reports   []string
	delegates []string
}

// authorityEdges returns the authority edges of the agents an agents-only
// file declares, read from its syntax. Where a field is not a literal (a
// reference, a comprehension), every agent the file names counts as both.
func authorityEdges(f *ast.File, named []string) map[string]edges {
	out := map[string]edges{}
	var agent func(id string, v ast.Expr, path []string)
	agent = func(id string, v ast.Expr, path []string) {
		e := out[id]
		defer func() { out[id] = e }()
		lit, ok := v.(*ast.StructLit)
		if !ok {
			if len(path) > 0 {
				e.reports, e.delegates = append(e.reports, named...), append(e.delegates, named...)
			}
			return
		}
		for _, el := range lit.Elts {
			fd, ok := el.(*ast.Field)
			if !ok {
				if _, comment := el.(*ast.CommentGroup); !comment {
					e.reports, e.delegates = append(e.reports, named...), append(e.delegates, named...)
				}
				continue
			}
			name, _, _ := ast.LabelName(fd.Label)
			switch {
			case len(path) == 0 && name == "authority":
				out[id] = e
				agent(id, fd.Value, []string{"authority"})
				e = out[id]
			case len(path) == 1 && name == "reports_to":
				if v, ok := stringLit(fd.Value); ok {
					e.reports = append(e.reports, v)
				} else {
					e.reports = append(e.reports, named...)
				}
			case len(path) == 1 && name == "can_delegate_to":
				list, ok := fd.Value.(*ast.ListLit)
				if !ok {
					e.delegates = append(e.delegates, named...)
					continue
				}
				for _, x := range list.Elts {
					if v, ok := stringLit(x); ok {
						e.delegates = append(e.delegates, v)
					} else {
						e.delegates = append(e.delegates, named...)
					}
				}
			}
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		lit, ok := fd.Value.(*ast.StructLit)
		if !ok {
			continue
		}
		for _, el := range lit.Elts {
			if af, ok := el.(*ast.Field); ok {
				id, _, _ := ast.LabelName(af.Label)
				agent(id, af.Value, nil)
			}
		}
	}
	return out
}

func stringLit(x ast.Expr) (string, bool) {
	lit, ok := x.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// onCycles returns the agents on a reports_to or can_delegate_to cycle
// through one of from, where the agents of from have the edges out and
// the others the base's.
func (g *Graph) onCycles(from map[string]bool, out map[string]edges) map[string]bool {
	on := map[string]bool{}
	// Reporting: each agent reports to one; follow the chain.
	for id := range from {
		for _, next := range out[id].reports {
			var path []string
			seen := map[string]bool{}
			for cur := next; cur != "" && !seen[cur]; cur = g.Reports[cur] {
				seen[cur] = true
				path = append(path, cur)
				if from[cur] {
					for _, p := range path {
						on[p] = true
					}
					break
				}
			}
		}
	}
	// Delegation: the agents reachable from from's delegates that reach
	// one of from.
	back := map[string]bool{}
	queue := slices.Collect(maps.Keys(from))
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, d := range g.Delegators[id] {
			if !back[d] && !from[d] {
				back[d] = true
				queue = append(queue, d)
			}
		}
	}
	fwd := map[string]bool{}
	for id := range from {
		queue = append(queue, out[id].delegates...)
	}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if fwd[id] || from[id] {
			continue
		}
		fwd[id] = true
		queue = append(queue, g.Delegates[id]...)
	}
	for id := range fwd {
		if back[id] {
			on[id] = true
		}
	}
	return on
}

// Plan is what an edit makes evaluate again.
type Plan struct {
	// Changed are the edited files, as given to Plan.
	Changed map[string]*Edit
	// Redo are the files whose diagnostics are computed again: every
	// other file keeps the base's.
	Redo map[string]bool
	// Scope are the files to evaluate: Redo and the files of the agents
	// they name.
	Scope map[string]bool
	// Elsewhere are the agents declared in files out of Scope, as the
	// base found them: the files in scope may name them.
	Elsewhere map[string]bool

	// left are the base's agents of agents-only files that are not in
	// Elsewhere (those of Scope's files and of files removed): few,
	// where Elsewhere holds nearly every agent (MergeProgram).
	left map[string]bool
}

// Edit is the text of an edited file now; Src is nil when it was removed.
type Edit struct {
	Src []byte
}

// Plan returns what the edits since the base can change, or false when
// one is outside what an incremental evaluation answers: a file that
// declares (or declared) more than agents, or, unless added is set, a
// file the base did not read or one removed since. dirty are files whose
// diagnostics differ from the base's for another reason (an editor's
// earlier edit): they are redone too.
func (g *Graph) Plan(changed map[string]*Edit, dirty []string, added bool) (*Plan, bool) {
	if g.Opaque {
		return nil, false
	}
	ids := map[string]bool{}  // the agents the edited files declare, before or after
	out := map[string]edges{} // their authority edges, before and after
	parsed := map[string]*ast.File{}
	for rel, e := range changed {
		only, known := g.Files[rel]
		if known && !only || !known && !added || e.Src == nil && !added {
			return nil, false
		}
		for _, id := range g.Declared[rel] {
			ids[id] = true
		}
		if e.Src == nil {
			continue
		}
		f, err := parser.ParseFile(rel, e.Src)
		if err != nil {
			continue // evaluated for its syntax error
		}
		parsed[rel] = f
		now, ok := load.AgentsOnly(f)
		if !ok || refersToAgents(f) || g.refersToNaming(f) {
			return nil, false
		}
		if name := f.PackageName(); name != "" && name != g.Package {
			return nil, false
		}
		for id, e := range authorityEdges(f, NamedAgents(f, g.DeclaredIn)) {
			o := out[id]
			o.reports, o.delegates = append(o.reports, e.reports...), append(o.delegates, e.delegates...)
			out[id] = o
		}
		for _, id := range now {
			ids[id] = true
		}
	}
	for id := range ids {
		// The base's edges too: a cycle the edit breaks.
		o := out[id]
		if r := g.Reports[id]; r != "" {
			o.reports = append(o.reports, r)
		}
		o.delegates = append(o.delegates, g.Delegates[id]...)
		out[id] = o
	}

	redo := map[string]bool{}
	for rel := range changed {
		redo[rel] = true
	}
	for rel, only := range g.Files {
		if !only {
			redo[rel] = true
		}
	}
	for _, rel := range dirty {
		redo[rel] = true
	}
	addAgent := func(set map[string]bool, id string) {
		for _, f := range g.DeclaredIn[id] {
			set[f] = true
		}
		for _, m := range g.Members[id] { // a role: its members
			for _, f := range g.DeclaredIn[m] {
				set[f] = true
			}
		}
	}
	for id := range ids {
		addAgent(redo, id)
		for _, name := range append([]string{id}, g.RolesOf[id]...) {
			for _, f := range g.NamedBy[name] {
				redo[f] = true
			}
		}
	}
	for id := range g.onCycles(ids, out) {
		addAgent(redo, id)
	}
	// The agents of the other files redone that sit on a cycle of the
	// base: the whole cycle is evaluated with them, or its finding would
	// be lost (the cycle rule reports on every member it sees).
	around, aroundOut := map[string]bool{}, map[string]edges{}
	for rel := range redo {
		if _, ok := changed[rel]; ok {
			continue
		}
		for _, id := range g.Declared[rel] {
			if ids[id] {
				continue
			}
			around[id] = true
			e := edges{delegates: g.Delegates[id]}
			if r := g.Reports[id]; r != "" {
				e.reports = []string{r}
			}
			aroundOut[id] = e
		}
	}
	for id := range g.onCycles(around, aroundOut) {
		addAgent(redo, id)
	}
	scope := maps.Clone(redo)
	for rel := range redo {
		var named []string
		if e, ok := changed[rel]; ok {
			f := parsed[rel]
			if e.Src == nil || f == nil {
				continue
			}
			named = NamedAgents(f, g.DeclaredIn)
		} else {
			named = g.Names[rel]
		}
		for _, id := range named {
			addAgent(scope, id)
		}
	}
	for rel, e := range changed {
		if e.Src == nil {
			delete(scope, rel) // removed: nothing to read, nothing to report
		}
	}
	// Elsewhere is every agent but those of the scope's files and those
	// whose every file was removed: computed from those few, not by
	// looking at thousands of agents, for an editor does this per edit.
	left := map[string]bool{}
	for rel := range scope {
		for _, id := range g.Declared[rel] {
			left[id] = true
		}
	}
	for rel, e := range changed {
		if e.Src != nil {
			continue
		}
		for _, id := range g.Declared[rel] {
			if !slices.ContainsFunc(g.DeclaredIn[id], func(f string) bool { e, ok := changed[f]; return !ok || e.Src != nil }) {
				left[id] = true
			}
		}
	}
	elsewhere := maps.Clone(g.agentSet())
	for id := range left {
		delete(elsewhere, id)
	}
	return &Plan{Changed: changed, Redo: redo, Scope: scope, Elsewhere: elsewhere, left: left}, true
}

// Advance returns the graph of the evaluation a plan of g made, when it
// validated: the edited files' declarations, names and authority edges
// as they are now (files, the user files the evaluation read; prog, its
// program merged with the base's agents, Result.Program). Nothing of g
// changes: what differs is copied. An editor advances its base after
// every edit that validates, so that the next edit's scope is that
// edit's alone, not everything edited since the last full evaluation.
func (g *Graph) Advance(changed map[string]*Edit, files []*load.File, prog *compiler.Program) *Graph {
	n := *g
	n.Files, n.Declared, n.DeclaredIn = maps.Clone(g.Files), maps.Clone(g.Declared), maps.Clone(g.DeclaredIn)
	n.Names, n.NamedBy = maps.Clone(g.Names), maps.Clone(g.NamedBy)
	n.Reports, n.Delegates, n.Delegators = maps.Clone(g.Reports), maps.Clone(g.Delegates), maps.Clone(g.Delegators)
	n.all = maps.Clone(g.agentSet())
	// drop removes x from m[key], and key when nothing is left.
	drop := func(m map[string][]string, key, x string) {
		if l := slices.DeleteFunc(slices.Clone(m[key]), func(y string) bool { return y == x }); len(l) > 0 {
			m[key] = l
		} else {
			delete(m, key)
		}
	}
	syntax := map[string]*ast.File{}
	for _, f := range files {
		if _, ok := changed[f.Path]; ok {
			syntax[f.Path] = f.Syntax
		}
	}
	// The names an authority field may give, as NewGraph indexes them:
	// the agents and the roles (an agent added later may take a role's
	// name).
	who := make(map[string]bool, len(prog.Config.Agents)+len(prog.Config.Roles))
	for id := range prog.Config.Agents {
		who[id] = true
	}
	for name := range prog.Config.Roles {
		who[name] = true
	}
	touched := map[string]bool{} // the agents whose declarations or edges may have changed
	for rel, e := range changed {
		for _, id := range n.Declared[rel] {
			drop(n.DeclaredIn, id, rel)
			touched[id] = true
		}
		for _, id := range n.Names[rel] {
			drop(n.NamedBy, id, rel)
		}
		f := syntax[rel]
		if e.Src == nil || f == nil {
			delete(n.Files, rel)
			delete(n.Declared, rel)
			delete(n.Names, rel)
			continue
		}
		ids, _ := load.AgentsOnly(f)
		n.Files[rel] = true
		n.Declared[rel] = ids
		for _, id := range ids {
			n.DeclaredIn[id] = append(slices.Clone(n.DeclaredIn[id]), rel)
			touched[id] = true
		}
		n.Names[rel] = NamedAgents(f, who)
		for _, id := range n.Names[rel] {
			n.NamedBy[id] = append(slices.Clone(n.NamedBy[id]), rel)
		}
	}
	for id := range touched {
		if len(n.DeclaredIn[id]) == 0 {
			delete(n.DeclaredIn, id)
			delete(n.all, id)
		} else {
			n.all[id] = true
		}
		for _, to := range n.Delegates[id] {
			drop(n.Delegators, to, id)
		}
		delete(n.Reports, id)
		delete(n.Delegates, id)
		if a, ok := prog.Config.Agents[id]; ok {
			if a.Authority.ReportsTo != "" {
				n.Reports[id] = a.Authority.ReportsTo
			}
			n.Delegates[id] = a.Authority.CanDelegateTo
			for _, to := range a.Authority.CanDelegateTo {
				n.Delegators[to] = append(slices.Clone(n.Delegators[to]), id)
			}
		}
	}
	return &n
}
