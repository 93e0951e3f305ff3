package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/lint"
	"github.com/charter-dev/charter/render"
)

// MaxSize is the largest file import reads, the largest .cue file charter
// reads: a configuration is far smaller, and a larger file is a mistake
// (a log, a dump) better said at once than parsed for minutes.
const MaxSize = load.MaxFileSize

// Options says what to import and where.
type Options struct {
	// File is the source file, as the user named it.
	File string
	// From is a format name; empty, the format is told from the content.
	From string
	// Root is the config root.
	Root string
	// Out is the folder the files go into (all in it, agents as <id>.cue,
	// the others as <id>.<kind>.cue); empty, they go into the config
	// root's agents/, types/, profiles/ and presets/.
	Out string
	// Force writes what can be carried even when keys are not, and
	// overwrites files and declarations that exist.
	Force bool
}

// Result is what an import found, made and wrote.
type Result struct {
	// Source is the file's name in messages.
	Source string
	Format *Format
	// Reason says why the content was taken for Format ("" with --from).
	Reason string
	Decls  []*Decl
	// NotCarried are source keys no field holds; Unset are nulls (and
	// other values that mean "not set"), left out; Derived are values
	// charter computes from other declarations.
	NotCarried, Unset, Derived []Entry
	// Aliases counts the YAML aliases expanded.
	Aliases int
	Notes   []string
	// Problems are the source file's own (unreadable, malformed, of no
	// format): nothing was converted.
	Problems []diag.Diagnostic
	// Collisions are declarations and files the import would replace.
	Collisions []diag.Diagnostic
	// Diagnostics are validation's, on the config root with the new files,
	// less those it had before.
	Diagnostics []diag.Diagnostic
	// Differs are the keys of a charter agent.json whose values differ
	// from those of the imported agent.
	Differs []Entry
	// Equal is set when an agent.json was imported and the agent it gives
	// is equal to it.
	Equal bool
	// Written are the files written, relative to the config root.
	Written []string
	force   bool
}

// Blocked reports whether nothing was written because of keys not carried
// or collisions (--force writes anyway).
func (r *Result) Blocked() bool {
	return !r.force && (len(r.NotCarried) > 0 || len(r.Collisions) > 0)
}

// Report returns every diagnostic of the import: the source's problems,
// keys not carried (errors unless forced), nulls left unset (info),
// collisions, and validation's findings on the result.
func (r *Result) Report() []diag.Diagnostic {
	ds := slices.Clone(r.Problems)
	sev := diag.Error
	if r.force {
		sev = diag.Warning
	}
	at := func(e Entry, sev diag.Severity, rule, msg string) diag.Diagnostic {
		return diag.Diagnostic{File: r.Source, Line: e.Pos.Line, Column: e.Pos.Col, Severity: sev, Rule: rule, Path: e.Path, Message: e.Path + ": " + msg}
	}
	for _, e := range r.NotCarried {
		ds = append(ds, at(e, sev, "not-carried", "not carried over: "+e.Why))
	}
	for _, e := range r.Unset {
		ds = append(ds, at(e, diag.Info, "unset", e.Why))
	}
	for _, e := range r.Differs {
		ds = append(ds, at(e, diag.Warning, "differs", e.Why))
	}
	ds = append(ds, r.Collisions...)
	return append(diag.Sort(ds), r.Diagnostics...)
}

