package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"
	"oras.land/oras-go/v2/content"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
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
and nothing is written.

--verify-key FILE (a PEM public key) makes pull refuse anything its key
did not sign: the artifact must carry a cosign signature by that key of
the exact digest pulled (cosign's .sig tag or a Sigstore bundle referrer,
as cosign sign --key or publish --sign-key write them), and the bundle
must verify as charter verify checks it: manifest.jws over manifest.json,
every card.json. No signature, an empty one, another key's, one over
another digest or of an algorithm charter does not know is a refusal.
pull prints the provenance the manifest records: commit, tree, config
root and the charter that built it.

Credentials come from the Docker config file or from
CHARTER_REGISTRY_USERNAME and CHARTER_REGISTRY_PASSWORD.`,
		Args: takes(1, "REF"),
		RunE: func(cmd *cobra.Command, args []string) error { return runPull(cmd.Context(), g, o, args[0]) },
	}
	cmd.Flags().StringVar(&o.out, "out", "", "directory to write the bundle into (required)")
	formatVar(cmd, &o.format, "text", "json")
	cmd.Flags().BoolVar(&o.plainHTTP, "plain-http", false, "speak HTTP, not HTTPS (only to a registry on this machine)")
	cmd.Flags().StringVar(&o.key, "verify-key", "", "refuse a bundle this PEM public key did not sign (the artifact as cosign signs it, manifest.jws, every card)")
	cmd.Flags().StringVar(&o.key, "key", "", "the same as --verify-key")
	// --key, from before the artifact and the manifest were signed, now
	// checks them too: a bundle it accepted before, unsigned but for its
	// cards, is refused (README, upgrade notes).
	_ = cmd.Flags().MarkHidden("key")
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
		if v, err = readVerifyKey("--verify-key", o.key); err != nil {
			return err
		}
	}
	if err := bundle.CheckOut(o.out, g.dir); err != nil {
		return err
	}
	opts, done := ociOptions(g, o.plainHTTP)
	if v != nil {
		opts.VerifyKey = v.Key()
	}
	p, err := oci.Pull(ctx, ref, opts)
	done()
	if err != nil {
		var serr *oci.SignatureError
		if errors.As(err, &serr) {
			hint := serr.Hint
			if hint == "" && v != nil {
				// Signed, but not by this key: the operator's key is
				// not the release job's (or the key was rotated).
				hint = fmt.Sprintf("the given key is %s (kid %s): pull with the public key of the key the release was signed with (after a key rotation, see docs/release.md, \"Rotating the signing key\")", o.key, v.KeyID())
			}
			return withHint(fmt.Errorf("%v; nothing was written", err), hint)
		}
		var oe *oci.Error
		if errors.As(err, &oe) && (errors.Is(err, http.ErrSchemeMismatch) || errors.Is(err, content.ErrMismatchedDigest) || errors.Is(err, content.ErrTrailingData)) {
			// Said here, not by package oci: serve pulls too, and
			// writes nothing anyway.
			return withHint(fmt.Errorf("%v; nothing was written", err), oe.Hint)
		}
		return ociError(err)
	}
	if v != nil {
		if _, err := v.Check(p.Tree); err != nil {
			return fmt.Errorf("%s: %v; nothing was written", ref, err)
		}
	}
	if err := bundle.WriteDir(o.out, p.Tree); err != nil {
		return withHint(fmt.Errorf("writing %s: %v", o.out, err), "the previous bundle, if any, is untouched")
	}
	if o.format == "json" {
		return writeJSON(g.stdout, struct {
			*oci.Pulled
			Out    string             `json:"out"`
			Files  int                `json:"files"`
			Source *bundlefile.Source `json:"source,omitempty"`
		}{p, o.out, len(p.Tree), p.Manifest.Source})
	}
	textf(g.stdout, "pulled %s\ndigest: %s\n", p.Reference, p.Digest)
	if s := p.Manifest.Source; s != nil {
		textf(g.stdout, "source: commit %s, tree %s, config root %s\n", s.Commit, s.Tree, cmp.Or(s.Root, "."))
	}
	textf(g.stdout, "built by: charter %s\n", p.Manifest.CharterVersion)
	if p.Signature != nil {
		textf(g.stdout, "signed: the artifact (%s), manifest.jws and every card, by key %s\n", p.Signature.Form, v.KeyID())
	}
	g.summaryf(g.stdout, "wrote %s: %d files, verified against manifest.json\n", o.out, len(p.Tree))
	return nil
}
