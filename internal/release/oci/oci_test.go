package oci

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/internal/testkit/registrytest"
)

// startRegistry runs the real registry for one test, with the test's
// credentials in the environment and an empty Docker config.
func startRegistry(t *testing.T) *registrytest.Registry {
	t.Helper()
	realtool.Need(t, "docker-registry", "docker-registry")
	realtool.Need(t, "htpasswd", "apache2-utils")
	r, err := registrytest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	t.Setenv(EnvUsername, registrytest.User)
	t.Setenv(EnvPassword, registrytest.Password)
	return r
}

// tree returns a small bundle with its manifest, and its archive.
func tree(t *testing.T, text string) (bundlefile.Tree, []byte) {
	t.Helper()
	tr := bundlefile.Tree{"agents/ann/prompt.md": []byte(text), "team.json": []byte("{}\n")}
	m := bundlefile.Manifest{SchemaVersion: bundlefile.SchemaVersion, CharterVersion: "test", CUEVersion: "test"}
	for _, p := range tr.Paths() {
		sum := sha256.Sum256(tr[p])
		m.Files = append(m.Files, bundlefile.File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: len(tr[p])})
	}
	mb, err := canonjson.Pretty(m)
	if err != nil {
		t.Fatal(err)
	}
	tr["manifest.json"] = mb
	src := &bundlefile.Source{Commit: "c0ffee", Time: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	ar, err := bundle.Archive(tr, bundle.SourceEpoch(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr, ar
}

var meta = Meta{Revision: "c0ffee", Created: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), Version: "v1.3.0", Source: "https://example.com/agents.git"}

func TestPublishPull(t *testing.T) {
	r := startRegistry(t)
	ctx := context.Background()
	opts := Options{PlainHTTP: true}
	tr, ar := tree(t, "You are Ann.\n")
	ref := r.Host + "/agents/support:v1.3.0"

	pub, err := Publish(ctx, ref, tr, ar, meta, opts)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Uploaded != 2 {
		t.Errorf("first publish uploaded %d blobs, want 2", pub.Uploaded)
	}
	wantAnn := map[string]string{
		"org.opencontainers.image.created":  "2026-01-01T12:00:00Z",
		"org.opencontainers.image.revision": "c0ffee",
		"org.opencontainers.image.version":  "v1.3.0",
		"org.opencontainers.image.source":   "https://example.com/agents.git",
		AnnotationSchemaVersion:             bundlefile.SchemaVersion,
	}
	if d := cmp.Diff(wantAnn, pub.Annotations); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}

	// The same bundle again: the same digest, nothing uploaded.
	again, err := Publish(ctx, ref, tr, ar, meta, opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Digest != pub.Digest || again.Uploaded != 0 {
		t.Errorf("re-publish: digest %s (first %s), %d uploads; want the same digest and none", again.Digest, pub.Digest, again.Uploaded)
	}

	for _, pref := range []string{ref, r.Host + "/agents/support@" + pub.Digest} {
		got, err := Pull(ctx, pref, opts)
		if err != nil {
			t.Fatalf("Pull(%s): %v", pref, err)
		}
		if got.Digest != pub.Digest {
			t.Errorf("Pull(%s) digest %s, want %s", pref, got.Digest, pub.Digest)
		}
		if d := cmp.Diff(tr, got.Tree); d != "" {
			t.Errorf("Pull(%s) tree (-want +got):\n%s", pref, d)
		}
	}

	// Storage tampered with: the registry serves the bad bytes, the pull
	// refuses them.
	layer := content.NewDescriptorFromBytes(LayerMediaType, ar)
	if err := r.Tamper(layer.Digest.String()); err != nil {
		t.Fatal(err)
	}
	_, err = Pull(ctx, r.Host+"/agents/support@"+pub.Digest, opts)
	var oerr *Error
	if !errors.Is(err, content.ErrMismatchedDigest) || !errors.As(err, &oerr) || !strings.Contains(err.Error(), "does not match its digest") {
		t.Errorf("Pull of a tampered blob = %v, want a digest mismatch", err)
	}
	// A digest that names another manifest is not found, not trusted.
	other := "sha256:" + strings.Repeat("ab", 32)
	if _, err := Pull(ctx, r.Host+"/agents/support@"+other, opts); !errors.As(err, &oerr) || !strings.Contains(err.Error(), "has no manifest "+other) {
		t.Errorf("Pull(unknown digest) = %v", err)
	}
}

func TestPullErrors(t *testing.T) {
	r := startRegistry(t)
	ctx := context.Background()
	opts := Options{PlainHTTP: true}

	// Not charter's: an artifact of another type.
	repo, err := repository(mustRef(t, r.Host+"/other/thing:v1"), opts)
	if err != nil {
		t.Fatal(err)
	}
	desc, err := oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, "application/vnd.example.thing", oras.PackManifestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Tag(ctx, desc, "v1"); err != nil {
		t.Fatal(err)
	}
	_, err = Pull(ctx, r.Host+"/other/thing:v1", opts)
	var nb *NotBundleError
	if !errors.As(err, &nb) || !strings.Contains(err.Error(), `its artifactType is "application/vnd.example.thing"`) {
		t.Errorf("Pull(other artifact) = %v", err)
	}

	// A newer schema version is refused before its blobs are fetched.
	newer := meta
	tr, ar := tree(t, "x")
	pub, err := Publish(ctx, r.Host+"/agents/support:future", tr, ar, newer, opts)
	if err != nil {
		t.Fatal(err)
	}
	future := pub.Annotations
	future[AnnotationSchemaVersion] = "99"
	repo, _ = repository(mustRef(t, r.Host+"/agents/support:future"), opts)
	cfg := content.NewDescriptorFromBytes(ConfigMediaType, tr["manifest.json"])
	layer := content.NewDescriptorFromBytes(LayerMediaType, ar)
	fdesc, err := oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, ArtifactType, oras.PackManifestOptions{ConfigDescriptor: &cfg, Layers: []ocispec.Descriptor{layer}, ManifestAnnotations: future})
	if err != nil {
		t.Fatal(err)
	}
	repo.Tag(ctx, fdesc, "future")
	_, err = Pull(ctx, r.Host+"/agents/support:future", opts)
	var serr *bundlefile.SchemaError
	if !errors.As(err, &serr) || !strings.Contains(err.Error(), "upgrade charter") {
		t.Errorf("Pull(newer schema) = %v", err)
	}

	// A tag that does not exist.
	_, err = Pull(ctx, r.Host+"/agents/support:v9", opts)
	if err == nil || err.Error() != "pull: registry "+r.Host+": agents/support has no tag v9" {
		t.Errorf("Pull(unknown tag) = %v", err)
	}

	// A wrong password: named registry, no password.
	t.Setenv(EnvPassword, "wrong-password-123")
	_, err = Pull(ctx, r.Host+"/agents/support:future", opts)
	var oerr *Error
	if !errors.As(err, &oerr) || !strings.Contains(err.Error(), "registry "+r.Host) || !strings.Contains(err.Error(), "credentials were refused (401") {
		t.Errorf("Pull(wrong password) = %v", err)
	}
	if strings.Contains(err.Error()+oerr.Hint, "wrong-password-123") {
		t.Errorf("the error shows the password: %v / %s", err, oerr.Hint)
	}

	// No credentials at all.
	t.Setenv(EnvUsername, "")
	t.Setenv(EnvPassword, "")
	_, err = Pull(ctx, r.Host+"/agents/support:future", opts)
	if !errors.Is(err, auth.ErrBasicCredentialNotFound) || !strings.Contains(errors.Unwrap(err).Error()+err.(*Error).Hint, "docker login "+r.Host) {
		t.Errorf("Pull(no credentials) = %v", err)
	}
}

