package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commandReference renders docs/commands.md from the command definitions,
// so the reference cannot drift from the code.
func commandReference() []byte {
	root := newRoot(&globals{})
	var b bytes.Buffer
	b.WriteString("# charter command reference\n\n")
	b.WriteString("Generated from the command definitions by `go test ./cmd/charter -run TestCommandReference -update`; do not edit.\n\n")
	b.WriteString("Every command takes `-C DIR`, the config root (default: the nearest folder up from where charter runs that holds `cue.mod`, never past the top of the Git repository; else where it runs). Exit codes: 0 success, 1 errors or findings in the input, 2 usage error, unreadable input or internal error.\n\n")
	b.WriteString("No command prints a credential, in any format: everything a command writes to standard output and standard error, and the files of `docs --out` and `site --out`, passes one detector (package `secret`, the one lint's `secret-literal` rule uses: GitHub, OpenAI and Anthropic, AWS and Slack tokens and PEM private keys), which shows each value redacted: its well-known prefix, `…`, its length and the first 8 hex digits of its SHA-256, as in `ghp_…[40 chars 1a2b3c4d]`, so that a reviewer still sees that it changed. `build` refuses to put one in a bundle unless a `// charter:ignore secret-literal REASON` says it is none.\n\n")
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		writeCommand(&b, c)
	}
	return b.Bytes()
}

func writeCommand(b *bytes.Buffer, c *cobra.Command) {
	fmt.Fprintf(b, "## charter %s\n\n%s.\n\n```\ncharter %s\n```\n\n", c.Name(), c.Short, c.Use)
	if c.Long != "" {
		b.WriteString(strings.TrimSpace(c.Long) + "\n\n")
	}
	if c.Example != "" {
		fmt.Fprintf(b, "Examples:\n\n```\n%s\n```\n\n", strings.TrimRight(c.Example, "\n"))
	}
	var flags []string
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", " + name
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" {
			def = fmt.Sprintf(" (default `%s`)", f.DefValue)
		}
		flags = append(flags, fmt.Sprintf("| `%s` | %s%s |", name, f.Usage, def))
	})
	if len(flags) > 0 {
		b.WriteString("| flag | meaning |\n| --- | --- |\n" + strings.Join(flags, "\n") + "\n\n")
	}
	for _, sub := range c.Commands() {
		writeCommand(b, sub)
	}
}
