// Package load reads a charter repository's CUE files from an io/fs.FS (the
// working tree, the Git index or a commit) and builds them, beside the
// embedded schema and standard library, into CUE values.
//
// Load never follows symbolic links, skips hidden and underscore-prefixed
// files and folders and cue.mod (as the cue tool does), and turns every
// problem with a file (unreadable, binary, too large, a syntax error) into a
// diagnostic at the file's position rather than failing.
package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/par"
)

// MaxFileSize is the largest .cue file charter reads.
const MaxFileSize = 4 << 20

// MaxDepth is the deepest nesting of structs and lists charter accepts.
const MaxDepth = 64

// MaxExprDepth is the deepest nesting of syntax (fields, values and
// operators: a + b + c is three deep) charter accepts.
const MaxExprDepth = 1000

// File is one parsed user file.
type File struct {
	// Path is relative to the config root, slash-separated.
	Path   string
	Syntax *ast.File
	// Comments are the file's comment groups, and Strings its string
	// literals, in the order ast.Walk visits them: the loader's own walk
	// of the file collects them, so that their readers (lint's ignore
	// comments and secret-literal) need not walk every file again.
	Comments []*ast.CommentGroup
	Strings  []StringLiteral
}

// StringLiteral is a string literal of a file, and the label of its field
// when it is the field's whole value ("" otherwise). Such a field's label
// is not one of the file's string literals (a quoted label of any other
// field is).
type StringLiteral struct {
	Lit   *ast.BasicLit
	Label string
}

// syntaxFacts is what the loader's walk of a file collects besides its
// depth: File.Comments and File.Strings.
type syntaxFacts struct {
	comments []*ast.CommentGroup
	strings  []StringLiteral
}

// Repo is a loaded repository: the user's files and their value, not yet
// unified with the schema.
type Repo struct {
	Files []*File
	// Skipped lists the files left out because of a diagnostic about
	// their content (binary, too large, too deep, a syntax error, another
	// package). Their declarations are missing from Value.
	Skipped []string
	// Value is the user's files unified with each other, and nothing else.
	Value cue.Value
	// Schema is the embedded schema and standard library, built in the same
	// context as Value.
	Schema *Schema
	// Package is the CUE package name the user's files declare.
	Package string
	ctx     *cue.Context
	// sources holds the bytes of every file read, skipped ones too, so
	// positions can be given in characters (Column).
	sources map[string][]byte
	// lineStarts caches each file's line offsets for CharColumn: a file
	// can hold thousands of findings.
	lineMu     sync.Mutex
	lineStarts map[string][]int
}

// Source returns the bytes of a user file as read, by its path relative to
// the config root; false for a file that was not read.
func (r *Repo) Source(path string) ([]byte, bool) {
	b, ok := r.sources[path]
	return b, ok
}

// Column returns the column of pos counted in characters (Unicode code
// points) rather than CUE's UTF-8 bytes, for a position in a user file;
// other positions (the embedded schema and standard library, which are
// ASCII) keep CUE's column.
func (r *Repo) Column(pos token.Pos) int {
	return r.CharColumn(pos.Filename(), pos.Line(), pos.Column())
}

// CharColumn is Column for a file, a line and CUE's byte column.
func (r *Repo) CharColumn(file string, line, col int) int {
	src, ok := r.sources[file]
	if !ok || line <= 0 || col <= 1 {
		return col
	}
	r.lineMu.Lock()
	starts, ok := r.lineStarts[file]
	if !ok {
		starts = []int{0}
		for i, b := range src {
			if b == '\n' {
				starts = append(starts, i+1)
			}
		}
		if r.lineStarts == nil {
			r.lineStarts = map[string][]int{}
		}
		r.lineStarts[file] = starts
	}
	r.lineMu.Unlock()
	if line > len(starts) {
		return col
	}
	return diag.CharColumn(src[starts[line-1]:], 1, col)
}

// Context returns the CUE context the repository was built in.
func (r *Repo) Context() *cue.Context { return r.ctx }

// NoFilesError says the config root holds no .cue files.
type NoFilesError struct{ Root string }

