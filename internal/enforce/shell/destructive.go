package shell

import (
	"regexp"
	"slices"
	"strings"
)

// destructive says how a command destroys data, or "". What it catches:
//
//   - rm with -r, -R or --recursive (with or without force), and rm whose
//     files are listed only when it runs (xargs rm, find -exec rm);
//   - find with -delete;
//   - git clean with -f (not -n), git reset --hard, git branch -D;
//   - dd with of=, truncate, shred, wipefs, mkswap, mke2fs and mkfs.*;
//   - PowerShell's Remove-Item (and its aliases) with -Recurse;
//   - SQL that drops or truncates (DestructiveSQL) given to psql -c,
//     mysql -e or sqlite3;
//   - a command whose program is known only when it runs.
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
		case c.Subcommand == "clean" && c.Has("force") && !c.Has("dry-run"):
			return "git clean -f deletes untracked files"
		case c.Subcommand == "reset" && c.Has("hard"):
			return "git reset --hard discards uncommitted changes"
		case c.Subcommand == "branch" && (c.Has("D") || c.Has("delete", "force")):
			return "git branch -D deletes a branch whatever it holds"
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
		for _, f := range c.Flags {
			if f := strings.ToLower(f); len(f) >= 2 && strings.HasPrefix("-recurse", f) {
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

var (
	sqlComment = regexp.MustCompile(`(?s)--[^\n]*|/\*.*?\*/`)
	sqlString  = regexp.MustCompile(`'(?:[^']|'')*'`)
	sqlDrop    = regexp.MustCompile(`(?i)\b(drop\s+(table|database|schema|view|index)|truncate(\s+table)?\s+[\w"` + "`" + `.]+)\b`)
)

// DestructiveSQL says how a SQL text destroys data (DROP TABLE, DATABASE,
// SCHEMA, VIEW or INDEX; TRUNCATE), or "". Comments and string literals
// are left out first: "SELECT 'drop table x'" destroys nothing.
func DestructiveSQL(sql string) string {
	s := sqlString.ReplaceAllString(sqlComment.ReplaceAllString(sql, " "), "''")
	m := sqlDrop.FindString(s)
	if m == "" {
		return ""
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
