package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/internal/release/oci"
)

type pullOptions struct {
	out       string
	format    string
	plainHTTP bool
	key       string
}

func newPullCmd(g *globals) *cobra.Command {
	o := &pullOptions{}
	cmd := &cobra.Command{
		Use:   "pull REF --out DIR",
		Short: "Fetch a published bundle by tag or digest, verify it, and write it",
		Long: `pull fetches the bundle that publish pushed as REF
(HOST[:PORT]/REPOSITORY:TAG, or @sha256:DIGEST to pin it), checks the
OCI manifest against the digest, every blob against its descriptor and
every file against manifest.json, and only then writes it into --out,
atomically as build does. Anything that does not check out, an artifact
that is not a charter bundle, or one of a newer schema version is refused
and nothing is written. --key also requires every card.json to carry a
signature that verifies with that public key.

Credentials come from the Docker config file or from
CHARTER_REGISTRY_USERNAME and CHARTER_REGISTRY_PASSWORD.`,
		Args: takes(1, "REF"),
		RunE: func(cmd *cobra.Command, args []string) error { return runPull(cmd.Context(), g, o, args[0]) },
	}
	cmd.Flags().StringVar(&o.out, "out", "", "directory to write the bundle into (required)")
	formatVar(cmd, &o.format, "text", "json")
	cmd.Flags().BoolVar(&o.plainHTTP, "plain-http", false, "speak HTTP, not HTTPS (only to a registry on this machine)")
	cmd.Flags().StringVar(&o.key, "key", "", "also verify every card's signature with this PEM public key")
	return cmd
}

func runPull(ctx context.Context, g *globals, o *pullOptions, ref string) error {
	if o.out == "" {
		return usage("pull needs --out DIR: where to write the bundle")
	}
	if _, err := oci.Check(ref, oci.Options{PlainHTTP: o.plainHTTP}); err != nil {
		return usage("%v", err)
	}
	var v *cardsign.Verifier
	if o.key != "" {
		var err error
		if v, err = cardsign.ReadVerifier(o.key); err != nil {
			return fmt.Errorf("--key %v", err)
		}
	}
	if err := bundle.CheckOut(o.out, g.dir); err != nil {
		return err
	}
	opts, done := ociOptions(g, o.plainHTTP)
	p, err := oci.Pull(ctx, ref, opts)
	done()
	if err != nil {
		return ociError(err)
	}
	if v != nil {
		for _, c := range v.VerifyCards(p.Tree) {
			if c.Error != "" {
				return fmt.Errorf("%s: %s: %s; nothing was written", ref, c.Path, c.Error)
			}
		}
	}
	if err := bundle.WriteDir(o.out, p.Tree); err != nil {
		return withHint(fmt.Errorf("writing %s: %v", o.out, err), "the previous bundle, if any, is untouched")
	}
	if o.format == "json" {
		return writeJSON(g.stdout, struct {
			*oci.Pulled
			Out    string         `json:"out"`
			Files  int            `json:"files"`
			Source *bundle.Source `json:"source,omitempty"`
		}{p, o.out, len(p.Tree), p.Manifest.Source})
	}
	textf(g.stdout, "pulled %s\ndigest: %s\n", p.Reference, p.Digest)
	g.summaryf(g.stdout, "wrote %s: %d files, verified against manifest.json\n", o.out, len(p.Tree))
	return nil
}
