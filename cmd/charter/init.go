package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/repo/starter"
)

func newInitCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter charter repository",
		Long: `init writes a small charter repository that validates: a CUE module, an
agent type, two agents and a profile, and a .gitignore that keeps the
bundle (dist/) out of Git. DIR defaults to -C's directory, else the
current one; init refuses to overwrite existing files (an existing
.gitignore gains the line).`,
		Args: takes(0, "DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := g.dir
			if len(args) == 1 {
				if cmd.Flags().Changed("dir") {
					return usage("-C %s and DIR %s both name the directory to write: give one", g.dir, args[0])
				}
				dir = args[0]
			}
			done, err := starter.Write(dir)
			if err != nil {
				return err
			}
			for _, line := range done {
				textf(g.stdout, "%s\n", line)
			}
			if filepath.Clean(dir) == "." {
				fmt.Fprintf(g.stdout, "next: charter validate\n")
				return nil
			}
			textf(g.stdout, "next: cd %s && charter validate\n", dir)
			return nil
		},
	}
}
