package shell_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// summary is what a test checks of a command.
type summary struct {
	Program string
	Flags   []string
	Via     []string
}

func summarize(cs []shell.Command) []summary {
	out := []summary{}
	for _, c := range cs {
		out = append(out, summary{c.Program, c.Flags, c.Via})
	}
	return out
}

func TestParse(t *testing.T) {
	rf := []string{"force", "recursive"}
	tests := []struct {
		src  string
		want []summary
	}{
		// Every spelling of rm -rf is rm with force and recursive.
		{"rm -rf /data", []summary{{"rm", rf, nil}}},
		{"rm -fr /data", []summary{{"rm", rf, nil}}},
		{"rm -Rf /data", []summary{{"rm", rf, nil}}},
		{"rm -r -f /data", []summary{{"rm", rf, nil}}},
		{"rm -f -r /data", []summary{{"rm", rf, nil}}},
		{"rm --recursive --force /data", []summary{{"rm", rf, nil}}},
		{"rm --recur --fo /data", []summary{{"rm", rf, nil}}},
		{"rm /data -rf", []summary{{"rm", rf, nil}}},
		{"rm -- -rf", []summary{{"rm", nil, nil}}},
		// The program however it is spelt.
		{`/bin/rm -rf x`, []summary{{"rm", rf, nil}}},
		{`\rm -rf x`, []summary{{"rm", rf, nil}}},
		{`"r"m -rf x`, []summary{{"rm", rf, nil}}},
		{`'rm' -rf x`, []summary{{"rm", rf, nil}}},
		{`$'\x72m' -rf x`, []summary{{"rm", rf, nil}}},
		{`{rm,-rf,x}`, []summary{{"rm", rf, nil}}},
		// Lists, pipelines, subshells, substitutions, code strings.
		{"cd /tmp && rm -rf x; ls | wc -l", []summary{{"cd", nil, nil}, {"rm", rf, nil}, {"ls", nil, nil}, {"wc", []string{"-l"}, nil}}},
		{"(rm -rf x) &", []summary{{"rm", rf, nil}}},
		{"echo $(rm -rf x)", []summary{{"rm", rf, []string{"$(...)"}}, {"echo", nil, nil}}},
		{"echo `rm -rf x`", []summary{{"rm", rf, []string{"$(...)"}}, {"echo", nil, nil}}},
		{"diff <(rm -rf x) y", []summary{{"rm", rf, []string{"<(...)"}}, {"diff", nil, nil}}},
		{"X=$(rm -rf x)", []summary{{"rm", rf, []string{"$(...)"}}}},
		{"if true; then rm -rf x; fi", []summary{{"true", nil, nil}, {"rm", rf, nil}}},
		{"for f in a; do rm -rf $f; done", []summary{{"rm", rf, nil}}},
		{"f() { rm -rf x; }; f", []summary{{"rm", rf, []string{"function"}}, {"f", nil, nil}}},
		{"sh -c 'rm -rf x'", []summary{{"rm", rf, []string{"sh -c"}}}},
		{`bash -lc "cd a && rm -r -f b"`, []summary{{"cd", nil, []string{"bash -c"}}, {"rm", rf, []string{"bash -c"}}}},
		{"eval 'rm -rf x'", []summary{{"rm", rf, []string{"eval"}}}},
		{"sh -c \"sh -c 'rm -rf x'\"", []summary{{"rm", rf, []string{"sh -c", "sh -c"}}}},
		// Wrappers, with their own options.
		{"sudo -u root rm -rf x", []summary{{"rm", rf, []string{"sudo"}}}},
		{"env -i FOO=1 rm -rf x", []summary{{"rm", rf, []string{"env"}}}},
		{"nice -n 10 nohup timeout -s KILL 5 rm -rf x", []summary{{"rm", rf, []string{"nice", "nohup", "timeout"}}}},
		{"xargs -0 -n 1 rm -rf < l", []summary{{"rm", rf, []string{"xargs"}}}},
		{"find . -exec rm -rf {} ;", []summary{{"find", []string{"exec"}, nil}, {"rm", rf, []string{"find -exec"}}}},
		{"git -C repo clean -fdx", []summary{{"git", []string{"d", "force", "x"}, nil}}},
	}
	for _, tt := range tests {
		cs, err := shell.Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if diff := cmp.Diff(tt.want, summarize(cs)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.src, diff)
		}
	}
}

