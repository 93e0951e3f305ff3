package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/buildinfo"
)

func newVersionCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print charter's version, commit and CUE version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info := buildinfo.Read()
			switch format {
			case "text":
				fmt.Fprintf(g.stdout, "charter %s\ncommit: %s\ncue: %s\ngo: %s\n", info.Version, info.Commit, info.CUEVersion, info.GoVersion)
			case "json":
				return writeJSON(g.stdout, info)
			}
			return nil
		},
	}
	formatVar(cmd, &format, "text", "json")
	return cmd
}