func (e *NoFilesError) Error() string {
	return fmt.Sprintf("no .cue files in %s: run charter in a charter repository, or create one with charter init", e.Root)
}

// ReadError says that files or folders under the config root could not be
// read. charter judges a repository only when it can read all of it: a
// missing file would make its declarations look missing too.
type ReadError struct {
	// Paths are relative to the config root; Errs[i] is why Paths[i]
	// could not be read.
	Paths []string
	Errs  []error
}

func (e *ReadError) Error() string {
	var b strings.Builder
	for i, p := range e.Paths {
		if i == 5 {
			fmt.Fprintf(&b, " and %d more", len(e.Paths)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %v", p, e.Errs[i])
	}
	if len(e.Paths) == 1 {
		b.WriteString("; make it readable, or rename it to start with _ so that charter skips it")
	} else {
		b.WriteString("; make them readable, or rename them to start with _ so that charter skips them")
	}
	return b.String()
}

// Load reads every .cue file of fsys and builds them. root names fsys in
// messages. It returns an error when fsys or a file or folder in it cannot
// be read (a *ReadError) or when it holds no .cue files (a *NoFilesError).
// Problems with the content of single files (binary, too large, too deeply
// nested, a syntax error) are diagnostics, and such files are left out and
// listed in Repo.Skipped.
func Load(fsys fs.FS, root string) (*Repo, []diag.Diagnostic, error) {
	return (*Loader)(nil).Load(fsys, root)
}

// Load is the package's Load, in the loader's context.
func (l *Loader) Load(fsys fs.FS, root string) (*Repo, []diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	paths, notes, err := walk(fsys)
	if err != nil {
		return nil, nil, err
	}
	ds = append(ds, notes...)
	if len(paths) == 0 && len(notes) == 0 {
		return nil, nil, &NoFilesError{Root: root}
	}

	var files []*File
	var skipped []string
	for _, d := range notes {
		if d.Severity == diag.Error {
			skipped = append(skipped, d.File)
		}
	}
	var unreadable ReadError
	pkg := ""
	sources := make(map[string][]byte, len(paths))
	for _, r := range parseAll(fsys, paths) {
		p, f, fds, err := r.path, r.file, r.diags, r.err
		if r.src != nil {
			sources[p] = r.src
		}
		if err != nil {
			unreadable.Paths = append(unreadable.Paths, p)
			unreadable.Errs = append(unreadable.Errs, err)
			continue
		}
		ds = append(ds, fds...)
		if f == nil {
			skipped = append(skipped, p)
			continue
		}
		name := f.Syntax.PackageName()
		switch {
		case name == "":
			// A file without a package clause joins the others.
		case pkg == "":
			pkg = name
		case name != pkg:
			ds = append(ds, diag.Diagnostic{File: p, Line: 1, Column: 1, Severity: diag.Error, Rule: "package",
				Message: fmt.Sprintf("file declares package %s, but other files declare package %s; use one package name (charter suggests %q) in every file", name, pkg, "package charter")})
			skipped = append(skipped, p)
			continue
		}
		files = append(files, f)
	}
	if len(unreadable.Paths) > 0 {
		return nil, nil, &unreadable
	}
	if pkg == "" {
		pkg = "charter"
	}

	ctx, schema, err := l.context(len(files))
	if err != nil {
		return nil, nil, err
	}
	r := &Repo{Files: files, Skipped: skipped, Schema: schema, Package: pkg, ctx: ctx, sources: sources}

	inst := build.NewContext().NewInstance("", nil)
	inst.PkgName = pkg
	for _, f := range files {
		if f.Syntax.PackageName() == "" {
			f.Syntax.Decls = append([]ast.Decl{&ast.Package{Name: ast.NewIdent(pkg)}}, f.Syntax.Decls...)
		}
		if err := inst.AddSyntax(f.Syntax); err != nil {
			ds = append(ds, FromCUE(err, "build", nil)...)
		}
	}
	// Errors in the value (a conflict, a reference to nothing) are
	// validate's to report, in context and in plain words.
	r.Value = ctx.BuildInstance(inst)
	return r, diag.Sort(diag.CharColumns(ds, r.Source)), nil
}

// walk lists the .cue files of fsys in lexical order, skipping what the cue
// tool skips. It notes symbolic links (never followed) and other files that
// are not regular files (never opened: a named pipe would block) as
// warnings, and fails with a *ReadError when a folder cannot be read.
func walk(fsys fs.FS) (paths []string, notes []diag.Diagnostic, err error) {
	paths, _, notes, err = walkEntries(fsys)
	return paths, notes, err
}

// walkEntries is walk that also returns each file's fs.DirEntry.
func walkEntries(fsys fs.FS) (paths []string, entries []fs.DirEntry, notes []diag.Diagnostic, err error) {
	var unreadable ReadError
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			unreadable.Paths = append(unreadable.Paths, p)
			unreadable.Errs = append(unreadable.Errs, unwrapPathError(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if p != "." && Skips(name, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		switch typ := d.Type(); {
		case Reads(name, typ):
			paths = append(paths, p)
			entries = append(entries, d)
		case typ&fs.ModeSymlink != 0:
			if strings.HasSuffix(name, ".cue") || isDirLink(fsys, p) {
				sev, msg := symlinkMessage(fsys, p)
				notes = append(notes, diag.Diagnostic{File: p, Severity: sev, Rule: "symlink", Message: msg})
			}
		case path.Ext(name) == ".cue":
			notes = append(notes, diag.Diagnostic{File: p, Severity: diag.Warning, Rule: "read",
				Message: fmt.Sprintf("not a regular file (%s); not read: charter reads only regular files", fileKind(typ))})
		}
		return nil
	})
	if err == nil && len(unreadable.Paths) > 0 {
		err = &unreadable
	}
	return paths, entries, notes, err
}

// Skips reports whether Load leaves out a file or folder below the config
// root, and all that is in it, by its name: names that start with "." or
// "_" (as the cue tool does) and folders named cue.mod.
func Skips(name string, dir bool) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || dir && name == "cue.mod"
}

// Reads reports whether Load reads a file of the given name and type
// (fs.FileMode.Type) in a folder it does not leave out: a regular file
// named *.cue, not one Skips.
func Reads(name string, typ fs.FileMode) bool {
	return !Skips(name, false) && path.Ext(name) == ".cue" && typ.IsRegular()
}

// fileKind names the type of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return m.Type().String()
}

// LinkReader is implemented by file systems that can say where a symbolic
// link points (the working tree; a Git tree).
type LinkReader interface {
	ReadLink(name string) (string, error)
}

// symlinkMessage says why a symbolic link was not followed. A link that
// leads out of the config root is an error: what it points at is not part
// of the repository (and not the same in every checkout), so the files
// charter reads are not the ones the author meant.
func symlinkMessage(fsys fs.FS, p string) (diag.Severity, string) {
	if lr, ok := fsys.(LinkReader); ok {
		if target, err := lr.ReadLink(p); err == nil {
			if escapes(p, target) {
				return diag.Error, fmt.Sprintf("symbolic link to %s leads out of the config root; not followed: copy what it points at into the repository instead", target)
			}
			return diag.Warning, fmt.Sprintf("symbolic link to %s not followed: charter reads only regular files, so the same bytes are read from the working tree and from Git", target)
		}
	}
	return diag.Warning, "symbolic link not followed: charter reads only regular files, so the same bytes are read from the working tree and from Git"
}

// isDirLink reports whether the link at p may lead to a folder, without
// following it (charter's file systems never do): its target, resolved
// inside the root, is a folder; or it leads out of the root and its name
// has no extension, since what is out there cannot be told.
func isDirLink(fsys fs.FS, p string) bool {
	lr, ok := fsys.(LinkReader)
	if !ok {
		fi, err := fs.Stat(fsys, p)
		return err == nil && fi.IsDir()
	}
	target, err := lr.ReadLink(p)
	if err != nil {
		return false
	}
	if escapes(p, target) {
		return path.Ext(target) == ""
	}
	fi, err := fs.Stat(fsys, path.Join(path.Dir(p), target))
	return err == nil && fi.IsDir()
}

// escapes reports whether a link at p with the given target points outside
// the root.
func escapes(p, target string) bool {
	if path.IsAbs(target) || strings.HasPrefix(target, "/") {
		return true
	}
	joined := path.Join(path.Dir(p), target)
	return joined == ".." || strings.HasPrefix(joined, "../")
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parsed is the outcome of reading and parsing one file.
type parsed struct {
	path  string
	src   []byte
	file  *File
	diags []diag.Diagnostic
	err   error
}

// parseAll reads the files one after the other (fsys need not be safe for
// concurrent use: a Git object store is not always) and parses them on
// every CPU, returning the results in the order of paths.
func parseAll(fsys fs.FS, paths []string) []parsed {
	out := make([]parsed, len(paths))
	srcs := make([][]byte, len(paths))
	for i, p := range paths {
		out[i].path = p
		srcs[i], out[i].diags, out[i].err = readSource(fsys, p)
	}
	par.Each(len(paths), 0, func(i int) {
		if srcs[i] != nil {
			out[i].src = srcs[i]
			out[i].file, out[i].diags = parseSource(paths[i], srcs[i])
		}
	})
	return out
}

// readSource reads one file. A problem with its size is a diagnostic (and
// no source); err says why it could not be read.
func readSource(fsys fs.FS, p string) ([]byte, []diag.Diagnostic, error) {
	bad := func(msg string) ([]byte, []diag.Diagnostic, error) {
		return nil, []diag.Diagnostic{{File: p, Line: 1, Column: 1, Severity: diag.Error, Rule: "read", Message: msg}}, nil
	}
	if fi, err := fs.Stat(fsys, p); err == nil && fi.Size() > MaxFileSize {
		return bad(fmt.Sprintf("file is %s, larger than the %s charter reads; split it into smaller files", humanSize(fi.Size()), humanSize(MaxFileSize)))
	}
	src, err := readFile(fsys, p)
	if err != nil {
		return nil, nil, unwrapPathError(err)
	}
	if len(src) > MaxFileSize {
		return bad(fmt.Sprintf("file is larger than the %s charter reads; split it into smaller files", humanSize(MaxFileSize)))
	}
	if src == nil {
		src = []byte{}
	}
	return src, nil, nil
}

// parseSource parses one file's source. A problem with its content is a
// diagnostic (and no file).
func parseSource(p string, src []byte) (*File, []diag.Diagnostic) {
	if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) {
		line, col := firstInvalid(src)
		return nil, []diag.Diagnostic{{File: p, Line: line, Column: col, Severity: diag.Error, Rule: "read",
			Message: "not a UTF-8 text file (binary or another encoding); save it as UTF-8 text, or rename it so it does not end in .cue"}}
	}
	f, err := parser.ParseFile(p, src, parser.ParseComments)
	if err != nil {
		return nil, []diag.Diagnostic{syntaxError(f, err)}
	}
	for _, d := range f.Decls {
		if e, ok := d.(*ast.EmbedDecl); ok {
			switch e.Expr.(type) {
			case *ast.BasicLit, *ast.ListLit, *ast.Interpolation:
				pos := e.Pos()
				return nil, []diag.Diagnostic{{File: p, Line: pos.Line(), Column: pos.Column(), Severity: diag.Error, Rule: "syntax",
					Message: "a value at the top level of the file: a charter file holds fields (agents: ..., profiles: ...); give the value a field name, or remove it"}}
			}
		}
	}
	facts, pos, path, msg, ok := nesting(f)
	if !ok {
		d := diag.Diagnostic{File: p, Line: 1, Column: 1, Severity: diag.Error, Rule: "depth", Path: dotted(path), Message: msg}
		if pos.IsValid() {
			d.Line, d.Column = pos.Line(), pos.Column()
		}
		if len(path) > 0 {
			d.Message = abbreviate(path) + ": " + msg
		}
		return nil, []diag.Diagnostic{d}
	}
	return &File{Path: p, Syntax: f, Comments: facts.comments, Strings: facts.strings}, nil
}

// readFile reads at most MaxFileSize+1 bytes of a file, so that a file
// that grows after Stat (or whose size Stat does not know) cannot make
// charter read without bound.
func readFile(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// syntaxError reports the first syntax error of a file, in the innermost
// field around it. Only the first: after it the parser guesses how the file
// goes on, and later errors are more often its guesses than the user's.
func syntaxError(f *ast.File, err error) diag.Diagnostic {
	e := cueerrors.Errors(err)[0]
	pos := e.Position()
	d := diag.Diagnostic{Severity: diag.Error, Rule: "syntax", Message: "syntax error: " + msgOf(e)}
	if !pos.IsValid() {
		return d
	}
	d.File, d.Line, d.Column = pos.Filename(), pos.Line(), pos.Column()
	if path := enclosing(f, pos); path != "" {
		d.Path = path
		d.Message = path + ": " + d.Message
	}
	return d
}

// enclosing returns the dotted path of the innermost field of f whose
// source spans pos, or "".
func enclosing(f *ast.File, pos token.Pos) string {
	if f == nil {
		return ""
	}
	var labels []string
	var visit func(decls []ast.Decl)
	visit = func(decls []ast.Decl) {
		for _, d := range decls {
			fl, ok := d.(*ast.Field)
			if !ok || !fl.Pos().IsValid() || !fl.End().IsValid() ||
				pos.Offset() < fl.Pos().Offset() || pos.Offset() > fl.End().Offset() {
				continue
			}
			name, _, err := ast.LabelName(fl.Label)
			if err != nil {
				return
			}
			labels = append(labels, name)
			if st, ok := fl.Value.(*ast.StructLit); ok {
				visit(st.Elts)
			}
			return
		}
	}
	visit(f.Decls)
	return dotted(labels)
}

// abbreviate shortens a long path for a message: its first labels and an
// ellipsis. (The diagnostic's Path holds all of it.)
func abbreviate(labels []string) string {
	const keep = 6
	if len(labels) <= keep+2 {
		return dotted(labels)
	}
	return dotted(labels[:keep]) + "…"
}

func msgOf(e cueerrors.Error) string {
	format, args := e.Msg()
	return fmt.Sprintf(format, args...)
}

func firstInvalid(src []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == 0 || r == utf8.RuneError && n <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col += n
		}
		i += n
	}
	return line, col
}