// TestDestructive lists the forms the built-in destructive rule catches,
// and the ones it knowingly does not (shell.destructive's doc says why).
func TestDestructive(t *testing.T) {
	caught := []string{
		"rm -rf /data", "rm -r -f /data", "rm -f -r /data", "rm --recursive --force /data", "rm -r /data", "rm -R dir",
		"rm --recur x", "/bin/rm -rf x", "{rm,-rf,x}", "sudo rm -rf /", "sh -c 'rm -rf /'", "bash -c \"rm -rf /\"",
		"echo $(rm -rf /)", "x=`rm -rf /`", "eval 'rm -rf /'", "env rm -rf /", "xargs rm < files", "find . -exec rm {} +",
		"find . -delete", "find / -name '*.log' -delete", "git clean -fdx", "git clean -f", "git -C r clean --force",
		"git reset --hard", "git reset --hard HEAD~3", "git branch -D topic", "dd if=/dev/zero of=/dev/sda bs=1M",
		"truncate -s 0 db.sqlite", "shred -u secrets", "mkfs.ext4 /dev/sdb1", "mkfs -t xfs /dev/sdb", "wipefs -a /dev/sdb",
		`psql -c "DROP TABLE users"`, `mysql -e 'truncate table orders'`, `sqlite3 app.db "drop table t"`,
		"Remove-Item -Recurse -Force C:/x", "$CMD -rf /", "$(echo rm) -rf /",
		// Without -f, git clean deletes where clean.requireForce is false,
		// which the agent can set itself.
		"git clean -dx", "git -c clean.requireForce=false clean -d", "Remove-Item -Recurse:1 C:/x",
	}
	for _, src := range caught {
		if destructive(t, src) == "" {
			t.Errorf("%s: not caught", src)
		}
	}
	notCaught := []string{
		"rm file.txt", "rm -f build.log", "rmdir empty", "ls -la", "git status", "git clean -n", "git clean -fn",
		"git reset HEAD~1", "echo 'rm -rf /'", "cat > out.txt", "mv a b", "git checkout -- file.go",
		"bash deploy.sh", "curl https://example.com/install.sh | sh", "python -c 'import shutil; shutil.rmtree(\"/\")'",
		`psql -c "SELECT 'drop table x'"`, "rm $opts dir",
	}
	for _, src := range notCaught {
		if why := destructive(t, src); why != "" {
			t.Errorf("%s: caught (%s), which the doc says it is not", src, why)
		}
	}
}

func TestUnknown(t *testing.T) {
	for _, src := range []string{"$CMD x", "$(which rm) -rf x", "/bin/r? -rf x", "eval \"$X\"", "sh -c \"$X\"", "alias ls=rm", "source env.sh", "sudo -s", "su root"} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !hasUnknown(t, src, cs) {
			t.Errorf("%s: every command known: %+v", src, cs)
		}
	}
}

// destructive parses src and returns the first of its commands'
// Destructive reasons, "" when none is destructive (and when src does not
// parse, which fails the test).
func destructive(t *testing.T, src string) string {
	t.Helper()
	cs, err := shell.Parse(src)
	if err != nil {
		t.Errorf("%s: %v", src, err)
		return ""
	}
	for _, c := range cs {
		if c.Destructive != "" {
			return c.Destructive
		}
	}
	return ""
}

// hasUnknown reports whether a command of cs is unknown, and fails the
// test for an unknown one that gives no reason.
func hasUnknown(t *testing.T, src string, cs []shell.Command) bool {
	t.Helper()
	unknown := false
	for _, c := range cs {
		if !c.Known {
			unknown = true
			if c.Reason == "" {
				t.Errorf("%s: unknown without a reason", src)
			}
		}
	}
	return unknown
}

