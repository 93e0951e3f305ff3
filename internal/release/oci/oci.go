// Package oci publishes a bundle to an OCI registry and pulls it back, as
// CUE modules, Helm charts and policy bundles travel.
//
// A published bundle is one OCI image manifest (image-spec v1.1) of
// artifactType ArtifactType whose config is the bundle's manifest.json
// (ConfigMediaType) and whose one layer is the bundle's reproducible
// tar.gz (LayerMediaType). Its annotations are the standard ones, from the
// commit (org.opencontainers.image.revision, .created from the commit
// time, .version, .source), and the bundle's schema version. The same
// commit gives the same bytes, so the same digest, and a second push
// uploads nothing.
//
// Pull trusts nothing the registry says: the manifest must match the
// digest asked for (or the one the registry names for a tag), every blob
// its descriptor's digest, every file of the bundle its entry in
// manifest.json; an artifact of another type, or of a newer schema
// version, is refused before its layers are fetched.
//
// Credentials come from the Docker config file (DOCKER_CONFIG or
// ~/.docker/config.json, with its credential helpers) or from
// CHARTER_REGISTRY_USERNAME and CHARTER_REGISTRY_PASSWORD; no error
// message holds a password.
package oci

import (
	"bytes"
	"context"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
	"oras.land/oras-go/v2/registry/remote/errcode"
	"oras.land/oras-go/v2/registry/remote/retry"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
)

// Media types of a published bundle.
const (
	// ArtifactType is the manifest's artifactType.
	ArtifactType = "application/vnd.charter.bundle.v1"
	// ConfigMediaType is the config blob's: the bundle's manifest.json.
	ConfigMediaType = "application/vnd.charter.bundle.manifest.v1+json"
	// LayerMediaType is the one layer's: the bundle as a reproducible tar.gz.
	LayerMediaType = "application/vnd.charter.bundle.layer.v1.tar+gzip"
	// AnnotationSchemaVersion holds the bundle's schema version, so that a
	// pull can refuse a newer one before fetching it.
	AnnotationSchemaVersion = "dev.charter.bundle.schema-version"
)

// Environment variables that hold credentials for every registry; they
// take precedence over the Docker config file.
const (
	EnvUsername = "CHARTER_REGISTRY_USERNAME"
	EnvPassword = "CHARTER_REGISTRY_PASSWORD"
)

// maxManifest bounds the OCI manifest a pull reads.
const maxManifest = 4 << 20

