// Package validate checks a loaded repository against charter's schema and
// cross-references, and decodes it into the model.
//
// It validates each declaration on its own (the standard library's value,
// if any, unified with the user's and the declaration's definition), so
// that CUE's habit of dropping errors beside an earlier one (cue-lang/cue
// #2869) cannot hide a second mistake; it finds unknown fields itself;
// and it checks option membership and references in Go, where the messages
// can name the valid options and the closest name.
//
// Most declarations are plain literals written in one place. Those are
// judged by a matcher compiled in Go from their definition (match.go) on
// every processor, and decoded from their syntax, without CUE: at 2,000
// and 10,000 agents this puts validate under `cue vet -c`. A literal the
// matcher does not accept, and every other declaration, is validated by
// CUE as above, which says what is wrong.
package validate

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/internal/par"
)

// kind is one top-level map of declarations.
type kind struct {
	field string // top-level field, e.g. "agents"
	def   string // its definition, e.g. "#Agent"
	noun  string // what one is called in messages
	slug  string // what its name is called, when it must be a slug
	new   func() any
	store func(c *model.Config, name string, v any)
}

var kinds = []kind{
	{"categories", "#Category", "category", "", func() any { return new(model.Category) },
		func(c *model.Config, n string, v any) { c.Categories[n] = v.(*model.Category) }},
	{"agentTypes", "#AgentType", "agent type", "agent type slug", func() any { return new(model.AgentType) },
		func(c *model.Config, n string, v any) { c.AgentTypes[n] = v.(*model.AgentType) }},
	{"presets", "#Preset", "preset", "", func() any { return new(model.Preset) },
		func(c *model.Config, n string, v any) { c.Presets[n] = v.(*model.Preset) }},
	{"behaviorTypes", "#BehaviorType", "behavior type", "", func() any { return new(model.BehaviorType) },
		func(c *model.Config, n string, v any) { c.BehaviorTypes[n] = v.(*model.BehaviorType) }},
	{"profiles", "#Profile", "profile", "profile name", func() any { return new(model.Profile) },
		func(c *model.Config, n string, v any) { c.Profiles[n] = v.(*model.Profile) }},
	{"agents", "#Agent", "agent", "agent id", func() any { return new(model.Agent) },
		func(c *model.Config, n string, v any) { c.Agents[n] = v.(*model.Agent) }},
	{"tests", "#Test", "test", "", func() any { return new(model.Test) },
		func(c *model.Config, n string, v any) { c.Tests[n] = v.(*model.Test) }},
	{"models", "#ModelInfo", "model", "", func() any { return new(model.ModelInfo) },
		func(c *model.Config, n string, v any) { c.Models[n] = v.(*model.ModelInfo) }},
	{"runtimes", "#Runtime", "runtime", "", func() any { return new(model.Runtime) },
		func(c *model.Config, n string, v any) { c.Runtimes[n] = v.(*model.Runtime) }},
	{"flows", "#Flow", "flow", "flow name", func() any { return new(model.Flow) },
		func(c *model.Config, n string, v any) { c.Flows[n] = v.(*model.Flow) }},
	{"toolGroups", "#ToolGroup", "tool group", "", func() any { return new(model.ToolGroup) },
		func(c *model.Config, n string, v any) { c.ToolGroups[n] = v.(*model.ToolGroup) }},
	{"roles", "#Role", "role", "", func() any { return new(model.Role) },
		func(c *model.Config, n string, v any) { c.Roles[n] = v.(*model.Role) }},
	{"people", "#Person", "person", "", func() any { return new(model.Person) },
		func(c *model.Config, n string, v any) { c.People[n] = v.(*model.Person) }},
}

// singletons are top-level fields that hold one struct.
var singletons = []struct {
	field, def string
	target     func(c *model.Config) any
}{
	{"lint", "#LintSettings", func(c *model.Config) any { return &c.Lint }},
	{"a2a", "#A2ASettings", func(c *model.Config) any { return &c.A2A }},
	{"repository", "#RepositorySettings", func(c *model.Config) any { return &c.Repository }},
}

// Result is the outcome of validation.
type Result struct {
	// Config is the decoded model. Declarations that failed the schema are
	// in it too, decoded field by field as far as possible, and listed in
	// Invalid; use Config only when OK reports true. It is read-only: the
	// standard library's declarations the repository does not extend are
	// shared with every Result on the same schema (see load.Loader).
	Config      *model.Config
	Diagnostics []diag.Diagnostic
	// Invalid holds "kind.name" of every declaration that failed.
	Invalid map[string]bool
	// Incomplete is true when the loader left files out (their
	// diagnostics say why); nothing was validated then.
	Incomplete bool
	repo       *load.Repo
}

