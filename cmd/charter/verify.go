package main

import (
	"cmp"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/release/cardsign"
)

type verifyOptions struct {
	key    string
	format string
}

func newVerifyCmd(g *globals) *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify DIR --key FILE",
		Short: "Check a bundle's files against its manifest and its cards' signatures",
		Long: `verify checks the bundle in DIR: every file against manifest.json
(size and SHA-256, nothing missing, nothing added), manifest.json against
its signature manifest.jws, and every agent's agents/<id>/card.json for
an A2A signature, each by the public key in --key (a PEM file, ECDSA
P-256 or Ed25519; a private key file works too). A missing signature, one
that names no key or another key, or of another algorithm, fails, as does
an agent without a card. It exits 1 when anything does not verify. This
is the check pull --verify-key and the decision server make too. A bundle
that verifies is named by its source: the commit, tree and config root it
was built from (or the working tree), and the charter that built it.`,
		Args: takes(1, "DIR"),
		RunE: func(cmd *cobra.Command, args []string) error { return runVerify(g, o, args[0]) },
	}
	cmd.Flags().StringVar(&o.key, "key", "", "the PEM public key the cards must be signed with (required)")
	formatVar(cmd, &o.format, "text", "json")
	return cmd
}

func runVerify(g *globals, o *verifyOptions, dir string) error {
	if o.key == "" {
		return usage("verify needs --key FILE: the public key the cards are signed with")
	}
	v, err := readVerifyKey("--key", o.key)
	if err != nil {
		return err
	}
	t, err := bundle.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("reading the bundle: %v", err)
	}
	r, err := v.VerifyBundle(t)
	if err != nil {
		return fmt.Errorf("%s: %v", dir, err)
	}
	// Which commit the bundle was built from, told only of a bundle that
	// verified: a runtime's operator reads here what it enforces.
	var m *bundlefile.Manifest
	if r.OK {
		if m, err = bundlefile.ParseManifest(t["manifest.json"]); err != nil {
			return fmt.Errorf("%s: %v", dir, err)
		}
	}
	if o.format == "json" {
		out := struct {
			*cardsign.BundleReport
			Source         *bundlefile.Source `json:"source,omitempty"`
			CharterVersion string             `json:"charter_version,omitempty"`
		}{BundleReport: r}
		if m != nil {
			out.Source, out.CharterVersion = m.Source, m.CharterVersion
		}
		if err := writeJSON(g.stdout, out); err != nil {
			return err
		}
	} else {
		for _, p := range r.ManifestProblems {
			textf(g.stdout, "%s/manifest.json: %s\n", dir, p)
		}
		if r.ManifestSignature != cardsign.Verified {
			textf(g.stdout, "%s/manifest.jws: %s\n", dir, r.ManifestSignature)
		}
		for _, c := range r.Cards {
			if c.Error != "" {
				textf(g.stdout, "%s/%s: %s\n", dir, c.Path, c.Error)
			}
		}
	}
	unsigned := r.ManifestSignature == cardsign.ErrManifestUnsigned.Error()
	for _, c := range r.Cards {
		unsigned = unsigned || c.Error == cardsign.ErrUnsigned.Error()
	}
	if len(r.ManifestProblems) > 0 {
		textf(g.stderr, "hint: files in %s differ from its manifest, so it was changed after the build: deploy the bundle again whole (charter pull REF --out %s, or charter build --out %s)\n", dir, dir, dir)
	}
	if unsigned {
		fmt.Fprintf(g.stderr, "hint: sign the bundle with charter build --sign-key FILE\n")
	}
	if !r.OK {
		sig := "manifest signature verified"
		if r.ManifestSignature != cardsign.Verified {
			sig = "manifest signature NOT verified"
		}
		g.summaryf(g.stderr, "charter: %s does not verify: %s, %s, %d of %s not verified\n", dir, plural(len(r.ManifestProblems), "file problem"), sig, r.BadCards, plural(len(r.Cards), "card"))
		return findings()
	}
	if o.format == "text" {
		g.summaryf(g.stdout, "ok: %s: %d files match manifest.json, signed by key %s with %s\n", dir, len(t)-signed(t), v.KeyID(), plural(len(r.Cards), "card"))
		if s := m.Source; s != nil {
			textf(g.stdout, "source: commit %s, tree %s, config root %s\n", s.Commit, s.Tree, cmp.Or(s.Root, "."))
		} else {
			textf(g.stdout, "source: the working tree, not a commit\n")
		}
		textf(g.stdout, "built by: charter %s\n", m.CharterVersion)
	}
	return nil
}

// signed is 1 when t holds manifest.jws: the file manifest.json does not
// list.
func signed(t bundlefile.Tree) int {
	if _, ok := t[bundlefile.SignatureFile]; ok {
		return 1
	}
	return 0
}