// Error is an import that could not run: a file or folder that cannot be
// read or written, an unknown format, an --out outside the config root.
type Error struct {
	Err  error
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Run imports o.File. It returns an *Error when the import could not run,
// and a Result otherwise, whose Report says what it found.
func Run(o Options) (*Result, error) {
	res := &Result{Source: o.File, force: o.Force}
	var format *Format
	if o.From != "" {
		if format = FormatNamed(o.From); format == nil {
			return nil, &Error{Err: fmt.Errorf("unknown format %q; valid formats: %s", o.From, strings.Join(FormatNames(), ", "))}
		}
	}
	rootFS, err := revision.Worktree(o.Root)
	if err != nil {
		return nil, err
	}
	out, err := outDir(o.Root, o.Out)
	if err != nil {
		return nil, err
	}
	src, err := readSource(o.File, res)
	if err != nil || len(res.Problems) > 0 {
		return res, err
	}
	root, aliases, perr := Parse(src, o.File)
	res.Aliases = aliases
	if perr != nil {
		res.Problems = append(res.Problems, problem(res.Source, perr))
		return res, nil
	}
	if format == nil {
		format, res.Reason = Detect(root)
		if format == nil {
			res.Problems = append(res.Problems, problem(res.Source, detectError(root)))
			return res, nil
		}
	}
	res.Format = format

	var ev revision.Evaluator
	before, err := ev.EvaluateFS(rootFS, o.Root)
	if err != nil {
		var nf *load.NoFilesError
		if errors.As(err, &nf) {
			return nil, &Error{Err: fmt.Errorf("no .cue files in %s: import writes into a charter repository", o.Root), Hint: "create one with charter init, or pass its folder with -C"}
		}
		return nil, err
	}
	userValue := before.Validation.Repo().Value
	builtin := before.Validation.Config.Builtin
	c := &conv{res: res, stem: stemOf(o.File), name: filepath.Base(o.File), w: &walker{res: res}}
	c.existing = func(kind, id string) (bool, bool) {
		v := userValue.LookupPath(cue.MakePath(cue.Str(kind), cue.Str(id)))
		return v.Exists(), builtin[kind+"."+id]
	}
	c.authorityName = authorityNames(before.Validation.Config)
	format.convert(c, root)

	// Files, and what they would replace.
	pkg := before.Validation.Repo().Package
	if pkg == "" {
		pkg = "charter"
	}
	files := map[string]string{}
	for _, d := range res.Decls {
		if d.Exists {
			continue
		}
		d.File = fileFor(out, d)
		b, err := d.source(pkg)
		if err != nil {
			return nil, err
		}
		files[d.File] = string(b)
		res.collide(o.Root, d, userValue)
	}

	// Validation of the root as it will be.
	after, err := ev.EvaluateFS(&source.Overlay{Base: rootFS, Files: files}, o.Root)
	if err != nil {
		return nil, err
	}
	old := map[string]bool{}
	for _, d := range before.Diagnostics {
		old[d.String()] = true
	}
	for _, d := range after.Diagnostics {
		// What is said about a file written is always said (it may be
		// one the import overwrites, with the same mistake).
		if _, ours := files[d.File]; ours || !old[d.String()] {
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	if after.OK() {
		// What only lint catches but charter lint fails on (a role
		// name where an agent id belongs, in reports_to) is a rejected
		// value too; only its errors, in the files written, are said.
		lds, _ := lint.Run(after.Program, after.Validation.Repo().Files, lint.Options{})
		for _, d := range lds {
			if _, ours := files[d.File]; ours && d.Severity == diag.Error {
				res.Diagnostics = append(res.Diagnostics, d)
			}
		}
	}
	if n := countErrors(before.Diagnostics); n > 0 {
		errs := "1 error"
		if n > 1 {
			errs = fmt.Sprintf("%d errors", n)
		}
		res.Notes = append(res.Notes, fmt.Sprintf("the config root %s had %s before the import, not shown here; charter validate lists them", o.Root, errs))
	}
	if format == charterFormat && after.OK() && len(res.Decls) == 1 {
		res.compare(src, after, res.Decls[0].ID)
	}

	if res.Blocked() {
		return res, nil
	}
	if err := checkLinks(o.Root, res.Decls); err != nil {
		return res, err
	}
	for _, d := range res.Decls {
		if d.Exists {
			continue
		}
		if err := writeFile(o.Root, d.File, []byte(files[d.File])); err != nil {
			return res, &Error{Err: err}
		}
		res.Written = append(res.Written, d.File)
	}
	return res, nil
}

// authorityNames returns what reports whether a config gives the authority
// fields a name: an agent, a role, an approval setting, a tool a behavior
// provides, a tool family or a rule.
func authorityNames(cfg *model.Config) func(string) bool {
	names := map[string]bool{}
	for id := range cfg.Agents {
		names[id] = true
	}
	for r := range cfg.Roles {
		names[r] = true
	}
	if cat, ok := cfg.Categories["approval"]; ok {
		for s := range cat.Settings {
			names[s], names["approval."+s] = true, true
		}
	}
	for _, bt := range cfg.BehaviorTypes {
		for t := range bt.Tools {
			names[t] = true
		}
	}
	for _, p := range cfg.Profiles {
		for fam := range p.ToolFamilies {
			names[fam] = true
		}
		for r := range p.Rules {
			names[r] = true
		}
	}
	return func(name string) bool { return names[name] }
}

func countErrors(ds []diag.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == diag.Error {
			n++
		}
	}
	return n
}

// readSource reads the file, refusing what is too large or not UTF-8
// text (as problems: the file is the input, and it has errors).
func readSource(name string, res *Result) ([]byte, error) {
	bad := func(line, col int, msg string) ([]byte, error) {
		res.Problems = append(res.Problems, diag.Diagnostic{File: name, Line: line, Column: col, Severity: diag.Error, Rule: "read", Message: msg})
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, &Error{Err: fmt.Errorf("cannot read %s: %v", name, unwrap(err))}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &Error{Err: fmt.Errorf("%s is a folder; import reads one file", name)}
	} else if err == nil && fi.Size() > MaxSize {
		return bad(1, 1, fmt.Sprintf("file is %s, larger than the %s import reads; a configuration is far smaller: is this the right file?", size(fi.Size()), size(MaxSize)))
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, &Error{Err: fmt.Errorf("cannot read %s: %v", name, unwrap(err))}
	}
	if len(src) > MaxSize {
		return bad(1, 1, fmt.Sprintf("file is larger than the %s import reads; a configuration is far smaller: is this the right file?", size(MaxSize)))
	}
	if line, col, ok := invalidText(src); !ok {
		return bad(line, col, "not a UTF-8 text file (binary or another encoding); save it as UTF-8 and import it again")
	}
	return src, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// invalidText finds the first byte that is not UTF-8 text (a NUL is not
// text either).
func invalidText(src []byte) (line, col int, ok bool) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == 0 || r == utf8.RuneError && n <= 1 {
			return line, col, false
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += n
	}
	return line, col, true
}

// Parse parses src as JSON when it starts as JSON does ({ or [), else as
// YAML; it returns the YAML aliases it expanded. name is the file's name,
// for its extension.
func Parse(src []byte, name string) (*Node, int, error) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	trimmed := bytes.TrimLeft(src, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') || strings.EqualFold(path.Ext(name), ".json") {
		n, err := parseJSON(src)
		return n, 0, err
	}
	return parseYAML(src)
}

// Detect returns the format root is in, and why; nil when it is in none,
// or in more than one (then --from must say).
func Detect(root *Node) (*Format, string) {
	var found *Format
	var why string
	for _, f := range Formats {
		if r := f.detect(root); r != "" {
			if found != nil {
				return nil, ""
			}
			found, why = f, r
		}
	}
	return found, why
}

func detectError(root *Node) error {
	var matched []string
	for _, f := range Formats {
		if f.detect(root) != "" {
			matched = append(matched, f.Name)
		}
	}
	if len(matched) > 1 {
		return &SyntaxError{Pos: root.Pos, Msg: fmt.Sprintf("the content fits more than one format (%s); say which with --from", strings.Join(matched, ", "))}
	}
	// One line: text output escapes a message's line feeds.
	var b strings.Builder
	b.WriteString("not a format charter imports; expected one of: ")
	for i, f := range Formats {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (--from %s): %s", f.Title, f.Name, f.Expect)
	}
	return &SyntaxError{Pos: root.Pos, Msg: b.String()}
}

func problem(file string, err error) diag.Diagnostic {
	d := diag.Diagnostic{File: file, Severity: diag.Error, Rule: "syntax", Message: err.Error()}
	var se *SyntaxError
	if errors.As(err, &se) {
		d.Line, d.Column, d.Message = se.Pos.Line, se.Pos.Col, se.Msg
		if strings.HasPrefix(se.Msg, "not a format") || strings.HasPrefix(se.Msg, "the content fits") {
			d.Rule = "format"
		}
	}
	return d
}

// outDir returns --out relative to the config root, slash-separated; it
// must lie inside the root, where charter reads it.
func outDir(root, out string) (string, error) {
	if out == "" {
		return "", nil
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", &Error{Err: err}
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return "", &Error{Err: err}
	}
	rel, err := filepath.Rel(absRoot, absOut)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &Error{Err: fmt.Errorf("--out %s is outside the config root %s", out, root), Hint: "charter reads only the files under the config root: pass a folder inside it, or the root with -C"}
	}
	rel = filepath.ToSlash(rel)
	for _, part := range strings.Split(rel, "/") {
		if part != "." && load.Skips(part, true) {
			return "", &Error{Err: fmt.Errorf("--out %s is a folder charter does not read (%s)", out, part), Hint: "names that start with . or _, and cue.mod, are left out of the repository"}
		}
	}
	return rel, nil
}