// nesting finds the first place in f where struct and list literals nest
// more than MaxDepth deep, or expressions more than MaxExprDepth deep
// (a + b + c + ... is as deep as it is long, and CUE's evaluator recurses
// on it). It stops descending there, so it never recurses deeper itself.
// ok is true when f is within both limits. It returns f's comment groups
// too (File.Comments), collected on the way.
func nesting(f *ast.File) (facts syntaxFacts, pos token.Pos, path []string, msg string, ok bool) {
	type frame struct {
		node     ast.Node
		children int
		label    bool // pushed a label
		value    bool // a struct or list literal
	}
	var (
		frames []frame
		labels []string
		values int
		found  bool
		// A field whose value is a string literal: its literal is
		// recorded with the field, and neither it nor anything in its
		// label is recorded again when the walk meets them.
		taken   *ast.BasicLit
		label   ast.Node // the label being walked, while inLabel
		inLabel bool
	)
	before := func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CommentGroup:
			facts.comments = append(facts.comments, n)
			return false
		case *ast.Attribute:
			// Not walked, but a declaration attribute holds the comment
			// after it on its line (ast.Walk visits it right here).
			facts.comments = append(facts.comments, ast.Comments(n)...)
			return false
		case *ast.Comment:
			return false
		case *ast.Field:
			// Nothing in such a field's label is recorded, fields in it
			// included (an expression label may hold a struct).
			if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING && !inLabel {
				name, _, _ := ast.LabelName(n.Label)
				facts.strings = append(facts.strings, StringLiteral{Lit: lit, Label: name})
				taken, label = lit, n.Label
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING && n != taken && !inLabel && ast.Node(n) != label {
				facts.strings = append(facts.strings, StringLiteral{Lit: n})
			}
		}
		if label != nil && n == label {
			inLabel = true
		}
		fr := frame{node: n}
		if len(frames) > 0 {
			parent := &frames[len(frames)-1]
			if _, ok := parent.node.(*ast.ListLit); ok {
				labels = append(labels, "["+strconv.Itoa(parent.children)+"]")
				fr.label = true
			}
			parent.children++
		}
		switch n := n.(type) {
		case *ast.Field:
			name, _, err := ast.LabelName(n.Label)
			if err != nil {
				name = "?"
			}
			labels = append(labels, name)
			fr.label = true
		case *ast.StructLit, *ast.ListLit:
			values++
			fr.value = true
		}
		frames = append(frames, fr)
		switch {
		case values > MaxDepth:
			msg = fmt.Sprintf("values are nested more than %d deep; flatten the structure", MaxDepth)
		case len(frames) > MaxExprDepth:
			msg = fmt.Sprintf("expression is nested more than %d deep; split it into named fields", MaxExprDepth)
		default:
			return true
		}
		found = true
		for i := len(frames) - 1; i >= 0 && !pos.IsValid(); i-- {
			pos = frames[i].node.Pos()
		}
		path = slices.Clone(labels)
		return false
	}
	after := func(n ast.Node) {
		if label != nil && n == label {
			label, inLabel = nil, false
		}
		fr := frames[len(frames)-1]
		frames = frames[:len(frames)-1]
		if fr.label {
			labels = labels[:len(labels)-1]
		}
		if fr.value {
			values--
		}
	}
	ast.Walk(f, before, after)
	return facts, pos, path, msg, !found
}