// Options say how to reach the registry.
type Options struct {
	// PlainHTTP speaks HTTP instead of HTTPS; it is refused for any host
	// but a loopback one.
	PlainHTTP bool
	// Progress, when set, is told what is being transferred.
	Progress func(msg string)
	// HTTPClient replaces the default client (with retries), for tests.
	HTTPClient *http.Client
	// SignKey, when set, makes Publish sign the artifact as cosign does
	// (cosign.go).
	SignKey crypto.Signer
	// VerifyKey, when set, makes Pull require a cosign signature by this
	// key of the exact digest it pulls, before it fetches the bundle.
	VerifyKey crypto.PublicKey
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// Meta describes what a bundle was built from; it becomes the manifest's
// annotations.
type Meta struct {
	// Revision is the commit hash, Created its time.
	Revision string
	Created  time.Time
	// Version is the release's version (the tag), Source the URL of the
	// source repository; both may be empty.
	Version string
	Source  string
}

// Annotations returns the manifest annotations of a bundle built from m
// with schema version schema.
func (m Meta) Annotations(schema string) map[string]string {
	a := map[string]string{
		ocispec.AnnotationCreated: m.Created.UTC().Format(time.RFC3339),
		AnnotationSchemaVersion:   schema,
	}
	if m.Created.IsZero() {
		a[ocispec.AnnotationCreated] = time.Unix(0, 0).UTC().Format(time.RFC3339)
	}
	if m.Revision != "" {
		a[ocispec.AnnotationRevision] = m.Revision
	}
	if m.Version != "" {
		a[ocispec.AnnotationVersion] = m.Version
	}
	if m.Source != "" {
		a[ocispec.AnnotationSource] = withoutUserinfo(m.Source)
	}
	return a
}

// withoutUserinfo drops user:password@ from a URL: a clone URL may carry
// a token, and annotations are public. What Go does not parse as a
// hierarchical URL (a bad escape, scp-like user:token@host:path) loses
// everything before the last @ of its host part all the same.
func withoutUserinfo(s string) string {
	if u, err := url.Parse(s); err == nil && u.Opaque == "" {
		u.User = nil
		return u.String()
	}
	prefix, rest, ok := strings.Cut(s, "://")
	if ok {
		prefix += "://"
	} else {
		prefix, rest = "", s
	}
	host, path, slash := strings.Cut(rest, "/")
	if i := strings.LastIndex(host, "@"); i >= 0 {
		host = host[i+1:]
	}
	if slash {
		path = "/" + path
	}
	return prefix + host + path
}

// Error is a failure to talk to a registry: what was being done, the
// registry (host:port), why, and a hint.
type Error struct {
	Registry string
	Op       string
	Reason   string
	Hint     string
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: registry %s: %s", e.Op, e.Registry, e.Reason)
}

func (e *Error) Unwrap() error { return e.Err }

// NotBundleError says a pulled artifact is not a charter bundle.
type NotBundleError struct {
	Ref    string
	Reason string
}

func (e *NotBundleError) Error() string {
	return fmt.Sprintf("%s is not a charter bundle: %s", e.Ref, e.Reason)
}

// ParseRef parses REGISTRY/REPOSITORY[:TAG|@DIGEST].
func ParseRef(ref string) (registry.Reference, error) {
	_, rest, ok := strings.Cut(ref, "://")
	if !ok {
		rest = ref
	}
	if host, _, _ := strings.Cut(rest, "/"); strings.Contains(host, "@") {
		// Not echoed: what precedes the @ is a password, in a log.
		return registry.Reference{}, fmt.Errorf("%s: a registry reference holds no credentials (USER:PASSWORD@ before the host); give them with docker login %s, or in %s and %s", withoutUserinfo(ref), withoutUserinfo(host), EnvUsername, EnvPassword)
	}
	r, err := registry.ParseReference(ref)
	if err != nil {
		return r, fmt.Errorf("%q is not a registry reference (want HOST[:PORT]/REPOSITORY:TAG or HOST[:PORT]/REPOSITORY@sha256:DIGEST): %v", ref, err)
	}
	return r, nil
}

// IsLoopback reports whether host (with or without a port) names this
// machine: localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Check parses ref and refuses options that do not suit it (plain HTTP to
// a host that is not this machine), before any work is done.
func Check(ref string, o Options) (registry.Reference, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return r, err
	}
	if o.PlainHTTP && !IsLoopback(r.Registry) {
		return r, fmt.Errorf("plain HTTP would send the bundle and the credentials for %s unencrypted; it is allowed only for a registry on this machine (localhost, 127.0.0.1, ::1)", r.Registry)
	}
	return r, nil
}

// CheckPublish is Check for a reference to publish to, which must name a
// tag.
func CheckPublish(ref string, o Options) (registry.Reference, error) {
	r, err := Check(ref, o)
	if err != nil {
		return r, err
	}
	if err := r.ValidateReferenceAsTag(); err != nil {
		return r, fmt.Errorf("%s: publish needs a tag to push to (HOST/REPOSITORY:TAG), not a digest or nothing", ref)
	}
	return r, nil
}

func repository(ref registry.Reference, o Options) (*remote.Repository, error) {
	if _, err := Check(ref.String(), o); err != nil {
		return nil, err
	}
	repo := &remote.Repository{Reference: ref, PlainHTTP: o.PlainHTTP}
	hc := o.HTTPClient
	if hc == nil {
		hc = retry.DefaultClient
	}
	repo.Client = &auth.Client{
		Client:     hc,
		Cache:      auth.NewCache(),
		Credential: credentialFunc(),
		Header:     http.Header{"User-Agent": {"charter"}},
	}
	return repo, nil
}

