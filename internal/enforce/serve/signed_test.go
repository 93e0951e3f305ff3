package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/internal/release/oci"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/internal/testkit/registrytest"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// signingKeys returns a signer and the verifier of its public key.
func signingKeys(t testing.TB) (*cardsign.Signer, *cardsign.Verifier) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := x509.MarshalPKCS8PrivateKey(priv)
	pb, _ := x509.MarshalPKIXPublicKey(pub)
	s, err := cardsign.ParseSigner("release.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk}))
	if err != nil {
		t.Fatal(err)
	}
	v, err := cardsign.ParseVerifier("release.pub", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pb}))
	if err != nil {
		t.Fatal(err)
	}
	return s, v
}

// rewrite replaces the bundle file rel and lists its new hash in
// manifest.json, as someone who can write the bundle but has no key
// would: manifest.jws is left as it was.
func rewrite(t testing.TB, dir, rel string, edit func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	nb := edit(b)
	if bytes.Equal(nb, b) {
		t.Fatalf("the edit of %s changed nothing", rel)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), nb, 0o644); err != nil {
		t.Fatal(err)
	}
	mb, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	m, err := bundlefile.ParseManifest(mb)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range m.Files {
		if f.Path == rel {
			sum := sha256.Sum256(nb)
			m.Files[i].SHA256, m.Files[i].Size = hex.EncodeToString(sum[:]), len(nb)
		}
	}
	mb, err = canonjson.Pretty(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSignedBundle: a bundle signed as build --sign-key signs it is
// served with --key, through the reload path, and its in-memory runtime
// gives the manifest, its signature and the provenance; a bundle whose
// manifest.json the key did not sign is refused on reload, the signed
// one serving on (before, --key checked the cards only, so a rewritten
// agent.json with a rehashed manifest was served).
func TestSignedBundle(t *testing.T) {
	signer, verifier := signingKeys(t)
	src := &bundlefile.Source{Commit: strings.Repeat("a", 40), Tree: strings.Repeat("b", 40), Time: time.Unix(1700000000, 0).UTC(), Root: "."}
	dir := buildBundle(t, testrepo.DelegationTeam, bundle.Options{CharterVersion: "v9.9.9", Source: src,
		SignCard: signer.Sign, SignManifest: signer.SignManifest})
	s, ts := start(t, Options{Bundle: dir, Key: verifier})
	if err := s.Reload(context.Background()); err != nil {
		t.Fatalf("the signed bundle does not reload: %v", err)
	}
	l, why := s.current()
	if l == nil {
		t.Fatal(why)
	}
	mb, sig, err := l.rt.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	onDisk, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	sigOnDisk, _ := os.ReadFile(filepath.Join(dir, bundlefile.SignatureFile))
	if !bytes.Equal(mb, onDisk) || !bytes.Equal(sig, sigOnDisk) || len(sig) == 0 {
		t.Errorf("TreeRuntime.Manifest: %d bytes and signature %q; want manifest.json's %d bytes and manifest.jws %q", len(mb), sig, len(onDisk), sigOnDisk)
	}
	if err := verifier.VerifyManifest(mb, sig); err != nil {
		t.Errorf("the manifest the runtime gives does not verify: %v", err)
	}
	gotSrc, version := l.rt.Provenance()
	if gotSrc == nil || *gotSrc != *src || version != "v9.9.9" {
		t.Errorf("TreeRuntime.Provenance: %+v %q; want %+v v9.9.9", gotSrc, version, src)
	}
	if r := decide(t, ts.URL, `{"agent":"loner","session":"s","phase":"pre","tool":"Agent","input":{"subagent_type":"ops_bot"}}`); r.Decision != "deny" || r.Bundle.Revision != src.Commit {
		t.Errorf("signed bundle: %+v", r)
	}

	// loner's agent.json rewritten to let it start ops_bot, manifest.json
	// rehashed, manifest.jws left: refused.
	rewrite(t, dir, "agents/loner/agent.json", func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"delegates_to": []`), []byte(`"delegates_to": ["ops_bot"]`), 1)
	})
	if err := s.Reload(context.Background()); err == nil {
		t.Error("a bundle whose manifest.json the key did not sign was served")
	}
	if r := decide(t, ts.URL, `{"agent":"loner","session":"s","phase":"pre","tool":"Agent","input":{"subagent_type":"ops_bot"}}`); r.Decision != "deny" {
		t.Errorf("after the rewritten bundle: %+v", r)
	}
	// With no signature at all: refused too.
	os.Remove(filepath.Join(dir, bundlefile.SignatureFile))
	if err := s.Reload(context.Background()); err == nil {
		t.Error("a bundle without manifest.jws was served with a key")
	}
	_, b := get(t, ts.URL+"/health")
	var h struct {
		Ready     bool   `json:"ready"`
		LastError string `json:"last_error"`
	}
	json.Unmarshal(b, &h)
	if !h.Ready || !strings.Contains(h.LastError, "manifest") {
		t.Errorf("/health: %s", b)
	}
}

// TestPullSigned: serve --pull with --key requires what pull
// --verify-key requires: the artifact's cosign signature by the key, not
// only the signed manifest and cards inside it (before, an artifact no
// one had signed was served).
func TestPullSigned(t *testing.T) {
	realtool.Need(t, "docker-registry", "docker-registry")
	realtool.Need(t, "htpasswd", "apache2-utils")
	r, err := registrytest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	t.Setenv(oci.EnvUsername, registrytest.User)
	t.Setenv(oci.EnvPassword, registrytest.Password)

	signer, verifier := signingKeys(t)
	src := &bundlefile.Source{Commit: strings.Repeat("c", 40), Time: time.Unix(1700000000, 0).UTC()}
	tree, err := bundle.Build(testrepo.Compile(t, testrepo.FS(testrepo.DelegationTeam)), bundle.Options{Source: src,
		SignCard: signer.Sign, SignManifest: signer.SignManifest})
	if err != nil {
		t.Fatal(err)
	}
	ar, err := bundle.Archive(tree, bundle.SourceEpoch(src))
	if err != nil {
		t.Fatal(err)
	}
	meta := oci.Meta{Revision: src.Commit, Created: src.Time}
	ctx := context.Background()
	for _, c := range []struct {
		repo  string
		sign  bool
		ready bool
	}{{"agents/unsigned:v1", false, false}, {"agents/signed:v1", true, true}} {
		ref := r.Host + "/" + c.repo
		opts := oci.Options{PlainHTTP: true}
		if c.sign {
			opts.SignKey = signer.Key()
		}
		if _, err := oci.Publish(ctx, ref, tree, ar, meta, opts); err != nil {
			t.Fatal(err)
		}
		s := New(ctx, Options{Pull: ref, PullOptions: oci.Options{PlainHTTP: true}, Key: verifier})
		l, why := s.current()
		if (l != nil) != c.ready {
			t.Errorf("serve --pull %s --key (cosign-signed: %v): ready %v (%s), want %v", c.repo, c.sign, l != nil, why, c.ready)
		}
	}
}

// TestNoRollback: with --key, a running server does not swap in a signed
// bundle older than the one it serves. Whoever can write the bundle's
// folder or move the tag it pulls, but cannot sign, could otherwise put
// back an earlier release the key signed, with the rules since tightened
// gone (before, any signed bundle was served, whatever its commit's
// time). The bundle serving goes on, and /health says why.
func TestNoRollback(t *testing.T) {
	signer, verifier := signingKeys(t)
	build := func(commit string, at int64, files map[string]string) bundlefile.Tree {
		var src *bundlefile.Source
		if commit != "" {
			src = &bundlefile.Source{Commit: strings.Repeat(commit, 40), Tree: strings.Repeat("b", 40), Time: time.Unix(at, 0).UTC(), Root: "."}
		}
		tree, err := bundle.Build(testrepo.Compile(t, testrepo.FS(files)), bundle.Options{Source: src, SignCard: signer.Sign, SignManifest: signer.SignManifest})
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	older := build("a", 1700000000, testrepo.DelegationTeam)
	newer := build("c", 1700000100, testrepo.DelegationTeam)
	unsourced := build("", 0, testrepo.DelegationTeam)
	dir := t.TempDir() + "/dist"
	deploy := func(tree bundlefile.Tree) {
		t.Helper()
		os.RemoveAll(dir)
		if err := bundle.WriteDir(dir, tree); err != nil {
			t.Fatal(err)
		}
	}
	deploy(newer)
	s, ts := start(t, Options{Bundle: dir, Key: verifier})
	revision := func() string {
		l, why := s.current()
		if l == nil {
			t.Fatal(why)
		}
		return l.bundle.Revision
	}
	if got := revision(); got != strings.Repeat("c", 40) {
		t.Fatalf("serving %s, want the newer bundle", got)
	}
	for name, tree := range map[string]bundlefile.Tree{"an older signed bundle": older, "a signed bundle built from no commit": unsourced} {
		deploy(tree)
		if err := s.Reload(context.Background()); err == nil || !strings.Contains(err.Error(), "older") && !strings.Contains(err.Error(), "no commit") {
			t.Errorf("%s: reload %v, want a refusal", name, err)
		}
		if got := revision(); got != strings.Repeat("c", 40) {
			t.Errorf("%s was served (revision %s)", name, got)
		}
	}
	_, b := get(t, ts.URL+"/health")
	if !strings.Contains(string(b), "older") && !strings.Contains(string(b), "no commit") {
		t.Errorf("/health does not say why: %s", b)
	}
	// The same bundle again, or a newer one, is served.
	newest := build("d", 1700000200, testrepo.DelegationTeam)
	deploy(newest)
	if err := s.Reload(context.Background()); err != nil || revision() != strings.Repeat("d", 40) {
		t.Errorf("a newer bundle: %v, serving %s", err, revision())
	}
	// A restart serves what is there: the operator's way back.
	deploy(older)
	s2, _ := start(t, Options{Bundle: dir, Key: verifier})
	if l, why := s2.current(); l == nil || l.bundle.Revision != strings.Repeat("a", 40) {
		t.Errorf("a restart on the older bundle: %v %s", l, why)
	}
}

// TestNoRollbackPulled: the tag serve --pull follows, moved back to an
// earlier release the key signed (anyone who may push can move it), is
// not served when the tag is polled again.
func TestNoRollbackPulled(t *testing.T) {
	realtool.Need(t, "docker-registry", "docker-registry")
	realtool.Need(t, "htpasswd", "apache2-utils")
	r, err := registrytest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	t.Setenv(oci.EnvUsername, registrytest.User)
	t.Setenv(oci.EnvPassword, registrytest.Password)
	signer, verifier := signingKeys(t)
	ctx := context.Background()
	ref := r.Host + "/agents/team:prod"
	publish := func(commit string, at int64) {
		t.Helper()
		src := &bundlefile.Source{Commit: strings.Repeat(commit, 40), Time: time.Unix(at, 0).UTC()}
		tree, err := bundle.Build(testrepo.Compile(t, testrepo.FS(testrepo.DelegationTeam)), bundle.Options{Source: src,
			SignCard: signer.Sign, SignManifest: signer.SignManifest})
		if err != nil {
			t.Fatal(err)
		}
		ar, err := bundle.Archive(tree, bundle.SourceEpoch(src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := oci.Publish(ctx, ref, tree, ar, oci.Meta{Revision: src.Commit, Created: src.Time}, oci.Options{PlainHTTP: true, SignKey: signer.Key()}); err != nil {
			t.Fatal(err)
		}
	}
	publish("c", 1700000100)
	s := New(ctx, Options{Pull: ref, PullOptions: oci.Options{PlainHTTP: true}, Key: verifier})
	l, why := s.current()
	if l == nil {
		t.Fatal(why)
	}
	publish("a", 1700000000) // the tag moved back to an older signed release
	s.pollTag(ctx)
	if l, _ := s.current(); l.bundle.Revision != strings.Repeat("c", 40) {
		t.Errorf("the tag moved back to an older release, and it is served: %s", l.bundle.Revision)
	}
	if msg, _ := s.lastError(); !strings.Contains(msg, "older") {
		t.Errorf("last error %q, want that the bundle is older", msg)
	}
}