// fileFor is where a declaration is written.
func fileFor(out string, d *Decl) string {
	if out != "" {
		name := d.ID + ".cue"
		if d.Kind != "agents" {
			name = d.ID + "." + strings.ReplaceAll(d.Noun(), "agent type", "type") + ".cue"
		}
		return path.Join(out, name)
	}
	dir := map[string]string{"agents": "agents", "agentTypes": "types", "profiles": "profiles", "presets": "presets", "roles": "roles"}[d.Kind]
	return path.Join(dir, d.ID+".cue")
}

// collide notes a declaration the config root has, or a file the import
// would overwrite.
func (r *Result) collide(root string, d *Decl, user cue.Value) {
	sev := diag.Error
	if r.force {
		sev = diag.Warning
	}
	name := d.Kind + "." + d.ID
	v := user.LookupPath(cue.MakePath(cue.Str(d.Kind), cue.Str(d.ID)))
	var msgs []string
	if v.Exists() {
		where := v.Pos().Filename()
		if where == d.File {
			msgs = append(msgs, fmt.Sprintf("%s is already declared in %s, which the import would overwrite", name, where))
		} else {
			msgs = append(msgs, fmt.Sprintf("%s is already declared in %s; the import would declare it again in %s", name, where, d.File))
		}
	} else if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(d.File))); err == nil {
		msgs = append(msgs, fmt.Sprintf("%s exists; the import would overwrite it", d.File))
	}
	for _, m := range msgs {
		if !r.force {
			m += "; rename the declaration in the source, remove the file, or pass --force"
		}
		r.Collisions = append(r.Collisions, diag.Diagnostic{File: r.Source, Severity: sev, Rule: "exists", Path: name, Message: m})
	}
}