// TestPublishDropped pushes through a proxy that cuts every blob upload:
// the error says the transfer failed, and names the registry.
func TestPublishDropped(t *testing.T) {
	r := startRegistry(t)
	p, err := registrytest.StartDropProxy(r.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	tr, ar := tree(t, "dropped")
	start := time.Now()
	_, err = Publish(context.Background(), p.Host+"/agents/support:v1", tr, ar, meta, Options{PlainHTTP: true})
	var oerr *Error
	if !errors.As(err, &oerr) || !strings.Contains(err.Error(), "registry "+p.Host) || !strings.Contains(err.Error(), "connection failed during the transfer") {
		t.Errorf("Publish through a dropping proxy = %v", err)
	}
	t.Logf("failed after %v: %v", time.Since(start), err)
}

func TestPlainHTTPLoopbackOnly(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:5000": true, "localhost:5000": true, "[::1]:5000": true, "127.1.2.3": true,
		"registry.example.com": false, "10.0.0.1:5000": false, "localhost.example.com": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
	_, err := Pull(context.Background(), "registry.example.com/a/b:v1", Options{PlainHTTP: true})
	if err == nil || !strings.Contains(err.Error(), "allowed only for a registry on this machine") {
		t.Errorf("Pull --plain-http to a remote host = %v", err)
	}
}

func TestPublishNeedsTag(t *testing.T) {
	tr, ar := tree(t, "x")
	_, err := Publish(context.Background(), "127.0.0.1:1/a/b@sha256:"+strings.Repeat("0", 64), tr, ar, meta, Options{PlainHTTP: true})
	if err == nil || !strings.Contains(err.Error(), "publish needs a tag") {
		t.Errorf("Publish(digest) = %v", err)
	}
}

func TestUnreachable(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	_, err := Pull(context.Background(), "127.0.0.1:1/a/b:v1", Options{PlainHTTP: true, HTTPClient: noRetry()})
	if err == nil || !strings.Contains(err.Error(), "pull: registry 127.0.0.1:1: cannot connect") {
		t.Errorf("Pull(closed port) = %v", err)
	}
}

func mustRef(t *testing.T, s string) registry.Reference {
	t.Helper()
	r, err := ParseRef(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// noRetry is a client that gives up at the first failure.
func noRetry() *http.Client { return &http.Client{} }

func TestMain(m *testing.M) {
	// Tests never read the developer's Docker credentials.
	os.Setenv("DOCKER_CONFIG", filepath.Join(os.TempDir(), "charter-oci-test-no-docker-config"))
	os.Exit(m.Run())
}

func TestAnnotationsDropUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		"https://x-access-token:ghs_secret@github.com/acme/agents.git": "https://github.com/acme/agents.git",
		"https://github.com/acme/agents":                               "https://github.com/acme/agents",
		// Not URLs Go parses (a bad escape, a colon in the first
		// segment): the token goes all the same.
		"https://x:ghs_sec%zzret@github.com/acme/agents.git": "https://github.com/acme/agents.git",
		"x-access-token:ghs_secret@github.com:acme/agents":   "github.com:acme/agents",
		"ssh://git@github.com/acme/a@b.git":                  "ssh://github.com/acme/a@b.git",
	} {
		m := Meta{Source: in}
		if got := m.Annotations("1")["org.opencontainers.image.source"]; got != want {
			t.Errorf("source annotation of %q = %q, want %q", in, got, want)
		}
	}
}

// TestUnknownHost names a host no resolver knows, and one the resolver
// could not be asked about; the tests' resolver asks no DNS.
func TestUnknownHost(t *testing.T) {
	_, err := Pull(context.Background(), "registry.invalid/a/b:v1", Options{HTTPClient: registrytest.OfflineClient(registrytest.NoDNS)})
	if err == nil || err.Error() != "pull: registry registry.invalid: unknown host registry.invalid" {
		t.Errorf("Pull(unknown host) = %v", err)
	}
	down := func(name string) (string, error) {
		return "", &net.DNSError{Err: "server misbehaving", Name: name, Server: "10.0.0.53:53", IsTemporary: true}
	}
	_, err = Pull(context.Background(), "registry.example.com/a/b:v1", Options{HTTPClient: registrytest.OfflineClient(down)})
	var oerr *Error
	if !errors.As(err, &oerr) || err.Error() != "pull: registry registry.example.com: cannot look up registry.example.com: lookup registry.example.com on 10.0.0.53:53: server misbehaving" || !strings.Contains(oerr.Hint, "name server") {
		t.Errorf("Pull(DNS down) = %v (hint %v)", err, oerr)
	}
}

// TestParseRefCredentials: a reference with USER:PASSWORD@ is refused
// without echoing the password.
func TestParseRefCredentials(t *testing.T) {
	for _, ref := range []string{"bob:hunter2@127.0.0.1:5000/a/b:v1", "https://bob:hunter2@ghcr.io/a/b:v1", "bob:hunter2@ghcr.io"} {
		_, err := ParseRef(ref)
		if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "a registry reference holds no credentials") {
			t.Errorf("ParseRef(%q) = %v", ref, err)
		}
	}
	if _, err := ParseRef("ghcr.io/a/b@sha256:" + strings.Repeat("0", 64)); err != nil {
		t.Errorf("ParseRef(digest) = %v", err)
	}
}

