// Package shell reads a shell command line the way the shell would run it,
// without running it: every simple command of every pipeline, list,
// subshell, block, loop and branch, of every command and process
// substitution, of every code string handed to sh -c, bash -c, eval, trap,
// su -c, watch or env -S, and of every command a wrapper runs (env, sudo,
// doas, xargs, nice, nohup, timeout, stdbuf, ionice, setsid, time, command,
// exec, chroot, busybox, find -exec), each with its program, its
// arguments after quote removal and brace expansion, and for the programs
// charter knows (rm, git, find, dd, truncate, the mkfs family, shred,
// wipefs, psql, mysql, sqlite3), its options normalized to their long
// names, so that "rm -rf", "rm -r -f", "rm -fr", "rm --recursive --force",
// "rm --recur --fo" and "rm x -rf" are all rm with force and recursive.
//
// It is built on mvdan.cc/sh/v3's parser (bash syntax). What cannot be
// known without running the command (a program named by a variable or a
// substitution, eval of a dynamic string, alias) is reported, not guessed:
// such a Command has Known false and a Reason, and a caller that judges
// commands treats it as unknown. Input past the limits (Limits) and input
// the parser refuses are errors: a caller judging commands denies them.
package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Command is one simple command the command line would run.
type Command struct {
	// Program is the program's name: the base name of Path ("rm" for
	// /bin/rm, \rm, "r"m and 'rm'), in lower case and without a Windows
	// extension ("git" for GIT and git.exe); empty when Known is false.
	Program string `json:"program"`
	// Path is the program as the shell would look it up, quotes removed.
	Path string `json:"path,omitempty"`
	// Known is false when what runs cannot be known without running the
	// command; Reason says why.
	Known  bool   `json:"known"`
	Reason string `json:"reason,omitempty"`
	// Args are the arguments after the program, quotes removed and braces
	// expanded; an argument known only when the command runs is Dynamic.
	Args []string `json:"args,omitempty"`
	// Subcommand is git's subcommand (commit, push, clean, ...).
	Subcommand string `json:"subcommand,omitempty"`
	// Flags are the options, sorted, each once: for the programs charter
	// knows, by their long names without dashes ("recursive", "force";
	// a short option without a long name is its letter); for others, as
	// written ("-la", "--verbose").
	Flags []string `json:"flags,omitempty"`
	// Values are the values of options that take one, by the same names
	// ("interactive": "never" for rm --interactive=never).
	Values map[string]string `json:"values,omitempty"`
	// Operands are the arguments that are not options (nor their values).
	Operands []string `json:"operands,omitempty"`
	// Via lists what led to the command, outermost first: wrappers
	// ("sudo", "env", "xargs", "find -exec"), code strings ("sh -c",
	// "eval"), substitutions ("$(...)", "<(...)").
	Via []string `json:"via,omitempty"`
	// Env names the variables set for the command: NAME=value before it,
	// or through env or sudo; and those of RunChanging's list set earlier
	// in the command line (PATH=x; export PATH=x; read PATH) or for the
	// shell that runs it (BASH_ENV=x sh -c '...').
	Env []string `json:"env,omitempty"`
	// Writes are the files its output redirections write (> f, >> f, &> f,
	// >&f, <> f), its own or those of a compound command around it
	// ({ ...; } > f).
	Writes []string `json:"writes,omitempty"`
	// Changes are the files the command writes, moves, links, makes
	// executable or deletes, as far as its words say (its Writes, and the
	// files of tee, cp, mv, rm, sed -i, ...: see changes), each joined to
	// the folder an earlier cd of the command line moved to; Dynamic for
	// one named only when the command runs.
	Changes []string `json:"changes,omitempty"`
	// Enters is the folder cd, pushd or Set-Location moves the shell to,
	// joined as Changes are; Dynamic when known only when it runs.
	Enters string `json:"enters,omitempty"`
	// MoreArgs is set when the command gets more arguments when it runs
	// (xargs, find -exec ... +).
	MoreArgs bool `json:"more_args,omitempty"`
	// Destructive says how the command destroys data, "" when charter
	// knows no way it does (see Destructive).
	Destructive string `json:"destructive,omitempty"`
}

