package main

import (
	"fmt"
	"path"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/release/review"
)

type codeownersOptions struct {
	revFlags
}

func newCodeownersCmd(g *globals) *cobra.Command {
	o := &codeownersOptions{}
	cmd := &cobra.Command{
		Use:   "codeowners",
		Short: "Write a CODEOWNERS file from the owners the declarations name",
		Long: `codeowners prints a CODEOWNERS file (GitHub's syntax): the repository's
owners for the whole config root, then each file that declares an agent,
an agent type, a profile or a role with its owners, as charter review
counts them (an agent's file: the agent's owners and those of the agent
or role it reports to). A person declared under people is written as
their GitHub handle, else their address. Put it in .github/CODEOWNERS and
turn on "Require review from Code Owners" so that GitHub asks the same
people charter review does.`,
		Example: `  charter codeowners > .github/CODEOWNERS`,
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return runCodeowners(g, o) },
	}
	o.register(cmd, false)
	return cmd
}

func runCodeowners(g *globals, o *codeownersOptions) error {
	rev, err := evaluate(g, o.source(g))
	if err != nil {
		return err
	}
	prog, err := program(g, rev, true)
	if err != nil {
		return err
	}
	_, rel, err := reportBase(g)
	if err != nil {
		return err
	}
	user := map[string]bool{}
	for _, f := range rev.Validation.Repo().Files {
		user[f.Path] = true
	}
	decls := review.Declarations(prog.Config, func(kind, name string) string {
		f := prog.Locate(kind, name).File
		if !user[f] {
			return "" // the standard library's
		}
		return path.Join(rel, f)
	})
	co := review.BuildCodeOwners(prog.Config, rel, decls)
	for _, f := range co.Skipped {
		fmt.Fprintf(g.stderr, "charter: %s is left out: CODEOWNERS cannot match its name exactly (it holds #, !, [, ], *, ? or a backslash); rename it\n", esc(f))
	}
	if len(co.Lines) == 0 {
		fmt.Fprintf(g.stderr, "charter: no declaration names owners, so this CODEOWNERS file assigns nobody; declare them (repository: owners: [\"@org/team\"], or owners on an agent); see docs/release.md\n")
	}
	return co.Write(g.stdout)
}
