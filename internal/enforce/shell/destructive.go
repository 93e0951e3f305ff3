package shell

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// destructive says how a command destroys data, or "". What it catches:
//
//   - rm with -r, -R or --recursive (with or without force), and rm whose
//     files are listed only when it runs (xargs rm, find -exec rm);
//   - find with -delete;
//   - git clean without -n (with -f, or without where clean.requireForce
//     is false), git reset --hard, git branch -D;
//   - git push that deletes (--delete, :BRANCH, --prune) or rewrites
//     (--force, --force-with-lease, --mirror, +REFSPEC, a forced refspec
//     or mirror set with -c) remote branches, and git config setting a
//     remote's forced push refspec or mirror;
//   - dd with of=, truncate, shred, wipefs, mkswap, mke2fs and mkfs.*;
//   - PowerShell's Remove-Item (and its aliases) with -Recurse, or fed by
//     a pipeline (gci -r | ri);
//   - SQL that drops or truncates (DestructiveSQL) given to psql -c,
//     mysql -e or sqlite3;
//   - a command whose program, or the code it is given, is known only
//     when it runs ($CMD, eval "$x", sh -c "$X").
//
// What it knowingly does not: rm of named files without -r (an agent's
// everyday work), an output redirection that overwrites a file (> f),
// mv and cp over files, git checkout and git restore of files, code in
// a script file or read from standard input (bash x.sh, curl | sh: a
// whitelist of programs is the defence), code given to interpreters
// (python -c, node -e), and an option hidden in a variable (rm $opts d).
func destructive(c *Command) string {
	if !c.Known {
		if c.Program == "" {
			// $CMD, eval "$x", sh -c "$X": what runs is known only
			// then. (source f, sudo -s: code in a file or read from
			// input, as bash f and curl | sh, are knowingly not.)
			return "what it runs is known only when it runs"
		}
		return ""
	}
	prog := c.Program
	switch {
	case prog == "rm" || prog == "unlink":
		switch {
		case c.Has("recursive"):
			return "rm -r deletes whole directory trees"
		case c.MoreArgs:
			return "rm deletes files listed only when it runs"
		}
	case prog == "find":
		if c.Has("delete") {
			return "find -delete deletes every file it finds"
		}
	case prog == "git":
		switch {
		case c.Subcommand == "clean" && !c.Has("dry-run"):
			// Without -f too: clean.requireForce=false (git -c, or the
			// repository's config) lets it delete.
			return "git clean deletes untracked files"
		case c.Subcommand == "reset" && c.Has("hard"):
			return "git reset --hard discards uncommitted changes"
		case c.Subcommand == "branch" && (c.Has("D") || c.Has("delete", "force")):
			return "git branch -D deletes a branch whatever it holds"
		case c.Subcommand == "push" && !c.Has("dry-run"):
			return pushDestroys(c)
		case c.Subcommand == "config":
			_, _, rest, _ := gitGlobals(c.Args)
			if key, value, ok := gitConfigSet(rest); ok && forcedPush(key, value) {
				return "git config " + key + " makes every later push a forced one, which rewrites remote history"
			}
		}
	case prog == "dd":
		if _, ok := c.Values["of"]; ok {
			return "dd of= overwrites its output file or device"
		}
	case prog == "truncate":
		return "truncate cuts files short"
	case prog == "shred":
		return "shred overwrites files"
	case prog == "wipefs", prog == "mkswap", prog == "mke2fs", prog == "mkfs", strings.HasPrefix(prog, "mkfs."):
		return prog + " erases a file system"
	case isRemoveItem(prog):
		if c.MoreArgs {
			return "Remove-Item deletes what the pipeline gives it, known only when it runs"
		}
		for _, f := range c.Flags {
			f, _, _ = strings.Cut(strings.ToLower(f), ":") // -Recurse:1
			if len(f) >= 2 && strings.HasPrefix("-recurse", f) {
				return "Remove-Item -Recurse deletes whole directory trees"
			}
		}
	}
	for _, sql := range c.sql() {
		if why := DestructiveSQL(sql); why != "" {
			return why
		}
	}
	return ""
}

// pushDestroys says how a git push deletes or rewrites remote branches:
// --delete, -d or a refspec :BRANCH deletes; --prune deletes what the
// local side lacks; --force, --force-with-lease, --mirror, a refspec
// +SRC:DST, or a forced refspec set with -c for this push rewrites.
func pushDestroys(c *Command) string {
	switch {
	case c.Has("delete"), slices.ContainsFunc(c.Operands, func(o string) bool { return strings.HasPrefix(strings.TrimPrefix(o, "+"), ":") }):
		return "git push --delete deletes a remote branch"
	case c.Has("prune"):
		return "git push --prune deletes the remote branches the local side lacks"
	case c.Has("force"), c.Has("force-with-lease"), c.Has("mirror"), slices.ContainsFunc(c.Operands, func(o string) bool { return strings.HasPrefix(o, "+") }):
		return "git push --force rewrites remote history"
	}
	_, _, _, configs := gitGlobals(c.Args)
	for _, kv := range configs {
		if forcedPush(kv.key, kv.value) {
			return "git -c " + kv.key + " makes this push a forced one, which rewrites remote history"
		}
	}
	return ""
}