// OK reports whether validation found no errors.
func (r *Result) OK() bool {
	s, any := diag.Max(r.Diagnostics)
	return !r.Incomplete && (!any || s < diag.Error)
}

// Repo returns the loaded repository the result is about.
func (r *Result) Repo() *load.Repo { return r.repo }

// Run validates a loaded repository. When the loader left files out
// (repo.Skipped), Run checks nothing and the result is Incomplete: the
// loader's diagnostics are the ones to fix first.
func Run(repo *load.Repo) *Result { return runWith(repo, maxWorkers, true) }

// Options tune RunWith.
type Options struct {
	// AgentsElsewhere names agents declared in files the repository
	// evaluated leaves out (a scope of a larger tree): the authority
	// fields may name them as if they were declared.
	AgentsElsewhere map[string]bool
}

// RunWith is Run with options.
func RunWith(repo *load.Repo, opts Options) *Result {
	return runOpts(repo, maxWorkers, true, opts)
}

// maxWorkers bounds the goroutines that validate declarations.
const maxWorkers = 64

// runWith is Run on at most workers goroutines besides the calling one (0:
// everything on the calling one, as tests compare), with the definitions'
// matchers or (matchers false, as tests compare) CUE alone.
func runWith(repo *load.Repo, workers int, matchers bool) *Result {
	return runOpts(repo, workers, matchers, Options{})
}

func runOpts(repo *load.Repo, workers int, matchers bool, opts Options) *Result {
	cfg := &model.Config{
		Categories:    map[string]*model.Category{},
		AgentTypes:    map[string]*model.AgentType{},
		Presets:       map[string]*model.Preset{},
		BehaviorTypes: map[string]*model.BehaviorType{},
		Profiles:      map[string]*model.Profile{},
		Agents:        map[string]*model.Agent{},
		Tests:         map[string]*model.Test{},
		Models:        map[string]*model.ModelInfo{},
		Runtimes:      map[string]*model.Runtime{},
		Flows:         map[string]*model.Flow{},
		ToolGroups:    map[string]*model.ToolGroup{},
		Roles:         map[string]*model.Role{},
		People:        map[string]*model.Person{},
		Builtin:       map[string]bool{},
	}
	res := &Result{Config: cfg, Invalid: map[string]bool{}, repo: repo}
	if len(repo.Skipped) > 0 {
		// Declarations in the files left out would look missing, and
		// every reference to them wrong: fix the files first.
		res.Incomplete = true
		return res
	}
	v := &validator{repo: repo, res: res, defs: schemaDefs(repo.Schema), workers: workers, elsewhere: opts.AgentsElsewhere}
	if v.rootErrors() {
		// Nothing is there to validate: every declaration would look
		// missing (the agents vanished, and validate said ok).
		res.Incomplete = true
		res.Diagnostics = diag.Sort(v.diags)
		return res
	}
	if !matchers {
		for name, d := range v.defs {
			d.match = nil
			v.defs[name] = d
		}
	}
	v.topLevel()

	var jobs []job
	for _, k := range kinds {
		jobs = append(jobs, v.declarations(k)...)
	}
	v.run(jobs)
	for _, s := range singletons {
		user := repo.Value.LookupPath(cue.MakePath(cue.Str(s.field)))
		if !user.Exists() {
			continue
		}
		if val, ok := v.check(Path{s.field}, s.def, cue.Value{}, user); ok {
			v.decode(Path{s.field}, val, s.target(cfg))
		}
	}
	v.others()
	v.broken = slices.Clone(v.failed)
	v.references()
	v.owners()
	applyTypeDefaults(cfg)
	for i, d := range v.diags {
		// A message may quote the values of a field named like a
		// credential (a conflict): the writer knows shapes, not names.
		v.diags[i].Message = secret.RedactQuoted(lastLabel(d.Path), d.Message)
	}
	res.Diagnostics = diag.Sort(v.diags)
	return res
}

// lastLabel is the last field name of a dot-notation path
// (agents.ann.behaviors[0].params.api_key: api_key).
func lastLabel(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	return strings.Trim(path, `"`)
}

type validator struct {
	repo *load.Repo
	// elsewhere are agents declared outside the files evaluated.
	elsewhere map[string]bool
	workers   int // see runWith
	res       *Result
	mu        sync.Mutex
	diags     []diag.Diagnostic
	// broken lists the paths where the schema checks found an error; the
	// reference checks say nothing in or just around them, where the
	// partly decoded model is not what the user wrote.
	broken []Path
	// failed collects the paths of schema errors as they are reported.
	failed []Path
	// defs holds the definitions declarations are checked against.
	defs map[string]schemaDef
}

