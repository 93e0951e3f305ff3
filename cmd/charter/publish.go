package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/internal/release/oci"
)

type publishOptions struct {
	rev       string
	format    string
	plainHTTP bool
	signKey   string
	sourceURL string
}

func newPublishCmd(g *globals) *cobra.Command {
	o := &publishOptions{}
	cmd := &cobra.Command{
		Use:   "publish [--rev REV] REF",
		Short: "Push the bundle of a commit to an OCI registry, by tag",
		Long: `publish builds the bundle of a commit (--rev, default HEAD: what is
committed, never the working tree) and pushes it to an OCI registry as
REF, HOST[:PORT]/REPOSITORY:TAG, then prints its digest. The artifact
(docs/release.md) has charter's artifactType, manifest.json as its config
and the reproducible tar.gz of build --archive as its one layer (its
timestamps the commit's, whatever SOURCE_DATE_EPOCH says), with the
standard annotations from the commit: the same commit gives the same
digest, and a second push uploads nothing.

Credentials come from the Docker config file ($DOCKER_CONFIG or
~/.docker/config.json, as docker login writes it) or from
CHARTER_REGISTRY_USERNAME and CHARTER_REGISTRY_PASSWORD, never from the
command line.

--sign-key signs manifest.json and every card.json as build --sign-key
does, and the artifact itself as cosign sign --key does: the classic
sha256-<hex>.sig tag and, for an ECDSA P-256 key, cosign v3's Sigstore
bundle as an OCI referrer (on a registry without the referrers API, under
the sha256-<hex> tag cosign uses too). cosign verify --key and charter
pull --verify-key check it.`,
		Args: takes(1, "REF"),
		RunE: func(cmd *cobra.Command, args []string) error { return runPublish(cmd.Context(), g, o, args[0]) },
	}
	cmd.Flags().StringVar(&o.rev, "rev", "HEAD", "the Git revision to publish (branch, tag, commit, or REV:PATH)")
	formatVar(cmd, &o.format, "text", "json")
	cmd.Flags().BoolVar(&o.plainHTTP, "plain-http", false, "speak HTTP, not HTTPS (only to a registry on this machine)")
	cmd.Flags().StringVar(&o.signKey, "sign-key", "", "sign manifest.json, every Agent Card and the artifact (as cosign does) with this PEM private key: ECDSA P-256 (Ed25519 signs no Sigstore bundle)")
	cmd.Flags().StringVar(&o.sourceURL, "source-url", "", "the source repository's URL for the org.opencontainers.image.source annotation (default $GITHUB_SERVER_URL/$GITHUB_REPOSITORY when set)")
	return cmd
}

func runPublish(ctx context.Context, g *globals, o *publishOptions, ref string) error {
	if _, err := oci.CheckPublish(ref, oci.Options{PlainHTTP: o.plainHTTP}); err != nil {
		return usage("%v", err)
	}
	if o.rev == "" {
		return usage("--rev is empty: publish reads a commit (the default is HEAD)")
	}
	sign, err := readSignKey(o.signKey)
	if err != nil {
		return err
	}
	b, err := buildTree(g, revision.Source{Rev: o.rev}, sign, nil)
	if err != nil {
		return err
	}
	tree, commit := b.tree, b.commit
	// From the commit, never SOURCE_DATE_EPOCH: the digest depends on the
	// commit alone.
	archive, err := bundle.Archive(tree, bundle.SourceEpoch(commit))
	if err != nil {
		return err
	}
	meta := oci.Meta{Revision: commit.Commit, Created: commit.Time, Version: revision.Tag(g.dir, o.rev), Source: sourceURL(o.sourceURL)}
	opts, done := ociOptions(g, o.plainHTTP)
	if sign != nil {
		opts.SignKey = sign.Key()
	}
	pub, err := oci.Publish(ctx, ref, tree, archive, meta, opts)
	done()
	if err != nil {
		return ociError(err)
	}
	if o.format == "json" {
		return writeJSON(g.stdout, pub)
	}
	textf(g.stdout, "published %s\ndigest: %s\n", pub.Reference, pub.Digest)
	if s := pub.Signature; s != nil {
		textf(g.stdout, "signed: manifest.jws, every card.json, and the artifact (cosign tag %s", s.Tag)
		if s.Referrer != "" {
			textf(g.stdout, ", Sigstore bundle %s", s.Referrer)
		}
		textf(g.stdout, ")\n")
	}
	if pub.Uploaded == 0 {
		g.summaryf(g.stdout, "unchanged: the registry had every blob already\n")
	}
	// The line must work as printed: pull needs --out, and a signed
	// bundle is pulled with the public key, which the second line makes.
	flag := ""
	if o.plainHTTP {
		flag = "--plain-http "
	}
	if sign == nil {
		g.summaryf(g.stdout, "pull it with: charter pull %s%s --out dist\n", flag, pub.Pinned)
		return nil
	}
	g.summaryf(g.stdout, "pull it with: charter pull %s--verify-key PUBLIC.pem %s --out dist\n", flag, pub.Pinned)
	key, err := syntax.Quote(o.signKey, syntax.LangPOSIX)
	if err != nil {
		key = "KEY.pem" // a name no POSIX shell can spell
	}
	g.summaryf(g.stdout, "  (PUBLIC.pem: the public key of %s: openssl pkey -in %s -pubout -out PUBLIC.pem)\n", key, key)
	return nil
}

// sourceURL is --source-url, or the repository GitHub Actions runs for.
func sourceURL(flag string) string {
	if flag != "" {
		return flag
	}
	server, repo := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY")
	if server != "" && repo != "" {
		return strings.TrimSuffix(server, "/") + "/" + repo
	}
	return ""
}

// readSignKey returns the signer of --sign-key, nil without one.
func readSignKey(file string) (*cardsign.Signer, error) {
	if file == "" {
		return nil, nil
	}
	s, err := cardsign.ReadSigner(file)
	if err != nil {
		return nil, fileFlagError("--sign-key", err, "key file", signKeyHint)
	}
	return s, nil
}

// registryClient, when set (by the tests, which need no DNS), is the HTTP
// client publish and pull talk to registries with.
var registryClient *http.Client

// ociOptions are the registry options, with a progress line on stderr
// when it is a terminal; done clears it.
func ociOptions(g *globals, plainHTTP bool) (oci.Options, func()) {
	opts := oci.Options{PlainHTTP: plainHTTP, HTTPClient: registryClient}
	if g.quiet || !isTerminal(g.stderr) {
		return opts, func() {}
	}
	shown := false
	opts.Progress = func(msg string) {
		fmt.Fprintf(g.stderr, "\r\033[K%s", msg)
		shown = true
	}
	return opts, func() {
		if shown {
			fmt.Fprint(g.stderr, "\r\033[K")
		}
	}
}

// ociError is the exit of a failed push or pull: exit 2, with a hint.
func ociError(err error) error {
	if errors.Is(err, exec.ErrNotFound) {
		// The credential helper the Docker config file names is not
		// installed: oras says only "executable file not found".
		helper := "its docker-credential-NAME program"
		var ee *exec.Error
		if errors.As(err, &ee) {
			helper = ee.Name
		}
		return withHint(err, fmt.Sprintf("the Docker config file ($DOCKER_CONFIG/config.json or ~/.docker/config.json) names a credential helper (credsStore or credHelpers) that is not installed: install %s, remove it from the file, or set %s and %s", helper, oci.EnvUsername, oci.EnvPassword))
	}
	var oe *oci.Error
	if errors.As(err, &oe) {
		return withHint(err, oe.Hint)
	}
	return err
}