// dotted renders labels as the one path type does.
func dotted(labels []string) string { return fieldpath.Path(labels).String() }

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// FromCUE converts CUE errors to diagnostics at their first position in a
// user file. rewrite, when not nil, may change each message.
func FromCUE(err error, rule string, rewrite func(cueerrors.Error) string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, e := range cueerrors.Errors(err) {
		pos := UserPos(e)
		var msg string
		if rewrite != nil {
			msg = rewrite(e)
		} else {
			format, args := e.Msg()
			msg = fmt.Sprintf(format, args...)
			if p := e.Path(); len(p) > 0 {
				msg = cuePath(p) + ": " + msg
			}
		}
		d := diag.Diagnostic{Severity: diag.Error, Rule: rule, Message: msg, Path: cuePath(e.Path())}
		if pos.IsValid() {
			d.File, d.Line, d.Column = pos.Filename(), pos.Line(), pos.Column()
		}
		ds = append(ds, d)
	}
	return ds
}

// cuePath renders the path of a CUE error, whose labels are CUE's
// selectors (quoted where needed, list indexes as bare numbers), as the
// one path type does.
func cuePath(sels []string) string {
	p := make(fieldpath.Path, len(sels))
	for i, s := range sels {
		switch {
		case s != "" && strings.Trim(s, "0123456789") == "":
			n, _ := strconv.Atoi(s)
			p[i] = fieldpath.Index(n)
		case strings.HasPrefix(s, `"`):
			if u, err := strconv.Unquote(s); err == nil {
				s = u
			}
			p[i] = s
		default:
			p[i] = s
		}
	}
	return p.String()
}

// UserPos returns the first position of e that lies in a user file (not in
// the embedded schema), or the zero position.
func UserPos(e cueerrors.Error) token.Pos {
	if p := e.Position(); p.IsValid() && !IsEmbedded(p.Filename()) {
		return p
	}
	for _, p := range e.InputPositions() {
		if p.IsValid() && !IsEmbedded(p.Filename()) {
			return p
		}
	}
	return token.NoPos
}

// ValuePos returns where the value of x is written when it is a literal (a
// wrong value is reported there), else where its field's label is.
func ValuePos(x cue.Value) token.Pos {
	if f, ok := x.Source().(*ast.Field); ok {
		if lit, ok := f.Value.(*ast.BasicLit); ok && lit.Pos().IsValid() {
			return lit.Pos()
		}
	}
	return x.Pos()
}