// near reports whether a reference check at p would be about a value the
// schema checks already rejected: p lies inside a broken value, or a
// broken value lies inside p below the declaration itself.
func (v *validator) near(p Path) bool {
	for _, b := range v.broken {
		if hasPrefix(p, b) || len(p) > 2 && hasPrefix(b, p) {
			return true
		}
	}
	return false
}

func hasPrefix(p, prefix Path) bool {
	return len(prefix) <= len(p) && slices.Equal(p[:len(prefix)], prefix)
}

// others reports errors outside the declarations charter validates one by
// one: in hidden fields and definitions the user's files declare for their
// own use (checked like cue vet checks them, concrete or not), or in the
// top level itself when it is not a struct.
func (v *validator) others() {
	root := v.repo.Value
	if root.IncompleteKind() == cue.BottomKind {
		// Errors in declarations make the root bottom too; only those at
		// the root itself (a file that is a scalar) are reported here.
		for _, e := range cueerrors.Errors(root.Err()) {
			if len(e.Path()) == 0 {
				v.cueErrors(e)
			}
		}
	}
	it, err := root.Fields(cue.Hidden(true), cue.Definitions(true))
	if err != nil {
		return
	}
	for it.Next() {
		switch it.Selector().Type() {
		case cue.HiddenLabel, cue.DefinitionLabel, cue.HiddenDefinitionLabel:
			v.cueErrors(it.Value().Validate())
		}
	}
}

// cueErrors reports CUE errors as they are, at the user's position.
func (v *validator) cueErrors(err error) {
	for _, e := range cueerrors.Errors(err) {
		pos, msg := userPosOfErr(e), msgOf(e)
		if strings.HasPrefix(msg, "conflicting values") && fromUsers(e) {
			msg = v.conflictMessage(e, pos)
		}
		v.reportAt("schema", relPath(e.Path()), pos, "%s", msg)
	}
}

// report adds an error at the user's position of path.
func (v *validator) report(rule string, path Path, format string, args ...any) {
	v.reportAt(rule, path, posOf(v.repo.Value, path), format, args...)
}

// reportName is report for a wrong name (a value, or with label a field's
// label) that the closest of candidates, if any is close, should replace.
func (v *validator) reportName(rule string, path Path, label bool, name string, candidates []string, format string, args ...any) {
	pos := posOf(v.repo.Value, path)
	if label {
		pos = labelPosOf(v.repo.Value, path)
	}
	fix, _ := closest(name, candidates)
	v.reportFix(rule, path, pos, fix, format, args...)
}

// reportLabel adds an error at the user's position of the label of path:
// for a name that is wrong, rather than a value.
func (v *validator) reportLabel(rule string, path Path, format string, args ...any) {
	v.reportAt(rule, path, labelPosOf(v.repo.Value, path), format, args...)
}

func (v *validator) reportAt(rule string, path Path, pos token.Pos, format string, args ...any) {
	v.reportFix(rule, path, pos, "", format, args...)
}

