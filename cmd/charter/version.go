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
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info := buildinfo.Read()
			switch format {
			case "text":
				fmt.Fprintf(g.stdout, "charter %s\ncommit: %s\ncue: %s\ngo: %s\n", info.Version, info.Commit, info.CUEVersion, info.GoVersion)
			case "json":
				return writeJSON(g.stdout, info)
			default:
				return usage("unknown format %q; valid formats: text, json", format)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}