// compare checks the imported agent against the agent.json it came from.
func (r *Result) compare(src []byte, rev *revision.Revision, id string) {
	a, err := rev.Agent(id)
	if err != nil {
		return
	}
	p, err := render.Render(rev.Program, a)
	if err != nil {
		return
	}
	doc, _, err := bundle.AgentDoc(a, p.String())
	if err != nil {
		return
	}
	var orig map[string]any
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	if dec.Decode(&orig) != nil {
		return
	}
	keys := map[string]bool{}
	for k := range orig {
		keys[k] = true
	}
	for k := range doc {
		keys[k] = true
	}
	root, _, _ := Parse(src, ".json")
	r.Equal = true
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}) {
		if m, ok := (&walker{table: agentJSONTable}).lookup(Path{k}); ok && m.to == outside {
			continue
		}
		a, _ := canonjson.Canonical(orig[k])
		b, _ := canonjson.Canonical(doc[k])
		if bytes.Equal(a, b) {
			continue
		}
		r.Equal = false
		e := Entry{Path: k, Why: "differs in the imported agent: the repository's declarations it depends on (type, profile, behavior types, categories) are not those it was built from"}
		if f := fieldOf(root, k); f != nil {
			e.Pos = f.KeyPos
		}
		if _, ok := orig[k]; !ok {
			e.Why = "the imported agent has it, the source does not"
		}
		r.Differs = append(r.Differs, e)
	}
}

// checkLinks refuses, before anything is written, a folder on the way to a
// file that is a symbolic link.
func checkLinks(root string, decls []*Decl) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return &Error{Err: err}
	}
	defer r.Close()
	for _, d := range decls {
		if d.Exists {
			continue
		}
		for dir := path.Dir(d.File); dir != "."; dir = path.Dir(dir) {
			if fi, err := r.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return &Error{Err: fmt.Errorf("cannot write %s: %s is a symbolic link", d.File, dir), Hint: "charter reads no file through a link, so it writes none through one: write into a real folder of the config root"}
			}
		}
	}
	return nil
}

// writeFile writes a file of the config root whole or not at all, making
// its folder. Through os.Root: a link in the root that leads out of it is
// not followed (charter never reads through one either).
func writeFile(root, name string, b []byte) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.MkdirAll(path.Dir(name), 0o755); err != nil {
		return fmt.Errorf("cannot make the folder of %s: %v", name, unwrap(err))
	}
	tmp := path.Join(path.Dir(name), fmt.Sprintf(".import-%d-%s", os.Getpid(), path.Base(name)))
	if err := r.WriteFile(tmp, b, 0o644); err != nil {
		r.Remove(tmp)
		return fmt.Errorf("cannot write %s: %v", name, unwrap(err))
	}
	if err := r.Rename(tmp, name); err != nil {
		r.Remove(tmp)
		return fmt.Errorf("cannot write %s: %v", name, unwrap(err))
	}
	return nil
}