// reportFix is reportAt for a name that suggestion, the closest valid one,
// should replace.
func (v *validator) reportFix(rule string, path Path, pos token.Pos, suggestion, format string, args ...any) {
	if v.broken != nil && v.near(path) {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if len(path) > 0 {
		msg = path.String() + ": " + msg
	}
	d := diag.Diagnostic{Severity: diag.Error, Rule: rule, Path: path.String(), Message: msg, Suggestion: suggestion}
	if pos.IsValid() {
		d.File, d.Line, d.Column = pos.Filename(), pos.Line(), v.repo.Column(pos)
	}
	v.mu.Lock()
	v.diags = append(v.diags, d)
	if rule == "schema" || rule == "unknown-field" {
		v.failed = append(v.failed, path)
	}
	v.mu.Unlock()
}

// topLevel reports top-level fields that charter does not know.
// rootErrors reports the errors that make the repository's whole value
// an error rather than a struct of declarations: a reference to nothing
// (CUE resolves references when it builds the value, and one it cannot
// resolve fails the whole package). It returns whether there were any.
func (v *validator) rootErrors() bool {
	if _, err := v.repo.Value.Fields(); err == nil {
		return false
	}
	err := v.repo.Value.Err()
	if err == nil {
		return false
	}
	for _, e := range cueerrors.Errors(err) {
		pos := userPosOfErr(e)
		path := relPath(e.Path())
		msg := msgOf(e)
		rule := "schema"
		if strings.HasPrefix(msg, "reference ") && strings.HasSuffix(msg, " not found") {
			rule = "reference"
			msg += ": declare it, or correct the name"
		}
		if !pos.IsValid() {
			pos = posOf(v.repo.Value, path)
		}
		v.reportAt(rule, path, pos, "%s", msg)
	}
	return true
}

func (v *validator) topLevel() {
	cfgDef := v.repo.Schema.Def("#Config")
	it, err := v.repo.Value.Fields()
	if err != nil {
		return // reported by the loader
	}
	var known []string
	for _, k := range kinds {
		known = append(known, k.field)
	}
	for _, s := range singletons {
		known = append(known, s.field)
	}
	for it.Next() {
		label := it.Selector().Unquoted()
		if !cfgDef.Allows(cue.Str(label)) {
			fix, _ := closest(label, known)
			v.reportFix("unknown-field", Path{label}, labelPos(it.Value()), fix,
				"unknown top-level field %q%s", label, didYouMean(label, known, "top-level fields"))
		}
	}
}

// job is one declaration to validate and decode.
type job struct {
	kind kind
	name string
	std  cue.Value
	user cue.Value
}

func (v *validator) declarations(k kind) []job {
	var jobs []job
	seen := map[string]bool{}
	std := v.repo.Schema.Stdlib.LookupPath(cue.MakePath(cue.Str(k.field)))
	user := v.repo.Value.LookupPath(cue.MakePath(cue.Str(k.field)))
	if user.Exists() {
		// A conflict deep inside gives the whole map the bottom kind;
		// its declarations are still there to be validated one by one.
		if kind, _ := children(user); kind != cue.StructKind && kind != cue.BottomKind {
			v.report("schema", Path{k.field}, "must be a struct of %ss keyed by name, not %s", k.noun, show(user))
			user = cue.Value{}
		}
	}
	// Each map's fields, read once: a lookup by name reads a struct's
	// fields one by one, which at 10,000 agents made this quadratic.
	fields := func(src cue.Value) (names []string, vals map[string]cue.Value) {
		vals = map[string]cue.Value{}
		if !src.Exists() {
			return nil, vals
		}
		it, err := src.Fields()
		if err != nil {
			return nil, vals
		}
		for it.Next() {
			if !it.Selector().IsString() {
				continue
			}
			name := it.Selector().Unquoted()
			names = append(names, name)
			vals[name] = it.Value()
		}
		return names, vals
	}
	stdNames, stdVals := fields(std)
	userNames, userVals := fields(user)
	for _, name := range slices.Concat(stdNames, userNames) {
		if seen[name] {
			continue
		}
		seen[name] = true
		j := job{kind: k, name: name, std: stdVals[name], user: userVals[name]}
		if j.std.Exists() {
			v.res.Config.Builtin[k.field+"."+name] = true
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// run validates and decodes jobs.
//
// Most declarations are plain literals (no reference to anything else, see
// literalJSON) written in one place, the user's files or the standard
// library's; for those CUE's evaluation is the literal itself, so the definition's matcher (compiled once, in
// Go) judges the syntax and the JSON decoder decodes it, on as many
// goroutines as there are processors. They touch no CUE value: a CUE
// context is not safe for concurrent use, and one context per goroutine
// cost 10% more memory for nothing a matcher needs. Everything else, and
// any literal the matcher does not accept, is validated by CUE on the
// calling goroutine (one), which also says what is wrong.
func (v *validator) run(jobs []job) {
	out := make([]any, len(jobs))
	done := make([]bool, len(jobs))
	// The jobs a matcher may judge: their indexes, syntax, and whether
	// the standard library holds them (to share their decoded form).
	var plain []int
	var srcs []ast.Expr
	var builtin []bool
	for i, j := range jobs {
		d := v.defs[j.kind.def]
		// A user's value that extends the standard library's is the two
		// unified: that is CUE's to judge.
		if j.std.Exists() == j.user.Exists() || d.shape.adds || d.match == nil {
			continue
		}
		decl, std := j.user, j.std.Exists()
		if std {
			if x, ok := stdlibDecls.Load(j.kind.field + "." + j.name); ok {
				out[i], done[i] = x, true
				continue
			}
			decl = j.std
		}
		if f, ok := decl.Source().(*ast.Field); ok && f.Value != nil {
			plain = append(plain, i)
			srcs = append(srcs, f.Value)
			builtin = append(builtin, std)
		}
	}
	judge := func(n int) {
		i := plain[n]
		if x, ok := v.matched(jobs[i], srcs[n], builtin[n]); ok {
			out[i], done[i] = x, true
		}
	}
	// A worker for every 64 literals at most: below that, goroutines cost
	// more than they save. No worker (v.workers 0) judges them here.
	workers := min(v.workers, runtime.GOMAXPROCS(0), max(1, len(plain)/64))
	par.Each(len(plain), max(1, workers), judge)
	for i, j := range jobs {
		if !done[i] || j.kind.slug != "" && !model.IsSlug(j.name) {
			out[i] = v.one(j)
		}
	}
	for i, j := range jobs {
		x := out[i]
		if p, ok := x.(partial); ok {
			v.res.Invalid[j.kind.field+"."+j.name] = true
			x = p.v
		}
		j.kind.store(v.res.Config, j.name, x)
	}
}

// matched decodes a declaration written as the plain literal src (in the
// standard library when builtin) if its definition's matcher accepts it. It reports nothing and touches no CUE
// value (it runs on many goroutines): ok is false when the literal is not
// plain or not accepted, and one then asks CUE what is wrong.
func (v *validator) matched(j job, src ast.Expr, builtin bool) (any, bool) {
	b, ok := appendLiteral(nil, src)
	if !ok || !v.defs[j.kind.def].match.match(src) {
		return nil, false
	}
	target := j.kind.new()
	if decodeJSONBytes(b, target) != nil {
		return nil, false
	}
	if builtin {
		if x, loaded := stdlibDecls.LoadOrStore(j.kind.field+"."+j.name, target); loaded {
			return x, true
		}
	}
	return target, true
}

// one validates and decodes one declaration; nil means it failed.
func (v *validator) one(j job) any {
	path := Path{j.kind.field, j.name}
	ok := true
	if j.kind.slug != "" && !model.IsSlug(j.name) {
		v.reportLabel("slug", path, "%s %q is not a slug: use lower-case letters, digits, '-' and '_', starting with a letter or digit (it becomes a file name in the bundle)", j.kind.slug, j.name)
		ok = false
	}
	key := j.kind.field + "." + j.name
	builtinOnly := j.std.Exists() && !j.user.Exists()
	if builtinOnly {
		if x, ok := stdlibDecls.Load(key); ok {
			return x
		}
	}
	val, valid := v.check(path, j.kind.def, j.std, j.user)
	target := j.kind.new()
	if !valid {
		// Decode what can be decoded, so the reference checks still see
		// the rest of the declaration. A field that fails is taken from
		// the standard library (which the user may not change), else
		// from the user's own value.
		decodePartial(target, val, j.std, j.user)
		return partial{target}
	}
	if !v.decodeDecl(path, val, j, target) || !ok {
		return partial{target}
	}
	if builtinOnly {
		stdlibDecls.Store(key, target)
	}
	return target
}

// stdlibDecls is the one cache of the decoded standard library: for this
// process, the decoded form of every standard library declaration the user
// does not extend, by "kind.name". The standard library is embedded, so
// its declarations are the same in every repository and commit: they are
// validated and decoded once per process (charter log evaluates hundreds of
// commits), and every Config shares them: a Config is read-only.
var stdlibDecls sync.Map

// partial wraps a declaration that failed validation but was decoded as far
// as possible.
type partial struct{ v any }

// decodePartial decodes each field of the first of vals that has it into the
// field of the struct target points at with the same JSON name, skipping
// fields that fail.
func decodePartial(target any, vals ...cue.Value) {
	rv := reflect.ValueOf(target).Elem()
	rt := rv.Type()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		for _, val := range vals {
			fv := val.LookupPath(cue.MakePath(cue.Str(name)))
			if !fv.Exists() {
				continue
			}
			tmp := reflect.New(rt.Field(i).Type)
			if fv.Decode(tmp.Interface()) == nil {
				rv.Field(i).Set(tmp.Elem())
				break
			}
		}
	}
}

// decode decodes a valid value into target.
func (v *validator) decode(path Path, val cue.Value, target any) bool {
	if err := decodeJSON(val, target); err != nil {
		v.report("schema", path, "cannot decode: %v", err)
		return false
	}
	return true
}

func isEmbedded(pos token.Pos) bool { return load.IsEmbedded(pos.Filename()) }

// names returns the sorted keys of m.
func names[V any](m map[string]V) []string { return model.Sorted(m) }

func join(s []string) string {
	s = slices.Clone(s)
	slices.Sort(s)
	return strings.Join(s, ", ")
}
