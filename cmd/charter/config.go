package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
)

// revFlags select what to read: the working tree (default), the Git index
// (--staged) or a commit (--rev).
type revFlags struct {
	rev    string
	staged bool
}

func (r *revFlags) register(cmd *cobra.Command, staged bool) {
	cmd.Flags().StringVar(&r.rev, "rev", "", "read the config root as of this Git revision (branch, tag, commit, HEAD~2, or REV:PATH) instead of the working tree")
	if staged {
		cmd.Flags().BoolVar(&r.staged, "staged", false, "read the staged content (the Git index), as a pre-commit hook needs")
	}
}

// source is the revision r selects in the config root.
func (r *revFlags) source(g *globals) revision.Source {
	return revision.Source{Dir: g.dir, Rev: r.rev, Staged: r.staged}
}

// evaluate reads and evaluates what src selects (its Dir is the config
// root). Each call has an evaluator of its own: a CUE context frees nothing
// while it lives, so a command lets it go with the revision it read.
// revision's errors reach run, which prints them with their hint and exits 2.
func evaluate(g *globals, src revision.Source) (*revision.Revision, error) {
	if src.Rev != "" && src.Staged {
		return nil, usage("--rev and --staged exclude each other: choose one")
	}
	src.Dir = g.dir
	rev, err := new(revision.Evaluator).Evaluate(src)
	var re *revision.Error
	if err != nil && !errors.As(err, &re) {
		return nil, err
	}
	return rev, err
}

// program returns the revision's program. When it has none the command
// cannot go on: program prints the diagnostics that say why (text, to
// stderr) and returns an exit-1 error. A revision the command compares
// against, rather than the one it is about, is named first (as is: "REV
// does not validate:").
func program(g *globals, rev *revision.Revision, compared bool) (*compiler.Program, error) {
	if rev.OK() {
		return rev.Program, nil
	}
	if compared {
		textf(g.stderr, "%s does not validate:\n", rev.Name)
	}
	_ = writeDiagnostics(g, "text", rev.Diagnostics)
	fmtErrors(g, rev.Diagnostics)
	return nil, findings()
}

// agent returns agent id of a revision that is OK, or a usage error that
// lists the ids there are.
func agent(rev *revision.Revision, id string) (*compiler.Agent, error) {
	a, err := rev.Agent(id)
	var u *revision.UnknownAgentError
	if errors.As(err, &u) {
		return nil, unknownName("agent", u.ID, u.Known)
	}
	return a, err
}

// compiledAgent evaluates the working tree and finds agent id in it.
func compiledAgent(g *globals, id string) (*compiler.Program, *compiler.Agent, error) {
	rev, err := evaluate(g, revision.Source{})
	if err != nil {
		return nil, nil, err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return nil, nil, err
	}
	a, err := agent(rev, id)
	if err != nil {
		return nil, nil, err
	}
	return prog, a, nil
}

// writeDiagnostics prints ds in the chosen format: text to stderr, data
// formats to stdout.
func writeDiagnostics(g *globals, format string, ds []diag.Diagnostic) error {
	switch format {
	case "text":
		return writeConfigDiagnostics(g, ds)
	case "json":
		b, err := diag.JSON(ds)
		if err != nil {
			return err
		}
		_, err = g.stdout.Write(b)
		return err
	}
	return usage("unknown format %q; valid formats: text, json", format)
}

func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(diag.EscapeJSON(b.Bytes()))
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// countBySeverity says "2 errors, 1 warning".
func countBySeverity(ds []diag.Diagnostic) string {
	var e, w, i int
	for _, d := range ds {
		switch d.Severity {
		case diag.Error:
			e++
		case diag.Warning:
			w++
		default:
			i++
		}
	}
	s := plural(e, "error")
	if w > 0 {
		s += ", " + plural(w, "warning")
	}
	if i > 0 {
		s += ", " + fmt.Sprintf("%d info", i)
	}
	return s
}
