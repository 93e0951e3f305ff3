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
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/diag"
)

// MaxFileSize is the largest .cue file charter reads.
const MaxFileSize = 4 << 20

// MaxDepth is the deepest nesting of structs and lists charter accepts.
const MaxDepth = 64

// File is one parsed user file.
type File struct {
	// Path is relative to the config root, slash-separated.
	Path   string
	Syntax *ast.File
}

// Repo is a loaded repository: the user's files and their value, not yet
// unified with the schema.
type Repo struct {
	Files []*File
	// Value is the user's files unified with each other, and nothing else.
	Value cue.Value
	// Schema is the embedded schema and standard library, built in the same
	// context as Value.
	Schema *Schema
	// Package is the CUE package name the user's files declare.
	Package string
	ctx     *cue.Context
}

// Context returns the CUE context the repository was built in.
func (r *Repo) Context() *cue.Context { return r.ctx }

// NoFilesError says the config root holds no .cue files.
type NoFilesError struct{ Root string }

func (e *NoFilesError) Error() string {
	return fmt.Sprintf("no .cue files in %s: run charter in a charter repository, or create one with charter init", e.Root)
}

// Load reads every .cue file of fsys and builds them. root names fsys in
// messages. It returns an error only when fsys cannot be read at all or
// holds no .cue files; problems with single files are diagnostics.
func Load(fsys fs.FS, root string) (*Repo, []diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	paths, skipped, err := walk(fsys)
	if err != nil {
		return nil, nil, err
	}
	ds = append(ds, skipped...)
	if len(paths) == 0 && len(skipped) == 0 {
		return nil, nil, &NoFilesError{Root: root}
	}

	var files []*File
	pkg := ""
	for _, p := range paths {
		f, fds := parseFile(fsys, p)
		ds = append(ds, fds...)
		if f == nil {
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
			continue
		}
		files = append(files, f)
	}
	if pkg == "" {
		pkg = "charter"
	}

	ctx := cuecontext.New()
	schema, err := buildSchema(ctx)
	if err != nil {
		return nil, nil, err
	}
	r := &Repo{Files: files, Schema: schema, Package: pkg, ctx: ctx}

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
	r.Value = ctx.BuildInstance(inst)
	if err := r.Value.Err(); err != nil {
		ds = append(ds, FromCUE(err, "cue", nil)...)
	}
	return r, diag.Sort(ds), nil
}

// walk lists the .cue files of fsys in lexical order, skipping what the cue
// tool skips, and reports symbolic links as not followed.
func walk(fsys fs.FS) (paths []string, skipped []diag.Diagnostic, err error) {
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			skipped = append(skipped, diag.Diagnostic{File: p, Severity: diag.Error, Rule: "read",
				Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if name == "cue.mod" {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if strings.HasSuffix(name, ".cue") || isDirLink(fsys, p) {
				skipped = append(skipped, diag.Diagnostic{File: p, Severity: diag.Warning, Rule: "symlink",
					Message: symlinkMessage(fsys, p)})
			}
			return nil
		}
		if path.Ext(name) == ".cue" && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	return paths, skipped, err
}

// LinkReader is implemented by file systems that can say where a symbolic
// link points (the working tree; a Git tree).
type LinkReader interface {
	ReadLink(name string) (string, error)
}

func symlinkMessage(fsys fs.FS, p string) string {
	if lr, ok := fsys.(LinkReader); ok {
		if target, err := lr.ReadLink(p); err == nil {
			if escapes(p, target) {
				return fmt.Sprintf("symbolic link to %s leads out of the config root; not followed: copy the file into the repository instead", target)
			}
			return fmt.Sprintf("symbolic link to %s not followed: charter reads only regular files, so the same bytes are read from the working tree and from Git", target)
		}
	}
	return "symbolic link not followed: charter reads only regular files, so the same bytes are read from the working tree and from Git"
}

func isDirLink(fsys fs.FS, p string) bool {
	fi, err := fs.Stat(fsys, p)
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

// parseFile reads and parses one file, or explains why it cannot.
func parseFile(fsys fs.FS, p string) (*File, []diag.Diagnostic) {
	bad := func(msg string) (*File, []diag.Diagnostic) {
		return nil, []diag.Diagnostic{{File: p, Line: 1, Column: 1, Severity: diag.Error, Rule: "read", Message: msg}}
	}
	if fi, err := fs.Stat(fsys, p); err == nil && fi.Size() > MaxFileSize {
		return bad(fmt.Sprintf("file is %s, larger than the %s charter reads; split it into smaller files", humanSize(fi.Size()), humanSize(MaxFileSize)))
	}
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return bad(fmt.Sprintf("cannot read: %v", unwrapPathError(err)))
	}
	if len(src) > MaxFileSize {
		return bad(fmt.Sprintf("file is %s, larger than the %s charter reads; split it into smaller files", humanSize(int64(len(src))), humanSize(MaxFileSize)))
	}
	if i := strings.IndexByte(string(src), 0); i >= 0 || !utf8.Valid(src) {
		line, col := firstInvalid(src)
		return nil, []diag.Diagnostic{{File: p, Line: line, Column: col, Severity: diag.Error, Rule: "read",
			Message: "not a UTF-8 text file (binary or another encoding); save it as UTF-8 text"}}
	}
	f, err := parser.ParseFile(p, src, parser.ParseComments)
	if err != nil {
		return nil, FromCUE(err, "syntax", nil)
	}
	if d := depth(f); d > MaxDepth {
		return bad(fmt.Sprintf("values are nested %d deep, more than the %d charter accepts; flatten the structure", d, MaxDepth))
	}
	return &File{Path: p, Syntax: f}, nil
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

// depth measures the deepest nesting of struct and list literals.
func depth(f *ast.File) int {
	maxD, d := 0, 0
	ast.Walk(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.StructLit, *ast.ListLit:
			d++
			maxD = max(maxD, d)
		}
		return true
	}, func(n ast.Node) {
		switch n.(type) {
		case *ast.StructLit, *ast.ListLit:
			d--
		}
	})
	return maxD
}

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
		msg := e.Error()
		if rewrite != nil {
			msg = rewrite(e)
		} else {
			format, args := e.Msg()
			msg = fmt.Sprintf(format, args...)
			if p := e.Path(); len(p) > 0 {
				msg = strings.Join(p, ".") + ": " + msg
			}
		}
		d := diag.Diagnostic{Severity: diag.Error, Rule: rule, Message: msg, Path: strings.Join(e.Path(), ".")}
		if pos.IsValid() {
			d.File, d.Line, d.Column = pos.Filename(), pos.Line(), pos.Column()
		}
		ds = append(ds, d)
	}
	return ds
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