// credentialFunc resolves a registry's credentials: the environment's,
// else the Docker config file's, else none.
func credentialFunc() auth.CredentialFunc {
	user, pass := os.Getenv(EnvUsername), os.Getenv(EnvPassword)
	var store credentials.Store
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		if user != "" || pass != "" {
			return auth.Credential{Username: user, Password: pass}, nil
		}
		if store == nil {
			s, err := credentials.NewStoreFromDocker(credentials.StoreOptions{})
			if err != nil {
				return auth.EmptyCredential, fmt.Errorf("reading the Docker config file: %v", err)
			}
			store = s
		}
		cred, err := store.Get(ctx, hostport)
		if err != nil {
			// oras's message is only "invalid config format" past
			// its wrapping, or quotes the decoded credential: say
			// which file and entry, and what is wrong, ourselves.
			// Other errors (a credential helper that is not
			// installed) say what they are.
			if ce := dockerConfigProblem(hostport); ce.found || rootCause(err).Error() == "invalid config format" {
				return auth.EmptyCredential, ce
			}
			return auth.EmptyCredential, err
		}
		return cred, nil
	}
}

// ConfigError is a Docker config file whose entry for a registry does
// not read: the file, and what is wrong (never the credential).
type ConfigError struct {
	Path, Host, Reason string
	found              bool // Reason names the problem
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("the Docker config file %s: %s", e.Path, e.Reason)
}

// dockerConfigPath is the file oras reads: $DOCKER_CONFIG/config.json,
// else ~/.docker/config.json.
func dockerConfigPath() string {
	if dir := os.Getenv("DOCKER_CONFIG"); dir != "" {
		return filepath.Join(dir, "config.json")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".docker", "config.json")
}