// forcedPush reports whether a git setting makes a push forced: a
// remote's push refspec +SRC:DST, or its mirror setting.
func forcedPush(key, value string) bool {
	first, _, _ := strings.Cut(key, ".")
	if first != "remote" {
		return false
	}
	switch {
	case strings.HasSuffix(key, ".push"):
		return strings.HasPrefix(strings.TrimSpace(value), "+") || value == Dynamic
	case strings.HasSuffix(key, ".mirror"):
		v := strings.ToLower(value)
		return v != "false" && v != "no" && v != "off" && v != "0"
	}
	return false
}

func isRemoveItem(prog string) bool {
	switch strings.ToLower(prog) {
	case "remove-item", "ri", "del", "erase", "rd", "rmdir":
		return true
	}
	return false
}

// sql returns the SQL a database client runs from its command line.
func (c *Command) sql() []string {
	switch c.Program {
	case "psql":
		if v, ok := c.Values["command"]; ok {
			return []string{v}
		}
	case "mysql", "mariadb":
		if v, ok := c.Values["execute"]; ok {
			return []string{v}
		}
	case "sqlite3":
		// sqlite3 [options] DATABASE [SQL]...
		if len(c.Operands) > 1 {
			return c.Operands[1:]
		}
	}
	return nil
}

var sqlWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)drop|truncate`) })

var sqlDrop = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(drop\s+(table|database|schema|view|index)|truncate(\s+table)?\s+[\w"` + "`" + `.]+)\b`)
})

// DestructiveSQL says how a SQL text destroys data (DROP TABLE, DATABASE,
// SCHEMA, VIEW or INDEX; TRUNCATE), or "". Comments and string literals
// are left out first: "SELECT 'drop table x'" destroys nothing. Databases
// differ in what quotes and comments are (MySQL's backslash escapes and
// its /*! ... */ that runs, PostgreSQL's $$ strings, quoted identifiers),
// so the text is read each way, and a statement any reading finds counts.
func DestructiveSQL(sql string) string {
	if !sqlWord().MatchString(sql) {
		return ""
	}
	for _, d := range sqlDialects {
		m := sqlDrop().FindString(d.code(sql))
		if m == "" {
			continue
		}
		words := strings.Fields(strings.ToUpper(m))
		if len(words) > 2 {
			words = words[:2]
		}
		if words[0] == "TRUNCATE" && !slices.Contains(words, "TABLE") {
			words = words[:1]
		}
		return strings.Join(words, " ") + " destroys data"
	}
	return ""
}

// sqlDialect is one way of reading quotes in SQL text.
type sqlDialect struct {
	backslash bool // a backslash escapes the next character in a string
	dollar    bool // $tag$ ... $tag$ is a string
	quoted    bool // "..." and `...` are quoted (identifiers or strings)
	mysql     bool // # starts a comment, and -- only when a space follows
}

var sqlDialects = func() []sqlDialect {
	var out []sqlDialect
	for i := range 16 {
		out = append(out, sqlDialect{backslash: i&1 != 0, dollar: i&2 != 0, quoted: i&4 != 0, mysql: i&8 != 0})
	}
	return out
}()

// code returns sql with its comments made a space and its strings and
// quoted names made ” (an unterminated one runs to the end), as d reads
// them. MySQL's /*! ... */ is code.
func (d sqlDialect) code(sql string) string {
	var b strings.Builder
	b.Grow(len(sql))
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && strings.HasPrefix(sql[i:], "--") && (!d.mysql || i+2 == len(sql) || isSQLSpace(sql[i+2])),
			c == '#' && d.mysql:
			end := strings.IndexByte(sql[i:], '\n')
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += end
		case c == '/' && strings.HasPrefix(sql[i:], "/*!"):
			// MySQL runs it: /*!50000 DROP TABLE x */.
			i += 3
			for i < len(sql) && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
			b.WriteByte(' ')
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += 2 + end + 2
		case c == '\'' || d.quoted && (c == '"' || c == '`'):
			i = d.skipQuoted(sql, i+1, c)
			b.WriteString("''")
		case c == '$' && d.dollar:
			tag, ok := dollarTag(sql[i:])
			if !ok {
				b.WriteByte(c)
				i++
				continue
			}
			end := strings.Index(sql[i+len(tag):], tag)
			if end < 0 {
				return b.String() + "''"
			}
			b.WriteString("''")
			i += 2*len(tag) + end
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// skipQuoted returns the index past the quote q that closes the quoted
// text starting at i (a doubled q is one q inside it).
func (d sqlDialect) skipQuoted(sql string, i int, q byte) int {
	for i < len(sql) {
		switch {
		case d.backslash && q != '`' && sql[i] == '\\':
			i += 2
		case sql[i] == q && i+1 < len(sql) && sql[i+1] == q:
			i += 2
		case sql[i] == q:
			return i + 1
		default:
			i++
		}
	}
	return len(sql)
}

// dollarTag returns the $tag$ that s starts with, if it does.
func dollarTag(s string) (string, bool) {
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$':
			return s[:i+1], true
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 1 && c >= '0' && c <= '9' || c >= 0x80:
		default:
			return "", false
		}
	}
	return "", false
}

func isSQLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