// Dynamic stands for an argument known only when the command runs.
const Dynamic = "\x00?"

// Limits bound what Parse reads. A command line past one is an error.
type Limits struct {
	// MaxBytes is the longest command line.
	MaxBytes int
	// MaxNesting bounds the nesting of brackets, braces, parentheses and
	// backquotes, counted before parsing: the parser recurses per level,
	// and a Go stack overflow cannot be recovered from. It also bounds the
	// nesting of the parsed tree (treeDepth) and the wrappers,
	// substitutions and code strings one command is run through.
	MaxNesting int
	// MaxDepth bounds code strings within code strings (sh -c 'sh -c ...').
	MaxDepth int
	// MaxCommands bounds the commands of one command line.
	MaxCommands int
	// MaxBraceWords bounds the words one word's brace expansion makes.
	MaxBraceWords int
}

// DefaultLimits are the limits Parse uses: far above what an agent's
// command needs, far below what costs the parser time.
var DefaultLimits = Limits{MaxBytes: 256 << 10, MaxNesting: 256, MaxDepth: 8, MaxCommands: 10000, MaxBraceWords: 256}

// Error is a command line Parse cannot read, or one past a limit.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Parse returns every simple command the command line src would run, in
// the order they appear, within DefaultLimits.
func Parse(src string) ([]Command, error) { return DefaultLimits.Parse(src) }

// Parse returns every simple command the command line src would run,
// within the limits l.
func (l Limits) Parse(src string) ([]Command, error) {
	if len(src) > l.MaxBytes {
		return nil, &Error{Msg: fmt.Sprintf("the command is %d bytes, more than the %d charter reads", len(src), l.MaxBytes)}
	}
	if n := nesting(src); n > l.MaxNesting {
		return nil, &Error{Msg: fmt.Sprintf("the command nests brackets, parentheses or backquotes %d deep, more than the %d charter reads", n, l.MaxNesting)}
	}
	r := &reader{l: l}
	if err := r.source(src, nil, 0); err != nil {
		return nil, err
	}
	dir := ""
	for i := range r.out {
		c := &r.out[i]
		c.Destructive = destructive(c)
		c.Changes = changes(c, dir)
		if next, ok := cdTarget(c, dir); ok {
			c.Enters, dir = next, next
		}
	}
	return r.out, nil
}

// nesting is an upper bound of the command's syntactic nesting: the
// running count of opening brackets, braces and parentheses, and of
// backquote pairs, quotes ignored.
func nesting(s string) int {
	depth, most, inBackquote := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth = max(depth-1, 0)
		case '`':
			if inBackquote = !inBackquote; inBackquote {
				depth++
			} else {
				depth = max(depth-1, 0)
			}
		}
		most = max(most, depth)
	}
	return most
}

// reader collects the commands of one command line.
type reader struct {
	l   Limits
	out []Command
	// vars are the variables set for the commands read from here on:
	// set earlier in the command line (PATH=x; export PATH=x; read
	// PATH), or for the shell that runs a code string (PATH=x sh -c ...).
	vars []string
	// writes are the files a redirection of an enclosing compound
	// command ({ ...; } > f, if ... fi > f) has its commands write.
	writes []string
	// src is the code string being read (for a script block's text).
	src string
	// stdin is the text a here-document or here-string of the simple
	// command being read gives its standard input (Dynamic: with
	// expansions), "" for none: the code a shell reads without -c.
	stdin string
	// piped is set while the commands on the right of a pipe are read:
	// PowerShell's cmdlets take the objects it carries as arguments.
	piped bool
	// nums are the facts about the variables of the code string being
	// read that decide whether arithmetic on them can run a command.
	nums numbers
}