// dockerConfigProblem says what is wrong in the Docker config file's
// entry for host, the file oras could not take credentials from.
func dockerConfigProblem(host string) *ConfigError {
	e := &ConfigError{Path: dockerConfigPath(), Host: host, Reason: fmt.Sprintf("the credentials for %s do not read", host)}
	b, err := os.ReadFile(e.Path)
	if err != nil {
		e.Reason = fmt.Sprintf("cannot be read: %v", err)
		return e
	}
	var cfg struct {
		Auths map[string]json.RawMessage `json:"auths"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		e.Reason, e.found = fmt.Sprintf("is not JSON of the Docker config's form: %v", err), true
		return e
	}
	key, raw, ok := "", json.RawMessage(nil), false
	if raw, ok = cfg.Auths[host]; ok {
		key = host
	} else {
		for k, v := range cfg.Auths {
			h := strings.TrimPrefix(strings.TrimPrefix(k, "http://"), "https://")
			if h, _, _ = strings.Cut(h, "/"); h == host {
				key, raw, ok = k, v, true
				break
			}
		}
	}
	if !ok {
		return e
	}
	var entry map[string]json.RawMessage
	if json.Unmarshal(raw, &entry) != nil {
		e.Reason, e.found = fmt.Sprintf("auths.%q is not an object (want {\"auth\": base64 of USER:PASSWORD})", key), true
		return e
	}
	for _, f := range []string{"auth", "username", "password", "identitytoken", "registrytoken"} {
		var s string
		if v, ok := entry[f]; ok && json.Unmarshal(v, &s) != nil {
			e.Reason, e.found = fmt.Sprintf("auths.%q.%s is not a string", key, f), true
			return e
		}
	}
	var a string
	_ = json.Unmarshal(entry["auth"], &a)
	if a == "" {
		return e
	}
	dec, err := base64.StdEncoding.DecodeString(a)
	var cerr base64.CorruptInputError
	e.found = true
	switch {
	case errors.As(err, &cerr):
		e.Reason = fmt.Sprintf("auths.%q.auth is not base64 (of USER:PASSWORD): a character it cannot hold at byte %d", key, int64(cerr))
	case err != nil:
		e.Reason = fmt.Sprintf("auths.%q.auth is not base64 (of USER:PASSWORD)", key)
	case !bytes.Contains(dec, []byte(":")):
		e.Reason = fmt.Sprintf("auths.%q.auth is not the base64 of USER:PASSWORD (no colon)", key)
	default:
		e.found = false
	}
	return e
}

// classify turns what oras returns into an *Error that says what to do.
func classify(op string, ref registry.Reference, err error) error {
	e := &Error{Registry: ref.Registry, Op: op, Err: err}
	var resp *errcode.ErrorResponse
	var nerr net.Error
	var operr *net.OpError
	var dnserr *net.DNSError
	var cerr *ConfigError
	switch {
	case errors.As(err, &cerr):
		e.Reason = cerr.Error()
		e.Hint = fmt.Sprintf("fix the entry (auth is the base64 of USER:PASSWORD), or run docker login %s again, or set %s and %s", cerr.Host, EnvUsername, EnvPassword)
	case errors.Is(err, content.ErrMismatchedDigest), errors.Is(err, content.ErrTrailingData):
		e.Reason = "the registry served content that does not match its digest"
		e.Hint = "the registry's storage is damaged or the content was tampered with; publish the bundle again"
	case errors.Is(err, auth.ErrBasicCredentialNotFound):
		e.Reason = "the registry asks for credentials and none are configured"
		e.Hint = fmt.Sprintf("run docker login %s, or set %s and %s", ref.Registry, EnvUsername, EnvPassword)
	case errors.As(err, &resp) && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden):
		e.Reason = fmt.Sprintf("the credentials were refused (%d %s)", resp.StatusCode, http.StatusText(resp.StatusCode))
		e.Hint = fmt.Sprintf("check the user name and password for %s (docker login %s, or %s and %s) and that they may %s %s", ref.Registry, ref.Registry, EnvUsername, EnvPassword, op, ref.Repository)
	case errors.Is(err, errdef.ErrNotFound) || errors.As(err, &resp) && resp.StatusCode == http.StatusNotFound:
		e.Reason = fmt.Sprintf("%s has no %s", ref.Repository, refKind(ref))
		e.Hint = "check the reference: publish pushes a tag with charter publish --rev REV REF"
	case errors.As(err, &dnserr) && dnserr.IsNotFound:
		e.Reason = fmt.Sprintf("unknown host %s", dnserr.Name)
		e.Hint = "check the registry's name in the reference"
	case errors.As(err, &dnserr):
		// The name server did not answer: the name may well exist.
		e.Reason = fmt.Sprintf("cannot look up %s: %v", dnserr.Name, dnserr)
		e.Hint = "check the network and the name server (/etc/resolv.conf), then try again"
	case errors.Is(err, http.ErrSchemeMismatch):
		// Retrying cannot help: the registry speaks plain HTTP.
		e.Reason = "the registry answers in plain HTTP, not HTTPS"
		e.Hint = "for a registry on this machine, pass --plain-http; a registry elsewhere must serve HTTPS"
	case errors.As(err, &operr) && operr.Op == "dial":
		e.Reason = fmt.Sprintf("cannot connect: %v", operr.Err)
		e.Hint = "check the registry's name and port, and that it is running"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.As(err, &nerr):
		e.Reason = fmt.Sprintf("the connection failed during the transfer: %v", rootCause(err))
		e.Hint = "nothing was written locally; try again"
	default:
		e.Reason = rootCause(err).Error()
	}
	return e
}

func refKind(ref registry.Reference) string {
	if _, err := ref.Digest(); err == nil {
		return "manifest " + ref.Reference
	}
	return "tag " + ref.Reference
}

// rootCause drops oras's wrapping (method and URL) from a transport
// error, keeping what went wrong.
func rootCause(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// Published is what Publish pushed.
type Published struct {
	Reference string `json:"reference"`
	Digest    string `json:"digest"`
	// Pinned is the reference by digest: REGISTRY/REPOSITORY@DIGEST.
	Pinned      string            `json:"pinned"`
	MediaType   string            `json:"mediaType"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations"`
	// Uploaded counts the blobs the registry did not have yet.
	Uploaded int `json:"uploaded"`
	// Signature is what SignKey signed, nil without one.
	Signature *Signed `json:"signature,omitempty"`
}

// Publish pushes the bundle t, whose reproducible archive is archive, to
// ref (which must name a tag) and tags it. Blobs the registry has already
// are not sent again.
func Publish(ctx context.Context, ref string, t bundlefile.Tree, archive []byte, meta Meta, o Options) (*Published, error) {
	r, err := CheckPublish(ref, o)
	if err != nil {
		return nil, err
	}
	mb, ok := t["manifest.json"]
	if !ok {
		return nil, errors.New("the bundle has no manifest.json")
	}
	m, err := bundlefile.ParseManifest(mb)
	if err != nil {
		return nil, err
	}
	repo, err := repository(r, o)
	if err != nil {
		return nil, err
	}
	config := content.NewDescriptorFromBytes(ConfigMediaType, mb)
	layer := content.NewDescriptorFromBytes(LayerMediaType, archive)
	layer.Annotations = map[string]string{ocispec.AnnotationTitle: "bundle.tar.gz"}
	pub := &Published{Reference: r.String()}
	for _, b := range []struct {
		name string
		desc ocispec.Descriptor
		data []byte
	}{{"manifest.json", config, mb}, {"bundle.tar.gz", layer, archive}} {
		exists, err := repo.Exists(ctx, b.desc)
		if err != nil {
			return nil, classify("publish", r, err)
		}
		if exists {
			continue
		}
		o.progress("uploading %s (%d bytes) to %s", b.name, len(b.data), r.Registry)
		if err := repo.Push(ctx, b.desc, bytes.NewReader(b.data)); err != nil && !errors.Is(err, errdef.ErrAlreadyExists) {
			return nil, classify("publish", r, err)
		}
		pub.Uploaded++
	}
	manifest := ocispec.Manifest{
		Versioned:    specs.Versioned{SchemaVersion: 2},
		MediaType:    ocispec.MediaTypeImageManifest,
		ArtifactType: ArtifactType,
		Config:       config,
		Layers:       []ocispec.Descriptor{layer},
		Annotations:  meta.Annotations(m.SchemaVersion),
	}
	mbytes, err := json.Marshal(manifest)
	if err != nil {
		return nil, err
	}
	o.progress("tagging %s", r.String())
	desc, err := tagBytes(ctx, repo, ocispec.MediaTypeImageManifest, mbytes, r.Reference)
	if err != nil {
		return nil, classify("publish", r, err)
	}
	pub.Digest = desc.Digest.String()
	pub.Pinned = r.Registry + "/" + r.Repository + "@" + pub.Digest
	pub.MediaType = desc.MediaType
	pub.Size = desc.Size
	pub.Annotations = manifest.Annotations
	if o.SignKey != nil {
		if pub.Signature, err = sign(ctx, repo, r, desc, o.SignKey, meta.Created, o); err != nil {
			return nil, err
		}
	}
	return pub, nil
}

// Pulled is a bundle Pull fetched and verified.
type Pulled struct {
	Reference   string            `json:"reference"`
	Digest      string            `json:"digest"`
	Annotations map[string]string `json:"annotations"`
	// Signature says which cosign signature vouched for Digest, when
	// VerifyKey asked for one.
	Signature *SignatureInfo       `json:"signature,omitempty"`
	Manifest  *bundlefile.Manifest `json:"-"`
	Tree      bundlefile.Tree      `json:"-"`
}

// Pull fetches the bundle ref names (by tag or digest) and verifies it
// end to end: the OCI manifest against the digest, each blob against its
// descriptor, each file against manifest.json, and manifest.json against
// the config blob. It returns nothing it has not verified.
func Pull(ctx context.Context, ref string, o Options) (*Pulled, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return nil, err
	}
	if err := r.ValidateReference(); err != nil {
		return nil, fmt.Errorf("%s: name a tag or a digest to pull (HOST/REPOSITORY:TAG or HOST/REPOSITORY@sha256:...)", ref)
	}
	repo, err := repository(r, o)
	if err != nil {
		return nil, err
	}
	o.progress("fetching %s", r.String())
	// fetchBytes checks the bytes against the digest: the one in ref, or
	// the one the registry gives for the tag.
	desc, mbytes, err := fetchBytes(ctx, repo, r.Reference, maxManifest)
	if err != nil {
		return nil, classify("pull", r, err)
	}
	if d, err := r.Digest(); err == nil && desc.Digest != d {
		return nil, classify("pull", r, content.ErrMismatchedDigest)
	}
	if digest.FromBytes(mbytes) != desc.Digest {
		return nil, classify("pull", r, content.ErrMismatchedDigest)
	}
	if desc.MediaType != ocispec.MediaTypeImageManifest {
		return nil, &NotBundleError{Ref: ref, Reason: fmt.Sprintf("its manifest is of media type %s, not an OCI image manifest of artifactType %s", desc.MediaType, ArtifactType)}
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(mbytes, &m); err != nil {
		return nil, &NotBundleError{Ref: ref, Reason: fmt.Sprintf("its manifest does not decode: %v", err)}
	}
	at := m.ArtifactType
	if at == "" {
		at = m.Config.MediaType
	}
	if at != ArtifactType {
		return nil, &NotBundleError{Ref: ref, Reason: fmt.Sprintf("its artifactType is %q, not %s", at, ArtifactType)}
	}
	if v, ok := m.Annotations[AnnotationSchemaVersion]; ok {
		if err := bundlefile.CheckSchema(v); err != nil {
			return nil, err
		}
	}
	if m.Config.MediaType != ConfigMediaType || len(m.Layers) != 1 || m.Layers[0].MediaType != LayerMediaType {
		return nil, &NotBundleError{Ref: ref, Reason: fmt.Sprintf("want a config of %s and one layer of %s", ConfigMediaType, LayerMediaType)}
	}
	var sig *SignatureInfo
	if o.VerifyKey != nil {
		// The digest verified is the one fetched from here on: a tag
		// moved after this line changes nothing.
		o.progress("verifying the signature of %s", desc.Digest)
		if sig, err = VerifySignature(ctx, repo, r.String(), desc, o.VerifyKey); err != nil {
			return nil, err
		}
	}
	for _, d := range []ocispec.Descriptor{m.Config, m.Layers[0]} {
		if d.Size < 0 || d.Size > bundlefile.MaxSize {
			return nil, &NotBundleError{Ref: ref, Reason: fmt.Sprintf("a blob of %d bytes is larger than a bundle may be", d.Size)}
		}
	}
	config, err := content.FetchAll(ctx, repo, m.Config)
	if err != nil {
		return nil, classify("pull", r, err)
	}
	o.progress("fetching bundle.tar.gz (%d bytes)", m.Layers[0].Size)
	archive, err := content.FetchAll(ctx, repo, m.Layers[0])
	if err != nil {
		return nil, classify("pull", r, err)
	}
	t, err := bundle.ReadArchive(bytes.NewReader(archive))
	if err != nil {
		return nil, &NotBundleError{Ref: ref, Reason: err.Error()}
	}
	bm, err := bundlefile.Verify(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	if string(t["manifest.json"]) != string(config) {
		return nil, fmt.Errorf("%s: the bundle's manifest.json differs from the artifact's config blob", ref)
	}
	return &Pulled{Reference: r.String(), Digest: desc.Digest.String(), Annotations: m.Annotations, Signature: sig, Manifest: bm, Tree: t}, nil
}

// Resolve returns the digest ref names now (a tag's current manifest, by
// a HEAD request): what a server polling a tag compares with the digest
// it serves before pulling again.
func Resolve(ctx context.Context, ref string, o Options) (string, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return "", err
	}
	repo, err := repository(r, o)
	if err != nil {
		return "", err
	}
	desc, err := repo.Resolve(ctx, r.Reference)
	if err != nil {
		return "", classify("pull", r, err)
	}
	return desc.Digest.String(), nil
}
