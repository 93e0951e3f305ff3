package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/editor/cuefmt"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/spf13/cobra"
)

func newShowCmd(g *globals) *cobra.Command {
	var fmtFlag string
	var whole bool
	cmd := &cobra.Command{
		Use:   "show AGENT[@REV|@vN] | show --repo",
		Short: "Print one agent, resolved, as of the working tree, a commit or a version",
		Long: `show prints the resolved agent (agent.json of the bundle) as of the working
tree, of a Git revision (coder@v1.2.0, coder@HEAD~3) or of one of its
versions as charter log numbers them (coder@v2): the agent as that
version's commit saved it, with its number (version), as build --rev
writes agent.json.

show --repo prints instead the repository's whole value as JSON: the
standard library and your files unified, the document that
'charter schema --format jsonschema' describes (cue export of your files
leaves the standard library out). It prints the diagnostics and exits 1
when the working tree does not validate.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if whole {
				return noArgs(cmd, args)
			}
			return takes(1, "AGENT")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if whole {
				return runShowRepo(g, fmtFlag)
			}
			return runShow(g, args[0], fmtFlag)
		},
	}
	formatVar(cmd, &fmtFlag, "json", "cue")
	cmd.Flags().BoolVar(&whole, "repo", false, "print the repository's whole value (standard library and your files) as JSON")
	return cmd
}

// runShowRepo prints the working tree's whole value.
func runShowRepo(g *globals, outFormat string) error {
	if outFormat != "json" {
		return usage("show --repo prints JSON only; drop --format %s", outFormat)
	}
	rev, err := evaluate(g, revision.Source{})
	if err != nil {
		return err
	}
	if _, err := program(g, rev, false); err != nil {
		return err
	}
	b, err := rev.Validation.Repo().Whole().MarshalJSON()
	if err != nil {
		return fmt.Errorf("cannot print the repository as JSON: %v", err)
	}
	// Indented like every other JSON charter prints; numbers as written.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	return writeJSON(g.stdout, secret.RedactNamed(v))
}

func runShow(g *globals, arg, outFormat string) error {
	id, at, hasAt := strings.Cut(arg, "@")
	var doc map[string]any
	var err error
	switch {
	case !hasAt:
		doc, err = showAt(g, revision.Source{Name: "the working tree"}, id)
	case isVersion(at):
		doc, err = showVersion(g, id, at)
	default:
		doc, err = showAt(g, revision.Source{Rev: at}, id)
	}
	if err != nil {
		return err
	}
	// A credential held by a field named like one (the writer redacts
	// credential shapes, not names).
	doc = secret.RedactNamed(doc).(map[string]any)
	if outFormat == "json" {
		return writeJSON(g.stdout, doc)
	}
	b, err := cuefmt.Encode(map[string]any{"agents": map[string]any{id: doc}})
	if err != nil {
		return fmt.Errorf("agent %s: %w", id, err)
	}
	_, err = fmt.Fprintf(g.stdout, "%s\n", b)
	return err
}

// showVersion returns agent id's document at its version at ("v2"), as
// charter log numbers them.
func showVersion(g *globals, id, at string) (map[string]any, error) {
	n, _ := strconv.Atoi(at[1:])
	versions, err := agentVersions(g, "HEAD", id, history.AgentOptions{Docs: true})
	if err != nil {
		return nil, err
	}
	if n < 1 || n > len(versions) {
		return nil, usage("agent %s has versions v1 to v%d; see charter log %s", id, len(versions), id)
	}
	v := versions[n-1]
	if v.Removed {
		return nil, usage("%s@v%d is the version that removed the agent (commit %s)", id, n, v.Entry.Commit.String()[:12])
	}
	// The document as that version's commit saved it, with its number,
	// as build --rev writes agent.json.
	doc := maps.Clone(v.Doc)
	doc["version"] = n
	return doc, nil
}

func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	_, err := strconv.Atoi(s[1:])
	return err == nil
}

// showAt evaluates src and returns agent id's document.
func showAt(g *globals, src revision.Source, id string) (map[string]any, error) {
	rev, err := evaluate(g, src)
	if err != nil {
		return nil, err
	}
	prog, err := program(g, rev, true)
	if err != nil {
		return nil, err
	}
	doc, err := bundle.AgentDocIn(prog, id)
	if err != nil {
		return nil, err
	}
	if doc == nil {
		where := "at " + rev.Name
		if rev.Name == "the working tree" {
			where = "in the working tree"
		}
		return nil, unknownNameIn("agent", id, where, model.Sorted(prog.Config.Agents))
	}
	return doc, nil
}