// source parses src, a command line or a code string within one, and
// reads its statements.
func (r *reader) source(src string, via []string, depth int) error {
	if depth > r.l.MaxDepth {
		return &Error{Msg: fmt.Sprintf("code strings are nested more than %d deep (sh -c within sh -c ...)", r.l.MaxDepth)}
	}
	if len(src) > r.l.MaxBytes || nesting(src) > r.l.MaxNesting {
		return &Error{Msg: "a code string within the command is past charter's limits"}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return &Error{Msg: "the command does not parse as a shell command", Err: err}
	}
	// The pre-check counts brackets, and a closer that closes nothing
	// (a ']' in a word, a quoted ')') hides nesting from it: the tree's
	// own depth decides, before the tree is read (reading it costs more
	// per level than parsing it).
	if treeDepth(f, r.l.MaxNesting) > r.l.MaxNesting {
		return &Error{Msg: fmt.Sprintf("the command nests commands, substitutions or expressions more than %d deep, more than charter reads", r.l.MaxNesting)}
	}
	if g := extGlob(f); g != nil {
		// PowerShell runs @(...) as code; bash without extglob (a
		// tool's bash) refuses it. Read as a pattern, it hid a command.
		return &Error{Msg: fmt.Sprintf("the command holds an extended glob %s...), which PowerShell runs as code and bash without extglob refuses; charter does not read it: quote it, or write the command without it", g.Op)}
	}
	// ${NAME:=value}, ${NAME=value}, for NAME in and select NAME in set
	// NAME where they run: taken as set for the whole string, which
	// errs on the side of caution (CDPATH, PATH...).
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			if x.Param != nil && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
				r.setVar(x.Param.Value)
			}
		case *syntax.WordIter:
			if x.Name != nil {
				r.setVar(x.Name.Value)
			}
		}
		return true
	})
	outer, outerSrc := r.nums, r.src
	r.nums, r.src = scanNumbers(f), src
	defer func() { r.nums, r.src = outer, outerSrc }()
	if why := r.evaluated(f); why != "" {
		if len(r.out) >= r.l.MaxCommands {
			return &Error{Msg: fmt.Sprintf("the command runs more than %d commands", r.l.MaxCommands)}
		}
		r.out = append(r.out, Command{Reason: why, Via: slices.Clone(via)})
	}
	return r.stmts(f.Stmts, via, depth)
}

// extGlob returns the first extended glob in the tree, or nil.
func extGlob(node syntax.Node) *syntax.ExtGlob {
	var g *syntax.ExtGlob
	syntax.Walk(node, func(n syntax.Node) bool {
		if e, ok := n.(*syntax.ExtGlob); ok && g == nil {
			g = e
		}
		return g == nil
	})
	return g
}

// treeDepth is how deeply the syntax tree at node nests commands,
// substitutions and expressions, counted up to limit+1. Chains (a && b
// && c, a | b, 1+2+3), which the tree holds as nested pairs, count once.
func treeDepth(node syntax.Node, limit int) int {
	depth, most := 0, 0
	var counted []bool
	syntax.Walk(node, func(n syntax.Node) bool {
		if n == nil {
			if counted[len(counted)-1] {
				depth--
			}
			counted = counted[:len(counted)-1]
			return true
		}
		if most > limit {
			return false
		}
		nests := false
		switch n.(type) {
		case *syntax.Stmt, *syntax.BinaryCmd, *syntax.BinaryArithm, *syntax.BinaryTest, *syntax.Word, *syntax.CallExpr,
			*syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted, *syntax.Assign, *syntax.Redirect, *syntax.File, *syntax.CaseItem:
		default:
			nests = true
		}
		if nests {
			depth++
			most = max(most, depth)
		}
		counted = append(counted, nests)
		return true
	})
	return most
}