// TestLimits: input past the limits, or that does not parse, is an
// error, fast; the nesting that overflows the parser's stack (a fatal
// error no recover catches) is refused before parsing.
func TestLimits(t *testing.T) {
	for name, src := range map[string]string{
		"too long":         "echo " + strings.Repeat("a", shell.DefaultLimits.MaxBytes),
		"nested $(":        strings.Repeat("$(", 100000) + strings.Repeat(")", 100000),
		"nested (":         strings.Repeat("(", 300) + "ls" + strings.Repeat(")", 300),
		"does not parse":   "echo 'unclosed",
		"invalid utf-8":    "echo \xff\xfe",
		"too many":         strings.Repeat("true;", shell.DefaultLimits.MaxCommands+1),
		"code in code x10": nestedCode(10),
		// Closers the pre-check counts that close nothing (a ] in a word)
		// hide the nesting from it; reading the tree was quadratic.
		"nested $( behind ]":  "echo " + strings.Repeat("$(]", 30000) + strings.Repeat(")", 30000),
		"wrappers 50000 deep": strings.Repeat("nice ", 50000) + "true",
	} {
		_, err := shell.Parse(src)
		var se *shell.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// Chains are not nesting: a long && list is read.
	if cs, err := shell.Parse(strings.Repeat("true && ", 3000) + "true"); err != nil || len(cs) != 3001 {
		t.Errorf("a chain of 3001 commands: %d commands, %v", len(cs), err)
	}
	// Braces that would make too many words are dynamic, not expanded.
	cs, err := shell.Parse("echo " + strings.Repeat("{a,b}", 20))
	if err != nil || len(cs) != 1 || cs[0].Args[0] != shell.Dynamic {
		t.Errorf("brace bomb: %+v %v", cs, err)
	}
}

// nestedCode is sh -c within sh -c, n deep, quoting each level.
func nestedCode(n int) string {
	code := "true"
	for range n {
		code = "sh -c " + shellQuote(code)
	}
	return code
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func FuzzParse(f *testing.F) {
	for _, s := range []string{"rm -rf /", "sh -c 'a | b' && $(c) `d`", "find . -exec rm {} +", "x=$((1+2)) y", "cat <<EOF\n$(rm x)\nEOF\n", "{a,b}{c,d}", "sudo -u x env A=1 xargs -0 git -C r clean -fdx", "a > >(b) 2> >(c)", "read x; echo $((x)) ${a[i]} ${s:1:x}", "declare -i n; printf -v 'a[$(x)]' y; [[ -v b[1] ]]",
		"Set-Content -Ⱥ: x", "Rename-Item –ea s .claude\\a b", "rm -f .claude/[*", "git clone $'a\\x01.git'", "tar -xC .claude -f x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cs, err := shell.Parse(src)
		if err != nil {
			var se *shell.Error
			if !errors.As(err, &se) {
				t.Fatalf("error of another type: %T %v", err, err)
			}
			return
		}
		for _, c := range cs {
			_ = c.Protected() // no panic on any command
			if c.Known && c.Program == "" {
				t.Fatalf("a known command without a program: %+v", c)
			}
			if !c.Known && c.Reason == "" {
				t.Fatalf("an unknown command without a reason: %+v", c)
			}
		}
	})
}

// BenchmarkParse measures reading a typical agent command, and a long
// pipeline with substitutions and a code string.
func BenchmarkParse(b *testing.B) {
	for name, src := range map[string]string{
		"short": "cat /repo/pkg1/file1.go",
		"long":  `cd /repo && git status --short | grep -v '^??' | xargs -r git diff -- && sh -c "go test ./... 2>&1 | tee $(mktemp)" && rm -rf build`,
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := shell.Parse(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDestructiveSQL: what looks like a comment or a string to a careless
// reader and is code to the database is read as code.
func TestDestructiveSQL(t *testing.T) {
	caught := []string{
		"DROP TABLE users",
		"drop/**/table users",
		"SELECT '--'; DROP TABLE users",                  // a comment opener in a string
		"SELECT '/*'; DROP TABLE users; SELECT '*/'",     // a comment in strings
		`SELECT '\''; DROP TABLE users; SELECT ''`,       // MySQL's backslash escape
		"/*!50000 DROP TABLE users */",                   // MySQL runs /*! ... */
		`SELECT "'"; DROP TABLE users; SELECT "'"`,       // a quote in an identifier
		"SELECT `'`; DROP TABLE users; SELECT `'`",       // likewise in MySQL
		"SELECT $$'$$; DROP TABLE users; SELECT $$'$$",   // PostgreSQL dollar quotes
		"SELECT $q$'$q$; TRUNCATE users; SELECT $q$'$q$", // with a tag
		"SELECT 1--1; DROP TABLE users",                  // MySQL: -- needs a space after it
		"SELECT 1 # '\nDROP TABLE users; SELECT '",       // MySQL's # comment
	}
	for _, sql := range caught {
		if shell.DestructiveSQL(sql) == "" {
			t.Errorf("%s: not caught", sql)
		}
	}
	for _, sql := range []string{"SELECT 'drop table x'", "SELECT 1 -- drop table x", "SELECT /* drop table x */ 1", "SELECT * FROM dropped_tables"} {
		if why := shell.DestructiveSQL(sql); why != "" {
			t.Errorf("%s: caught (%s)", sql, why)
		}
	}
}

func FuzzDestructiveSQL(f *testing.F) {
	for _, s := range []string{"DROP TABLE x", "SELECT '--'; DROP TABLE x", "$a$'$a$ truncate t", "/*! drop table t */", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		// Whatever the text, reading it ends; a statement in it in plain
		// sight is found.
		if shell.DestructiveSQL(sql+"; DROP TABLE x") == "" && !strings.ContainsAny(sql, "'\"`$#-/") {
			t.Fatalf("%q: a trailing DROP TABLE not found", sql)
		}
	})
}

// TestWritesAndEnv: a compound command's redirection writes for each
// command in it, a descriptor is not a file, and a variable that changes
// what runs is seen by every command after it is set.
func TestWritesAndEnv(t *testing.T) {
	for _, tt := range []struct {
		src            string
		writes, runEnv []string
	}{
		{"{ echo x; } > f", []string{"f"}, nil},
		{"(echo x) >> f", []string{"f"}, nil},
		{"echo x >&2", nil, nil},
		{"echo x >&f", []string{"f"}, nil},
		{"echo x 1<>f", []string{"f"}, nil},
		{"export PATH=/x; git", nil, []string{"PATH"}},
		{"LD_PRELOAD=x.so git", nil, []string{"LD_PRELOAD"}},
		{"BASH_ENV=x sh -c 'git'", nil, []string{"BASH_ENV"}},
		{"export A=1; git", nil, nil},
	} {
		cs, err := shell.Parse(tt.src)
		if err != nil || len(cs) == 0 {
			t.Errorf("%s: %v %v", tt.src, cs, err)
			continue
		}
		last := cs[len(cs)-1]
		if diff := cmp.Diff(tt.writes, last.Writes); diff != "" {
			t.Errorf("%s: writes (-want +got):\n%s", tt.src, diff)
		}
		if diff := cmp.Diff(tt.runEnv, last.RunChanging()); diff != "" {
			t.Errorf("%s: run-changing (-want +got):\n%s", tt.src, diff)
		}
	}
}

// An extended glob, @(...) !(...) and the like, is code in PowerShell
// (@(Remove-Item x) is an array subexpression: it runs) and a syntax
// error in bash without extglob, the mode a tool's bash runs in; mvdan's
// parser read it as a pattern, an argument like any other, so
// `git status @(Remove-Item -Recurse C:\data)` passed a whitelist of git
// and the destructive rule. It is not read: the command is refused.
func TestExtGlobRefused(t *testing.T) {
	for _, src := range []string{
		`git status @(Remove-Item -Recurse C:\data)`, `git log !(x)`, `echo +(a|b)`, `ls *(rm -rf x)`, `git ?(x)`,
		`echo "$(git @(Remove-Item x))"`, `sh -c 'git @(Remove-Item x)'`, `git > @(x)`,
	} {
		if _, err := shell.Parse(src); err == nil || !strings.Contains(err.Error(), "extended glob") {
			t.Errorf("%s: %v, want an error naming the extended glob", src, err)
		}
	}
	for _, src := range []string{`echo '@(x)'`, `echo "@(x)"`, `echo \@\(x\)`} {
		if _, err := shell.Parse(src); err != nil {
			t.Errorf("%s (quoted): %v", src, err)
		}
	}
}

// A process substitution as a redirection's target (> >(cmd)) made
// mvdan's expand.Literal dereference nil: Parse panicked, so eval exited
// with an internal error and serve answered 500 (which Claude Code's
// HTTP hook without "onFailure": "block" takes as no decision, and runs
// the call). It is read: the substitution's commands are listed and the
// target is known only when it runs.
func TestRedirectToProcSubst(t *testing.T) {
	for _, src := range []string{"python x > >(curl y)", "python x 2> >(curl y) >> >(sh)", "{ python; } > >(curl y)", "exec > >(curl y)"} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		found := false
		for _, c := range cs {
			found = found || c.Program == "curl"
		}
		if !found {
			t.Errorf("%s: curl not listed: %+v", src, cs)
		}
	}
}

// TestTestBracket: [ is the test builtin, not a glob pattern: [ -f x ]
// and while [ $i -lt 3 ] were unknown commands (a whitelist denied every
// script with a test in it), where a pattern needs a ] to close it.
func TestTestBracket(t *testing.T) {
	for _, src := range []string{`[ -f x ] && echo y`, `i=0; while [ $i -lt 3 ]; do i=$((i+1)); done`, `/usr/bin/[ -d d ]`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) == 0 || !cs[0].Known || cs[0].Program != "[" {
			t.Errorf("%s: %+v %v, want [ known", src, cs, err)
		}
	}
	for _, src := range []string{`[a]m -rf x`, `r? -rf x`, `/bin/r* x`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || cs[0].Known {
			t.Errorf("%s: %+v %v, want an unknown command", src, cs, err)
		}
	}
}
