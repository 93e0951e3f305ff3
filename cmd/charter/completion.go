package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/lint"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/editor/schema"
	"github.com/charter-dev/charter/internal/interop/importer"
	"github.com/charter-dev/charter/internal/output/diag"
)

// ruleIDs lists the lint rule ids with a one-line summary each ("id\tsummary"),
// for the completion of `explain RULE` and `lint --enable/--disable`. A
// variable so tests can replace it.
var ruleIDs = func() []string {
	var out []string
	for _, r := range lint.All() {
		out = append(out, r.ID+"\t"+r.Summary)
	}
	return out
}

func newCompletionCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print a shell completion script",
		Long: `completion prints the completion script of a shell. It completes commands,
flags, agent ids (render, why, log, show, export, diff --agent) and lint
rule ids (explain, lint --enable and --disable), read from the repository
in the current directory or -C DIR; outside a charter repository it
completes no ids and says nothing.

To load completions:

  bash:  source <(charter completion bash)
         or, for every session: charter completion bash > /etc/bash_completion.d/charter
  zsh:   charter completion zsh > "${fpath[1]}/_charter"
         (with "autoload -U compinit; compinit" in ~/.zshrc)
  fish:  charter completion fish > ~/.config/fish/completions/charter.fish`,
		Args:      takes(1, "SHELL"),
		ValidArgs: []string{"bash", "zsh", "fish"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompletion(cmd.Root(), g.stdout, args[0])
		},
	}
	return cmd
}

func runCompletion(root *cobra.Command, w io.Writer, shell string) error {
	var err error
	switch shell {
	case "bash":
		err = root.GenBashCompletionV2(w, true)
	case "zsh":
		err = root.GenZshCompletion(w)
	case "fish":
		err = root.GenFishCompletion(w, true)
	default:
		return usage("unknown shell %q; valid shells: bash, zsh, fish", shell)
	}
	if err != nil {
		return fmt.Errorf("writing the completion script: %w", err)
	}
	return nil
}

// registerCompletions attaches dynamic completion to the commands and flags
// that take agent ids, rule ids and fixed words. Commands that do not exist
// (yet) are skipped, so it can run before every command is merged.
func registerCompletions(root *cobra.Command, g *globals) {
	agents := func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeAgents(g, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
	rules := func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return completeRules(toComplete), cobra.ShellCompDirectiveNoFileComp
	}
	// ruleList completes the last id of a comma-separated list (lint's
	// --enable and --disable take "a,b").
	ruleList := func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		i := strings.LastIndex(toComplete, ",")
		done, last := toComplete[:i+1], toComplete[i+1:]
		var out []string
		for _, r := range completeRules(last) {
			out = append(out, done+r)
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	words := func(ws ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(ws, cobra.ShellCompDirectiveNoFileComp)
	}
	for _, c := range root.Commands() {
		switch c.Name() {
		case "render", "why", "log", "show", "export":
			c.ValidArgsFunction = agents
		case "explain":
			c.ValidArgsFunction = rules
		case "team":
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 1 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeAgents(g, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
		}
		flag := func(name string, f cobra.CompletionFunc) {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, f)
			}
		}
		switch c.Name() {
		case "diff":
			flag("agent", func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				return completeAgents(g, toComplete), cobra.ShellCompDirectiveNoFileComp
			})
		case "lint":
			flag("enable", ruleList)
			flag("disable", ruleList)
			flag("fail-level", words(diag.Error.String(), diag.Warning.String(), diag.Info.String()))
		case "schema":
			var targets []string
			for _, t := range schema.Targets {
				targets = append(targets, string(t))
			}
			flag("for", words(targets...))
		case "export":
			flag("to", words(allTargets()...))
			flag("out", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			})
		case "import":
			flag("from", words(importer.FormatNames()...))
			flag("out", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			})
		}
	}
}

// completeAgents lists the agent ids declared in the working tree's config
// root that start with prefix. It reads the user's files only (no
// validation), and returns nothing when the directory is no charter
// repository or cannot be read: completion never fails.
func completeAgents(g *globals, prefix string) []string {
	agents, err := new(revision.Evaluator).DeclaredAgents(g.dir)
	if err != nil {
		return nil
	}
	var ids []string
	for _, a := range agents {
		if !strings.HasPrefix(a.ID, prefix) {
			continue
		}
		id := a.ID
		if a.Name != "" {
			id += "\t" + a.Name
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// completeRules lists the rule ids that start with prefix, from ruleIDs.
func completeRules(prefix string) []string {
	var out []string
	for _, r := range ruleIDs() {
		id, _, _ := strings.Cut(r, "\t")
		if strings.HasPrefix(id, prefix) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}
