package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/interop/export"
	"github.com/charter-dev/charter/lint"
	"github.com/charter-dev/charter/render"
)

// cardFormats are the exports internal/artifact/bundle writes.
var cardFormats = []string{"a2a", "a2a-v0.3"}

type exportFlags struct {
	to, out, main, bundle, decideURL string
	all, force, strict, list         bool
}

func newExportCmd(g *globals) *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export (AGENT | --all) --to TARGET [--out DIR]",
		Short: "Write agents in the format of the runtime that runs them",
		Long: `export writes AGENT (or, with --all, every agent) in a runtime's format:

` + targetList() + `
An export is never wider than the agent: it holds exactly the runtime's
names of the agent's effective tools, from the runtimes table of the
standard library (runtimes."claude-code".tools and the others; extend it
in your repository). A tool the table has no name for is left out and
said on stderr (--strict makes that an error); an agent with no tools gets
an explicit empty list where the runtime would give every tool. A model
the table's models do not name is refused, not guessed.

Without --out, export prints the agent's main file (a subagent, a
definition, a module) and says on stderr what --out would write besides.
With --out DIR it writes every file under DIR, made if missing, and
lists them on stderr; --all needs --out. A file in the way that export
did not write (DIR/.charter-export.json lists those it did, with their
hashes) is refused unless --force. The same commit gives the same bytes.

export refuses (exit 1), as build does, a repository in which lint's
secret-literal rule finds a credential, or whose exported files would
hold one: an export is copied to a runtime as a bundle is.

--list prints the targets, what each carries and what it cannot. See
docs/export.md.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runExport(g, args, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.to, "to", "", "target: "+strings.Join(allTargets(), ", "))
	fl.StringVar(&f.out, "out", "", "write the files under this folder instead of printing the main one")
	fl.BoolVar(&f.all, "all", false, "export every agent (needs --out)")
	fl.BoolVar(&f.force, "force", false, "replace files in --out that export did not write")
	fl.BoolVar(&f.strict, "strict", false, "refuse an agent with a tool the target has no name for, instead of leaving it out")
	fl.BoolVar(&f.list, "list", false, "print the targets, what each carries and what it cannot")
	fl.StringVar(&f.main, "main", "", "claude-code: the agent Claude Code's main thread is judged as by settings.json's hook (default: the agent exported)")
	fl.StringVar(&f.bundle, "bundle", "", "claude-code: the built bundle settings.json's hook judges with (charter eval --bundle), a relative path read from the folder Claude Code runs in; default: the hook builds the repository")
	fl.StringVar(&f.decideURL, "decide-url", "", "openai-agents, adk: the charter serve endpoint the guards ask (default "+export.DefaultDecideURL+"; CHARTER_DECIDE_URL overrides it at run time)")
	return cmd
}

func allTargets() []string { return append(export.Names(), cardFormats...) }

// targetList is --list's text.
func targetList() string {
	var b strings.Builder
	for _, t := range export.Targets {
		fmt.Fprintf(&b, "  %s\n    carries: %s\n    cannot: %s\n", t.Name, t.Carries, t.Cannot)
	}
	b.WriteString("  a2a\n    carries: NAME.json per agent: an A2A Agent Card, protocol v1.0 (as card.json in the bundle)\n    cannot: tools and rules (a card describes skills, not permissions)\n")
	b.WriteString("  a2a-v0.3\n    carries: NAME.json per agent: an A2A Agent Card in the v0.3 shape many SDKs still read\n    cannot: tools and rules\n")
	return b.String()
}

func runExport(g *globals, args []string, f exportFlags) error {
	if f.list {
		if len(args) > 0 || f.all {
			return usage("--list takes no agent")
		}
		// Charter's own text, nothing from the configuration: as is.
		_, err := io.WriteString(g.stdout, targetList())
		return err
	}
	switch {
	case f.all && len(args) > 0:
		return usage("give an agent or --all, not both")
	case !f.all && len(args) != 1:
		return usage("export takes one AGENT, or --all (see 'charter export --help')")
	case f.all && f.out == "":
		return usage("--all writes a file per agent: give --out DIR")
	}
	if !slices.Contains(allTargets(), f.to) {
		if f.to == "" {
			return usage("--to is required; valid targets: %s", strings.Join(allTargets(), ", "))
		}
		return unknownName("export target", f.to, allTargets())
	}
	rev, err := evaluate(g, revision.Source{})
	if err != nil {
		return err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return err
	}
	// An export is copied to a runtime as a bundle is: the same guard as
	// build's, whatever lint's settings, over the configuration here and
	// over the files export made below.
	guard := lint.Credentials(prog, rev.Validation.Repo().Files)
	if len(guard.Findings) > 0 {
		if err := writeConfigDiagnostics(g, guard.Findings); err != nil {
			return err
		}
		return refuseExportCredentials(len(guard.Findings))
	}
	var list []*compiler.Agent
	if f.all {
		list = prog.Agents
	} else {
		a, err := agent(rev, args[0])
		if err != nil {
			return err
		}
		list = []*compiler.Agent{a}
	}
	if f.main != "" {
		if _, err := agent(rev, f.main); err != nil {
			return fmt.Errorf("--main: %w", err)
		}
	}
	var agents []export.Agent
	var cards []export.File
	for _, a := range list {
		p, err := render.Render(prog, a)
		if err != nil {
			return err
		}
		card, err := bundle.AgentCard(prog, a, p.String())
		if err != nil {
			return err
		}
		agents = append(agents, export.Agent{Agent: a, Description: card.Description, Prompt: p.String()})
		var b []byte
		switch f.to {
		case "a2a":
			b, err = canonjson.Pretty(card)
		case "a2a-v0.3":
			b, err = canonjson.Pretty(card.V03())
		}
		if err != nil {
			return err
		}
		cards = append(cards, export.File{Path: a.ID + ".json", Data: b})
	}
	var res export.Result
	if t, ok := export.Lookup(f.to); ok {
		res, err = t.Export(prog, agents, export.Options{Strict: f.strict, Main: f.main, Bundle: f.bundle, DecideURL: f.decideURL, All: f.all})
		if errors.Is(err, export.ErrMainNeeded) {
			var ids []string
			for _, a := range agents {
				ids = append(ids, a.ID)
			}
			return withHint(err, "name it with --main AGENT, one of: "+strings.Join(ids, ", "))
		}
		if err != nil {
			return err
		}
	} else {
		res.Files = cards
	}
	tree := bundlefile.Tree{}
	for _, x := range res.Files {
		tree[x.Path] = x.Data
	}
	if leaks := bundle.Credentials(tree, guard.Excused); len(leaks) > 0 {
		for _, l := range leaks {
			textf(g.stderr, "%s: error: [secret-literal] %s\n", l.File, strings.TrimPrefix(l.String(), l.File+": "))
		}
		return refuseExportCredentials(len(leaks))
	}
	for _, n := range res.Notes {
		textf(g.stderr, "charter: %s\n", n)
	}
	if f.out == "" {
		if len(res.Files) > 1 {
			var rest []string
			for _, x := range res.Files[1:] {
				rest = append(rest, x.Path)
			}
			textf(g.stderr, "charter: printed %s; with --out DIR export also writes %s\n", res.Files[0].Path, strings.Join(rest, ", "))
		}
		_, err := g.stdout.Write(res.Files[0].Data)
		return err
	}
	if f.to == export.Runtime {
		if n := hookBundleNote(f.out, f.bundle); n != "" {
			textf(g.stderr, "charter: %s\n", n)
		}
	}
	written, err := export.WriteDir(f.out, res, f.force)
	for _, w := range written {
		textf(g.stderr, "wrote %s\n", joinOut(f.out, w))
	}
	return err
}

// hookBundleNote says when settings.json's hook will find no bundle at
// --bundle (or, without it, no charter repository to evaluate), and so
// deny every call. Claude Code runs hooks in the project folder, the one
// holding .claude, so a relative --bundle is read from there, not from
// where export ran; it is checked only when --out is a .claude folder,
// which names the project.
func hookBundleNote(out, dir string) string {
	fix := func(at string) string {
		return fmt.Sprintf("every call will be denied until one is there (charter build --out %s, or charter pull --out %s)", at, at)
	}
	if dir == "" {
		if filepath.Base(filepath.Clean(out)) != ".claude" {
			return ""
		}
		project := filepath.Dir(filepath.Clean(out))
		if holdsCUE(project) {
			return ""
		}
		return fmt.Sprintf("settings.json's hook runs charter eval without --bundle in the folder Claude Code runs in (%s), where it evaluates the charter repository, and %s holds no .cue file: every call will be denied; pass --bundle DIR (a bundle charter build or charter pull wrote), or export into the charter repository's own .claude", project, project)
	}
	if filepath.IsAbs(dir) {
		if isBundle(dir) {
			return ""
		}
		return fmt.Sprintf("settings.json's hook runs charter eval --bundle %s, which holds no bundle: %s", dir, fix(dir))
	}
	if filepath.Base(filepath.Clean(out)) != ".claude" {
		return ""
	}
	project := filepath.Dir(filepath.Clean(out))
	at := filepath.Join(project, dir)
	if isBundle(at) {
		return ""
	}
	return fmt.Sprintf("settings.json's hook runs charter eval --bundle %s in the folder Claude Code runs in (%s), and %s holds no bundle: %s, or pass --bundle the path from %s (or an absolute one)", dir, project, at, fix(at), project)
}

// holdsCUE is whether dir or a folder under it holds a .cue file, as the
// repository eval loads would. It gives up (true) past 10,000 entries:
// the note is for a project plainly without one.
func holdsCUE(dir string) bool {
	seen, found := 0, false
	stop := errors.New("stop")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > 10000 {
			found = true
			return stop
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".cue") {
			found = true
			return stop
		}
		return nil
	})
	return found || err != nil && err != stop
}

// isBundle is whether dir holds a bundle's manifest.json.
func isBundle(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "manifest.json"))
	return err == nil && fi.Mode().IsRegular()
}

// refuseExportCredentials is export's refusal of n credentials.
func refuseExportCredentials(n int) error {
	return &exitErr{code: exitFindings, err: fmt.Errorf("refusing to export agents with %s in them", plural(n, "literal credential")),
		hint: "read each at run time (\"env:NAME\"), or, when one is no credential, say so above it: // charter:ignore secret-literal REASON"}
}

func joinOut(dir, p string) string { return strings.TrimSuffix(dir, "/") + "/" + p }
