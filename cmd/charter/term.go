package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/charter-dev/charter/internal/output/diag"
)

// Terminal output: colour and --quiet. Output differs for a terminal and a
// pipe only in colour; the words are the same, so scripts and tests see
// what people see.

// colorModes are the values of --color.
var colorModes = []string{"auto", "always", "never"}

// registerTermFlags adds --quiet and --color to the root command.
func registerTermFlags(root *cobra.Command, g *globals) {
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "print no ok or summary lines: only diagnostics, data and errors")
	g.color = "auto"
	root.PersistentFlags().Var(&choice{value: &g.color, noun: "color", values: colorModes}, "color", "colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never")
	_ = root.RegisterFlagCompletionFunc("color", cobra.FixedCompletions(colorModes, cobra.ShellCompDirectiveNoFileComp))
}

// colorFor reports whether output to w gets ANSI colour (see colorWhen).
func (g *globals) colorFor(w io.Writer) bool { return g.colorWhen(isTerminal(w)) }

// colorWhen reports whether output gets ANSI colour: --color always, or
// --color auto (the default) on a terminal when NO_COLOR is unset or empty
// (https://no-color.org) and TERM is not dumb.
func (g *globals) colorWhen(terminal bool) bool {
	switch g.color {
	case "always":
		return true
	case "never":
		return false
	}
	return terminal && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// writeConfigDiagnostics prints diagnostics about the config root's files
// in text form to stderr, their files relative to the directory charter
// was started in: with -C config, from the repository's root (where
// pre-commit runs hooks), agents/a.cue is config/agents/a.cue; run in
// agents/, a.cue: paths the terminal, the editor and the reader can open.
// Started in the config root, the paths are as they were.
func writeConfigDiagnostics(g *globals, ds []diag.Diagnostic) error {
	wd, err1 := os.Getwd()
	root, err2 := filepath.Abs(g.dir)
	if err1 != nil || err2 != nil || wd == root {
		return writeTextDiagnostics(g, ds)
	}
	// Only a config root below the working directory, or above it (found
	// upward), is named from there; one elsewhere (-C /other/place) keeps
	// the paths from the config root, not ../../../other/place/...
	if rel, err := filepath.Rel(wd, root); err != nil || strings.HasPrefix(rel, "..") && strings.Trim(filepath.ToSlash(rel), "./") != "" {
		return writeTextDiagnostics(g, ds)
	}
	out := make([]diag.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = d
		// "<charter>/stdlib/..." names charter's own files.
		if d.File == "" || strings.HasPrefix(d.File, "<") {
			continue
		}
		if rel, err := filepath.Rel(wd, filepath.Join(root, filepath.FromSlash(d.File))); err == nil {
			out[i].File = filepath.ToSlash(rel)
		}
	}
	return writeTextDiagnostics(g, out)
}

// writeTextDiagnostics prints diagnostics in text form to stderr, coloured
// when stderr is a terminal (see colorFor). validate and lint share it.
func writeTextDiagnostics(g *globals, ds []diag.Diagnostic) error {
	return diag.WriteText(g.stderr, ds, diag.TextOptions{Color: g.colorFor(g.stderr)})
}

// summaryf prints an ok or summary line ("ok: 2 agents ...", "charter: 3
// errors") to w, unless --quiet, its arguments escaped as textf does.
func (g *globals) summaryf(w io.Writer, format string, args ...any) {
	if g.quiet {
		return
	}
	textf(w, format, args...)
}