// A Docker config whose entry for the registry does not read is named,
// with what is wrong in it, and never with the credential it holds.
func TestDockerConfigBadAuth(t *testing.T) {
	r := startRegistry(t)
	t.Setenv(EnvUsername, "")
	t.Setenv(EnvPassword, "")
	for _, c := range []struct{ name, entry, want string }{
		{"not base64", `{"auth":"bad!!"}`, `auths."` + r.Host + `".auth is not base64`},
		{"no colon", `{"auth":"` + base64.StdEncoding.EncodeToString([]byte("s3cretnocolon")) + `"}`, `auths."` + r.Host + `".auth is not the base64 of USER:PASSWORD (no colon)`},
		{"not an object", `"x"`, `auths."` + r.Host + `" is not an object`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("DOCKER_CONFIG", dir)
			path := filepath.Join(dir, "config.json")
			if err := os.WriteFile(path, []byte(`{"auths":{"`+r.Host+`":`+c.entry+`}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Pull(context.Background(), r.Host+"/agents/x:v1", Options{PlainHTTP: true, HTTPClient: noRetry()})
			var oerr *Error
			if !errors.As(err, &oerr) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Pull = %v, want an error naming %s and %q", err, path, c.want)
			}
			if strings.Contains(err.Error(), "s3cret") || !strings.Contains(oerr.Hint, "docker login "+r.Host) {
				t.Errorf("Pull = %v (hint %q): a credential shown, or no hint", err, oerr.Hint)
			}
		})
	}
}
