package review

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// Declaration is one declaration's file and owners, for CODEOWNERS.
type Declaration struct {
	// What is the declaration, "agents.coder"; File its file relative to
	// the top of the repository, slash-separated.
	What   string
	File   string
	Owners []string
}

// Declarations lists each user-declared agent, agent type, profile and
// role of c with its owners as review counts them (an agent's: those who
// may approve its widening), at the file where locate finds it (""
// leaves it out: a declaration of the standard library).
func Declarations(c *model.Config, locate func(kind, name string) string) []Declaration {
	var out []Declaration
	add := func(kind, name string, owners []string) {
		if c.Builtin[kind+"."+name] {
			return
		}
		if f := locate(kind, name); f != "" {
			out = append(out, Declaration{What: kind + "." + name, File: f, Owners: owners})
		}
	}
	for _, id := range model.Sorted(c.Agents) {
		add("agents", id, c.Approvers(id))
	}
	for _, n := range model.Sorted(c.AgentTypes) {
		add("agentTypes", n, c.TypeOwners(n))
	}
	for _, n := range model.Sorted(c.Profiles) {
		add("profiles", n, c.ProfileOwners(n))
	}
	for _, n := range model.Sorted(c.Roles) {
		add("roles", n, c.RoleOwners(n))
	}
	return out
}

// CodeOwners is a CODEOWNERS file: the repository's owners for the whole
// config root, then each file that declares something with the union of
// its declarations' owners (GitHub takes the last line that matches a
// file, so the files' lines come after the root's).
type CodeOwners struct {
	Root  string
	Lines []CodeOwnersLine
	// Skipped are files whose path CODEOWNERS cannot express.
	Skipped []string
}

// CodeOwnersLine is one pattern and its owners.
type CodeOwnersLine struct {
	Pattern string
	Owners  []string
	// Declares lists what the file declares, for the comment above it.
	Declares []string
}

// BuildCodeOwners maps each file to its owners. root is the config root
// relative to the top of the repository ("." for the top).
func BuildCodeOwners(c *model.Config, root string, decls []Declaration) *CodeOwners {
	co := &CodeOwners{Root: root}
	if len(c.Repository.Owners) > 0 {
		p := "/"
		if root != "." && root != "" {
			p = "/" + strings.Trim(root, "/") + "/"
		}
		if pat, ok := pattern(p); ok {
			co.Lines = append(co.Lines, CodeOwnersLine{Pattern: pat, Owners: handles(c, c.Repository.Owners), Declares: []string{"the config root"}})
		} else {
			co.Skipped = append(co.Skipped, root)
		}
	}
	byFile := map[string]*CodeOwnersLine{}
	var files []string
	for _, d := range decls {
		l, ok := byFile[d.File]
		if !ok {
			l = &CodeOwnersLine{}
			byFile[d.File] = l
			files = append(files, d.File)
		}
		l.Declares = append(l.Declares, d.What)
		for _, h := range handles(c, d.Owners) {
			if !slices.Contains(l.Owners, h) {
				l.Owners = append(l.Owners, h)
			}
		}
	}
	slices.Sort(files)
	for _, f := range files {
		l := byFile[f]
		if len(l.Owners) == 0 {
			continue
		}
		pat, ok := pattern("/" + path.Clean(f))
		if !ok {
			co.Skipped = append(co.Skipped, f)
			continue
		}
		l.Pattern = pat
		co.Lines = append(co.Lines, *l)
	}
	return co
}

// pattern escapes a path for CODEOWNERS; ok is false for one GitHub
// cannot match exactly (its patterns have no escape for #, !, [ or a
// line break, and treat * and ? as wildcards).
func pattern(p string) (string, bool) {
	if strings.ContainsAny(p, "#![]*?\\\n\r\t\x00") {
		return "", false
	}
	return strings.ReplaceAll(p, " ", `\ `), true
}

// handles writes owners as CODEOWNERS takes them: @user, @org/team or an
// address; a person as their GitHub handle, else their address.
func handles(c *model.Config, owners []string) []string {
	var out []string
	for _, o := range owners {
		if p, ok := c.People[o]; ok {
			o = p.GitHub
			if o == "" {
				o = p.Email
			}
		}
		if o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// Write prints the file.
func (co *CodeOwners) Write(w io.Writer) error {
	fmt.Fprintf(w, "# Written by charter codeowners from the owners the declarations name:\n# regenerate it rather than edit it.\n")
	for _, l := range co.Lines {
		// A name could hold a line break: the comment keeps to one line.
		fmt.Fprintf(w, "\n# %s\n%s %s\n", strings.Map(oneLine, strings.Join(l.Declares, ", ")), l.Pattern, strings.Join(l.Owners, " "))
	}
	return nil
}

func oneLine(r rune) rune {
	if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == 0x85 {
		return ' '
	}
	return r
}