func (r *reader) stmts(list []*syntax.Stmt, via []string, depth int) error {
	for _, s := range list {
		if err := r.stmt(s, via, depth); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) stmt(s *syntax.Stmt, via []string, depth int) error {
	if s == nil {
		return nil
	}
	for _, rd := range s.Redirs {
		if err := r.substitutions(rd.Word, via, depth); err != nil {
			return err
		}
		if err := r.substitutions(rd.Hdoc, via, depth); err != nil {
			return err
		}
	}
	if _, simple := s.Cmd.(*syntax.CallExpr); !simple {
		// A redirection of a compound command is one of every command
		// within it.
		if w := writes(s.Redirs); len(w) > 0 {
			outer := r.writes
			r.writes = append(slices.Clip(outer), w...)
			defer func() { r.writes = outer }()
		}
	}
	switch c := s.Cmd.(type) {
	case nil:
		if w := writes(s.Redirs); len(w) > 0 {
			// > f alone truncates or makes f, as : > f does.
			return r.command([]string{":"}, nil, w, via, depth)
		}
		return nil
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			if err := r.substitutions(a, via, depth); err != nil {
				return err
			}
			if err := r.assignedCommand(a, via, depth); err != nil {
				return err
			}
		}
		for _, w := range c.Args {
			if err := r.substitutions(w, via, depth); err != nil {
				return err
			}
		}
		if len(c.Args) == 0 {
			// NAME=value alone sets it for the commands after it.
			for _, a := range c.Assigns {
				r.assigned(a)
			}
			if w := writes(s.Redirs); len(w) > 0 {
				// > f alone truncates or makes f, as : > f does.
				return r.command([]string{":"}, nil, w, via, depth)
			}
			return nil
		}
		argv := make([]string, 0, len(c.Args))
		for i, w := range c.Args {
			fs := r.fields(w)
			if i > 0 && len(fs) == 1 && powerShellPaths(argv[0]) {
				// PowerShell's \ is a path separator, not an escape:
				// sc .claude\settings.json writes .claude/settings.json.
				if lit, ok := w.Parts[0].(*syntax.Lit); ok && len(w.Parts) == 1 && strings.Contains(lit.Value, `\`) {
					fs = []string{lit.Value}
				}
			}
			argv = append(argv, fs...)
		}
		if code, ok := scriptBlock(r.src, c.Args); ok && !powerShellValue(code) {
			// PowerShell runs a script block given to a command.
			if err := r.source(code, append(slices.Clip(via), "{ script block }"), depth+1); err != nil {
				return err
			}
		}
		var env []string
		for _, a := range c.Assigns {
			if a.Name != nil {
				env = append(env, a.Name.Value)
			}
		}
		outer := r.stdin
		r.stdin = stdinText(s.Redirs)
		defer func() { r.stdin = outer }()
		return r.command(argv, env, writes(s.Redirs), via, depth)
	case *syntax.BinaryCmd:
		if err := r.stmt(c.X, via, depth); err != nil {
			return err
		}
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			outer := r.piped
			r.piped = true
			defer func() { r.piped = outer }()
		}
		return r.stmt(c.Y, via, depth)
	case *syntax.Subshell:
		return r.stmts(c.Stmts, via, depth)
	case *syntax.Block:
		return r.stmts(c.Stmts, via, depth)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			if err := r.stmts(ic.Cond, via, depth); err != nil {
				return err
			}
			if err := r.stmts(ic.Then, via, depth); err != nil {
				return err
			}
		}
		return nil
	case *syntax.WhileClause:
		if err := r.stmts(c.Cond, via, depth); err != nil {
			return err
		}
		return r.stmts(c.Do, via, depth)
	case *syntax.ForClause:
		if err := r.substitutions(c.Loop, via, depth); err != nil {
			return err
		}
		return r.stmts(c.Do, via, depth)
	case *syntax.CaseClause:
		if err := r.substitutions(c.Word, via, depth); err != nil {
			return err
		}
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				if err := r.substitutions(p, via, depth); err != nil {
					return err
				}
			}
			if err := r.stmts(it.Stmts, via, depth); err != nil {
				return err
			}
		}
		return nil
	case *syntax.FuncDecl:
		// A function's body runs when it is called: its commands are
		// listed as if it were.
		return r.stmt(c.Body, append(slices.Clip(via), "function"), depth)
	case *syntax.TimeClause:
		return r.stmt(c.Stmt, via, depth)
	case *syntax.CoprocClause:
		return r.stmt(c.Stmt, append(slices.Clip(via), "coproc"), depth)
	case *syntax.DeclClause:
		// export, declare, local, readonly, typeset: builtins that set
		// variables for the commands after them.
		for _, a := range c.Args {
			r.assigned(a)
			if err := r.assignedCommand(a, via, depth); err != nil {
				return err
			}
			// declare -n ref=GIT_SSH_COMMAND: what ref is later set to
			// is the command.
			if a.Name != nil && a.Value != nil && r.nums.attr[a.Name.Value] == 'n' {
				if target, ok := literal(a.Value); ok && slices.Contains(commandVars, target) {
					if err := r.commandVar(target, Dynamic, via, depth); err != nil {
						return err
					}
				}
			}
		}
		return r.substitutions(c, via, depth)
	default:
		// Declarations, arithmetic, [[ ]], let: builtins; only their
		// substitutions run commands.
		return r.substitutions(c, via, depth)
	}
}

// substitutions reads the commands of the command and process
// substitutions within node (a word, an assignment, an expression).
func (r *reader) substitutions(node syntax.Node, via []string, depth int) error {
	if node == nil {
		return nil
	}
	if w, ok := node.(*syntax.Word); ok && w == nil {
		return nil
	}
	var err error
	syntax.Walk(node, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch s := n.(type) {
		case *syntax.CmdSubst:
			err = r.stmts(s.Stmts, append(slices.Clip(via), "$(...)"), depth)
			return false
		case *syntax.ProcSubst:
			err = r.stmts(s.Stmts, append(slices.Clip(via), "<(...)"), depth)
			return false
		}
		return true
	})
	return err
}

// fields expands a word as the shell would, statically: quote removal,
// escapes, $'...', brace expansion and ~. A word that holds a parameter,
// a substitution or arithmetic is one Dynamic field.
func (r *reader) fields(w *syntax.Word) []string {
	if dynamicWord(w) {
		if v, ok := powerShellBool(w); ok {
			return []string{v} // -Recurse:$true
		}
		return []string{Dynamic}
	}
	split := *w
	if syntax.SplitBraces(&split) && braceWords(split.Parts) > r.l.MaxBraceWords {
		return []string{Dynamic}
	}
	fs, err := expand.Fields(&expand.Config{Env: homeOnly, NoUnset: true}, w)
	if err != nil {
		return []string{Dynamic}
	}
	return fs
}

// homeOnly is an environment where only ~ expands, to itself: the command
// is read, not run.
var homeOnly = expand.FuncEnviron(func(name string) string {
	if user, ok := strings.CutPrefix(name, "HOME"); ok {
		return "~" + strings.TrimSpace(user)
	}
	return ""
})

// braceWords is how many words brace expansion makes of parts: the
// product of each brace's alternatives.
func braceWords(parts []syntax.WordPart) int {
	n := 1
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		k := 0
		if b.Sequence {
			k = sequenceLen(b)
		} else {
			for _, e := range b.Elems {
				k += braceWords(e.Parts)
			}
		}
		n *= max(k, 1)
		if n > 1<<20 {
			return n
		}
	}
	return n
}

// sequenceLen is the length of {a..b} (letters or numbers), at most 2^20.
func sequenceLen(b *syntax.BraceExp) int {
	if len(b.Elems) < 2 {
		return 1
	}
	from, to := b.Elems[0].Lit(), b.Elems[1].Lit()
	var x, y int
	if _, err := fmt.Sscan(from, &x); err == nil {
		if _, err := fmt.Sscan(to, &y); err == nil {
			return min(abs(y-x)+1, 1<<20+1)
		}
	}
	if len(from) == 1 && len(to) == 1 {
		return abs(int(to[0])-int(from[0])) + 1
	}
	return 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// stdinText returns what a here-document (<<, <<-) or here-string (<<<)
// among the redirections gives standard input, the last one winning as
// in bash: its text, Dynamic when it holds an expansion, "" for none.
func stdinText(rs []*syntax.Redirect) string {
	text := ""
	for _, rd := range rs {
		var w *syntax.Word
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			w = rd.Hdoc
		case syntax.WordHdoc:
			w = rd.Word
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			text = "" // a file: not on the command line
			continue
		default:
			continue
		}
		if w == nil {
			text = ""
			continue
		}
		lit, ok := literal(w)
		if !ok {
			lit = Dynamic
		}
		text = lit
	}
	return text
}

// writes returns the targets of a statement's output redirections.
func writes(rs []*syntax.Redirect) []string {
	var out []string
	for _, rd := range rs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob, syntax.RdrInOut, syntax.DplOut:
			if rd.Word == nil {
				continue
			}
			lit, ok := literal(rd.Word)
			if !ok {
				lit = Dynamic
			}
			if rd.Op == syntax.DplOut && (lit == "-" || strings.Trim(lit, "0123456789-") == "" && lit != "") {
				continue // >&2, >&-: a descriptor, not a file
			}
			out = append(out, lit)
		}
	}
	return out
}

// dynamicWord reports whether a word holds what only running the command
// gives: a parameter, a substitution, arithmetic or an extended glob.
func dynamicWord(w *syntax.Word) bool {
	dynamic := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			dynamic = true
		}
		return !dynamic
	})
	return dynamic
}

// literal is a word's value when it holds no expansion.
func literal(w *syntax.Word) (string, bool) {
	// Expansions first: expand.Literal dereferences nil on a process
	// substitution (> >(cmd)), which Config does not say how to run.
	if dynamicWord(w) {
		return "", false
	}
	s, err := expand.Literal(&expand.Config{Env: homeOnly, NoUnset: true}, w)
	if err != nil {
		return "", false
	}
	return s, true
}

// command reads one simple command: its wrappers, code strings and the
// program it runs.
func (r *reader) command(argv, env, writes, via []string, depth int) error {
	if len(r.out) >= r.l.MaxCommands {
		return &Error{Msg: fmt.Sprintf("the command runs more than %d commands", r.l.MaxCommands)}
	}
	if len(via) > r.l.MaxNesting {
		return &Error{Msg: fmt.Sprintf("the command runs a command through more than %d wrappers, substitutions and code strings", r.l.MaxNesting)}
	}
	if r.piped {
		// gci -r | ri: Remove-Item deletes what the pipeline gives it.
		n := len(r.out)
		defer func() {
			for k := n; k < len(r.out); k++ {
				if c := &r.out[k]; c.Known && (isRemoveItem(c.Program) || c.Program == "rm") && len(c.Operands) == 0 {
					c.MoreArgs = true
				}
			}
		}()
	}
	c := Command{Env: addNames(slices.Clone(env), r.vars...), Writes: addNames(slices.Clone(writes), r.writes...), Via: slices.Clone(via)}
	prog := argv[0]
	if prog == Dynamic {
		c.Reason = "the program is named by a variable or a substitution: it is known only when the command runs"
		c.Args = argv[1:]
		r.out = append(r.out, c)
		return nil
	}
	c.Path, c.Program = prog, programName(prog)
	// A [ that no ] closes is no pattern: [ is test.
	if i := strings.IndexByte(c.Program, '['); strings.ContainsAny(c.Program, "*?") || i >= 0 && strings.IndexByte(c.Program[i+1:], ']') >= 0 {
		c.Program, c.Reason = "", "the program's name is a glob pattern: it is known only when the command runs"
		c.Args = argv[1:]
		r.out = append(r.out, c)
		return nil
	}
	c.Known = true
	c.Args = argv[1:]
	if w, ok := wrappers[c.Program]; ok {
		return w(r, c, via, depth)
	}
	switch c.Program {
	case "alias", "unalias", "enable", "shopt", "hash", "source", ".":
		c.Known, c.Reason = false, fmt.Sprintf("%s changes what later commands run, or runs a file charter does not read", c.Program)
	case "export", "declare", "typeset", "local", "readonly", "read", "printf", "mapfile", "readarray", "getopts":
		// Builtins that set the variables their arguments name.
		for _, a := range c.Args {
			name, _, _ := strings.Cut(strings.TrimPrefix(a, "-v"), "=")
			r.setVar(name)
			if _, v, ok := strings.Cut(a, "="); ok {
				r.setVar(v) // declare -n ref=PATH
			}
		}
		if err := r.builtinSetsCommandVar(c, via, depth); err != nil {
			return err
		}
	}
	if why := r.builtinNames(&c); why != "" {
		c.Program, c.Known, c.Reason = "", false, why
	}
	if c.Known {
		n := len(r.out)
		c.normalize()
		r.out = append(r.out, c)
		if err := r.readsCode(c, via, depth); err != nil {
			return err
		}
		if len(r.out) > n+1 {
			return nil
		}
		r.out = r.out[:n]
	}
	if c.Program == "mapfile" || c.Program == "readarray" {
		// -C CODE: code the builtin evaluates for every few lines read.
		if code := clusterValues(c.Args, "dnOsuCc", 'C'); len(code) > 0 {
			c.normalize()
			r.out = append(r.out, c)
			return r.code(c, code[0], c.Program+" -C", via, depth)
		}
	}
	c.normalize()
	r.out = append(r.out, c)
	return nil
}

// programName is the name of the program a command's path names, as the
// systems that run agents find it: its base name, in lower case (macOS and
// Windows find GIT as git), without the extension Windows adds (git.exe).
func programName(p string) string {
	name := strings.ToLower(path.Base(p))
	for _, ext := range []string{".exe", ".com", ".bat", ".cmd"} {
		if n, ok := strings.CutSuffix(name, ext); ok && n != "" {
			return n
		}
	}
	return name
}

// code reads a code string that c runs (sh -c CODE, eval CODE).
func (r *reader) code(c Command, src, how string, via []string, depth int) error {
	if src == Dynamic {
		// As $CMD: the program that runs is in the code.
		c.Program, c.Known, c.Reason = "", false, fmt.Sprintf("%s runs code known only when the command runs", how)
		r.out = append(r.out, c)
		return nil
	}
	// The variables set for the shell that runs the code (BASH_ENV=x
	// sh -c ...) are set for every command in it; a here-document of
	// the command that runs it is not theirs.
	outer, outerIn := r.vars, r.stdin
	r.vars, r.stdin = addNames(slices.Clip(outer), c.Env...), ""
	defer func() { r.vars, r.stdin = outer, outerIn }()
	return r.source(src, append(slices.Clip(via), how), depth+1)
}

// assignedCommand reads the command an assignment to a variable of
// commandVars names (GIT_SSH_COMMAND='...').
func (r *reader) assignedCommand(a *syntax.Assign, via []string, depth int) error {
	if a.Name == nil || a.Value == nil || !slices.Contains(commandVars, a.Name.Value) {
		return nil
	}
	v, ok := literal(a.Value)
	if !ok {
		v = Dynamic
	}
	return r.commandVar(a.Name.Value, v, via, depth)
}

// assigned notes the variable an assignment sets (and, for a name
// reference, declare -n ref=PATH, the one it refers to).
func (r *reader) assigned(a *syntax.Assign) {
	if a.Name != nil && !a.Naked {
		r.setVar(a.Name.Value)
	}
	if a.Value != nil {
		if v, ok := literal(a.Value); ok {
			r.setVar(strings.TrimPrefix(v, "-n"))
		}
	}
}

// setVar notes that name, when it is a variable that changes what runs
// (RunChanging) or where cd goes (CDPATH), is set for the commands read
// from here on.
func (r *reader) setVar(name string) {
	if runChanging(name) || name == "CDPATH" {
		r.vars = addNames(r.vars, name)
	}
}

// addNames adds the names not in list yet.
func addNames(list []string, names ...string) []string {
	for _, n := range names {
		if !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	return list
}

// then reads the command a wrapper runs, argv (empty: the wrapper runs
// none, and is listed itself).
func (r *reader) then(c Command, argv []string, how string, via []string, depth int) error {
	if len(argv) == 0 {
		c.normalize()
		r.out = append(r.out, c)
		return nil
	}
	return r.command(argv, c.Env, c.Writes, append(slices.Clip(via), how), depth)
}
