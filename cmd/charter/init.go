package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/repo/starter"
)

func newInitCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter charter repository",
		Long: `init writes a small charter repository that validates: a CUE module, an
agent type, two agents and a profile. DIR defaults to the current
directory; init refuses to overwrite existing files.`,
		Args: takes(0, "DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			written, err := starter.Write(dir)
			if err != nil {
				return err
			}
			for _, f := range written {
				textf(g.stdout, "wrote %s\n", f)
			}
			fmt.Fprintf(g.stdout, "next: cd %s && charter validate\n", dir)
			return nil
		},
	}
}
