package oci

// Signatures of a published bundle as cosign makes and checks them with a
// key pair (cosign sign --key / cosign verify --key), written with oras-go
// and the standard library rather than cosign's own packages (+7.6 MB and
// 81 modules; docs/release.md). Two forms, both of which cosign v3's
// verify reads:
//
//   - the classic one: an OCI image manifest tagged sha256-<hex>.sig in
//     the same repository, one layer per signature, each a "simple
//     signing" JSON payload naming the signed digest, its signature (over
//     the payload's SHA-256; ECDSA as ASN.1 DER, or pure Ed25519) in the
//     dev.cosignproject.cosign/signature annotation;
//   - cosign v3's default: a Sigstore bundle v0.3 (a DSSE envelope over an
//     in-toto statement naming the digest) pushed as an OCI 1.1 referrer
//     of the signed manifest. On a registry without the referrers API,
//     oras-go keeps the referrers index under the tag sha256-<hex>, as
//     cosign does. Written for ECDSA P-256 keys only: cosign v3.1.3 cannot
//     check an Ed25519 bundle.
//
// Verifying is fail-closed (OPA's GHSA-g2pf-6v5v-qcc8 is the warning): no
// signature, an empty signature list, a signature by another key, over
// another digest, or of a kind or algorithm charter does not know, is a
// refusal. Either form may vouch for the digest, but only by verifying.

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
)

// What cosign names its signatures' parts.
const (
	simpleSigningType   = "application/vnd.dev.cosign.simplesigning.v1+json"
	annotationSignature = "dev.cosignproject.cosign/signature"
	simpleSigningKind   = "cosign container image signature"
	sigstoreBundleType  = "application/vnd.dev.sigstore.bundle.v0.3+json"
	inTotoType          = "application/vnd.in-toto+json"
	inTotoStatement     = "https://in-toto.io/Statement/v1"
	cosignPredicate     = "https://sigstore.dev/cosign/sign/v1"
	maxSignatureBlob    = 1 << 20
	maxSignatures       = 256
)

// SignatureError says why an artifact's signature does not verify.
type SignatureError struct {
	Ref    string
	Reason string
	Hint   string
}

func (e *SignatureError) Error() string {
	return fmt.Sprintf("%s: %s", e.Ref, e.Reason)
}

// Signed says what Sign pushed.
type Signed struct {
	// Tag is the classic signature's tag, sha256-<hex>.sig.
	Tag string `json:"tag"`
	// Referrer is the digest of the bundle referrer; empty for an Ed25519
	// key, which gets the classic form only.
	Referrer string `json:"referrer,omitempty"`
}

// signatureKey checks that key is one charter signs artifacts with.
func signatureKey(pub crypto.PublicKey) error {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return fmt.Errorf("an ECDSA key on %s: cosign's signatures here use P-256", k.Curve.Params().Name)
		}
		return nil
	case ed25519.PublicKey:
		return nil
	}
	return fmt.Errorf("a %T key: the artifact's signature takes ECDSA P-256 (or Ed25519)", pub)
}

// Sign signs the artifact ref names by desc (its manifest) with key, in
// both of cosign's forms, and pushes the signatures next to it. Signing
// twice with one key adds nothing.
func Sign(ctx context.Context, ref string, desc ocispec.Descriptor, key crypto.Signer, created time.Time, o Options) (*Signed, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return nil, err
	}
	if err := signatureKey(key.Public()); err != nil {
		return nil, err
	}
	repo, err := repository(r, o)
	if err != nil {
		return nil, err
	}
	return sign(ctx, repo, r, desc, key, created, o)
}

func sign(ctx context.Context, repo *remote.Repository, r registry.Reference, desc ocispec.Descriptor, key crypto.Signer, created time.Time, o Options) (*Signed, error) {
	if err := signatureKey(key.Public()); err != nil {
		return nil, err
	}
	o.progress("signing %s", desc.Digest)
	s := &Signed{Tag: sigTag(desc.Digest)}
	if err := attachClassic(ctx, repo, r.Registry+"/"+r.Repository, desc.Digest, key); err != nil {
		return nil, classify("sign", r, err)
	}
	if _, ok := key.Public().(*ecdsa.PublicKey); ok {
		d, err := attachBundle(ctx, repo, desc, key, created)
		if err != nil {
			return nil, classify("sign", r, err)
		}
		s.Referrer = d.Digest.String()
	}
	return s, nil
}

func sigTag(d digest.Digest) string {
	return d.Algorithm().String() + "-" + d.Encoded() + ".sig"
}

// simpleSigning is the payload of a classic signature. Its fields are in
// the order cosign writes them.
type simpleSigning struct {
	Critical struct {
		Identity struct {
			DockerReference string `json:"docker-reference"`
		} `json:"identity"`
		Image struct {
			DockerManifestDigest string `json:"docker-manifest-digest"`
		} `json:"image"`
		Type string `json:"type"`
	} `json:"critical"`
	Optional map[string]any `json:"optional"`
}

// signBytes signs msg: ECDSA over its SHA-256 (ASN.1 DER), Ed25519 over
// the bytes themselves (pure Ed25519, which cosign verify accepts).
func signBytes(key crypto.Signer, msg []byte) ([]byte, error) {
	if _, ok := key.Public().(ed25519.PublicKey); ok {
		return key.Sign(rand.Reader, msg, crypto.Hash(0))
	}
	sum := sha256.Sum256(msg)
	return key.Sign(rand.Reader, sum[:], crypto.SHA256)
}

// verifyBytes checks sig over msg with pub as signBytes made it.
func verifyBytes(pub crypto.PublicKey, msg, sig []byte) bool {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		sum := sha256.Sum256(msg)
		return ecdsa.VerifyASN1(k, sum[:], sig)
	case ed25519.PublicKey:
		return ed25519.Verify(k, msg, sig)
	}
	return false
}

func attachClassic(ctx context.Context, repo *remote.Repository, dockerRef string, d digest.Digest, key crypto.Signer) error {
	var p simpleSigning
	p.Critical.Identity.DockerReference = dockerRef
	p.Critical.Image.DockerManifestDigest = d.String()
	p.Critical.Type = simpleSigningKind
	payload, err := json.Marshal(p)
	if err != nil {
		return err
	}
	tag := sigTag(d)
	var layers []ocispec.Descriptor
	if m, _, err := fetchManifest(ctx, repo, tag); err == nil {
		for _, l := range m.Layers {
			if l.Digest == digest.FromBytes(payload) {
				if sig, err := base64.StdEncoding.DecodeString(l.Annotations[annotationSignature]); err == nil && verifyBytes(key.Public(), payload, sig) {
					return nil // signed by this key already
				}
			}
		}
		layers = m.Layers
	} else if !errors.Is(err, errdef.ErrNotFound) {
		return err
	}
	sig, err := signBytes(key, payload)
	if err != nil {
		return err
	}
	layer := content.NewDescriptorFromBytes(simpleSigningType, payload)
	layer.Annotations = map[string]string{annotationSignature: base64.StdEncoding.EncodeToString(sig)}
	if err := pushBlob(ctx, repo, layer, payload); err != nil {
		return err
	}
	layers = append(layers, layer)
	diffIDs := make([]string, len(layers))
	for i, l := range layers {
		diffIDs[i] = l.Digest.String()
	}
	// The image config cosign writes, which lists the layers.
	cfg, err := json.Marshal(map[string]any{
		"architecture": "", "os": "", "config": map[string]any{},
		"created": "0001-01-01T00:00:00Z", "history": []map[string]any{{"created": "0001-01-01T00:00:00Z"}},
		"rootfs": map[string]any{"type": "layers", "diff_ids": diffIDs},
	})
	if err != nil {
		return err
	}
	cfgDesc := content.NewDescriptorFromBytes(ocispec.MediaTypeImageConfig, cfg)
	if err := pushBlob(ctx, repo, cfgDesc, cfg); err != nil {
		return err
	}
	mb, err := json.Marshal(ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2},
		MediaType: ocispec.MediaTypeImageManifest,
		Config:    cfgDesc,
		Layers:    layers,
	})
	if err != nil {
		return err
	}
	_, err = tagBytes(ctx, repo, ocispec.MediaTypeImageManifest, mb, tag)
	return err
}

func pushBlob(ctx context.Context, repo *remote.Repository, d ocispec.Descriptor, b []byte) error {
	ok, err := repo.Exists(ctx, d)
	if err != nil || ok {
		return err
	}
	if err := repo.Push(ctx, d, bytes.NewReader(b)); err != nil && !errors.Is(err, errdef.ErrAlreadyExists) {
		return err
	}
	return nil
}

// fetchManifest reads the image manifest at reference (a tag or digest),
// bounded and checked against its digest.
func fetchManifest(ctx context.Context, repo *remote.Repository, reference string) (*ocispec.Manifest, ocispec.Descriptor, error) {
	desc, b, err := fetchBytes(ctx, repo, reference, maxManifest)
	if err != nil {
		return nil, desc, err
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, desc, fmt.Errorf("manifest %s does not decode: %v", reference, err)
	}
	return &m, desc, nil
}

// statement is the in-toto statement a bundle's envelope carries.
type statement struct {
	Type    string `json:"_type"`
	Subject []struct {
		Digest      map[string]string `json:"digest"`
		Annotations map[string]string `json:"annotations"`
	} `json:"subject"`
	PredicateType string         `json:"predicateType"`
	Predicate     map[string]any `json:"predicate"`
}

// sigstoreBundle is the part of a Sigstore bundle v0.3 a key-pair
// signature uses.
type sigstoreBundle struct {
	MediaType            string `json:"mediaType"`
	VerificationMaterial struct {
		PublicKey *struct {
			Hint string `json:"hint"`
		} `json:"publicKey,omitempty"`
	} `json:"verificationMaterial"`
	DSSEEnvelope *struct {
		Payload     string `json:"payload"`
		PayloadType string `json:"payloadType"`
		Signatures  []struct {
			Sig   string `json:"sig"`
			KeyID string `json:"keyid,omitempty"`
		} `json:"signatures"`
	} `json:"dsseEnvelope,omitempty"`
	MessageSignature json.RawMessage `json:"messageSignature,omitempty"`
}

// pae is DSSE's pre-authentication encoding, what the envelope signs.
func pae(typ string, body []byte) []byte {
	var b bytes.Buffer
	b.WriteString("DSSEv1 " + strconv.Itoa(len(typ)) + " " + typ + " " + strconv.Itoa(len(body)) + " ")
	b.Write(body)
	return b.Bytes()
}

// keyHint is what cosign writes as the bundle's publicKey hint:
// base64(SHA-256(DER SubjectPublicKeyInfo)).
func keyHint(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	return base64.StdEncoding.EncodeToString(sum[:]), nil
}

func attachBundle(ctx context.Context, repo *remote.Repository, target ocispec.Descriptor, key crypto.Signer, created time.Time) (ocispec.Descriptor, error) {
	hint, err := keyHint(key.Public())
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	// Signed by this key already: nothing to add.
	if n, first, _ := verifyBundles(ctx, repo, target, key.Public()); n > 0 {
		return first, nil
	}
	st := map[string]any{
		"_type":         inTotoStatement,
		"subject":       []any{map[string]any{"digest": map[string]string{"sha256": target.Digest.Encoded()}, "annotations": map[string]string{}}},
		"predicateType": cosignPredicate,
		"predicate":     map[string]any{},
	}
	body, err := json.Marshal(st)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	sig, err := signBytes(key, pae(inTotoType, body))
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	bj, err := json.Marshal(map[string]any{
		"mediaType":            sigstoreBundleType,
		"verificationMaterial": map[string]any{"publicKey": map[string]string{"hint": hint}},
		"dsseEnvelope": map[string]any{
			"payload": base64.StdEncoding.EncodeToString(body), "payloadType": inTotoType,
			"signatures": []any{map[string]string{"sig": base64.StdEncoding.EncodeToString(sig)}},
		},
	})
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	layer := content.NewDescriptorFromBytes(sigstoreBundleType, bj)
	if err := pushBlob(ctx, repo, layer, bj); err != nil {
		return ocispec.Descriptor{}, err
	}
	subject := ocispec.Descriptor{MediaType: target.MediaType, Digest: target.Digest, Size: target.Size}
	return packManifest(ctx, repo, sigstoreBundleType, &subject, []ocispec.Descriptor{layer}, map[string]string{
		"dev.sigstore.bundle.content":       "dsse-envelope",
		"dev.sigstore.bundle.predicateType": cosignPredicate,
		ocispec.AnnotationCreated:           created.UTC().Format(time.RFC3339),
	})
}

// SignatureInfo says which signature vouched for an artifact.
type SignatureInfo struct {
	// Form is "sigstore-bundle" (a referrer) or "cosign-sig" (the .sig
	// tag); Verified counts the signatures by the key.
	Form     string `json:"form"`
	Verified int    `json:"verified"`
}

// VerifySignature checks that the artifact desc (its manifest, fetched
// and checked against its digest) carries a cosign signature by pub, in
// either form. It returns which, or why none verifies.
func VerifySignature(ctx context.Context, repo *remote.Repository, ref string, desc ocispec.Descriptor, pub crypto.PublicKey) (*SignatureInfo, error) {
	if pub == nil {
		return nil, &SignatureError{Ref: ref, Reason: "no key to verify the signature with"}
	}
	if err := signatureKey(pub); err != nil {
		return nil, &SignatureError{Ref: ref, Reason: "unknown signature algorithm: " + err.Error()}
	}
	var reasons []string
	n, _, err := verifyBundles(ctx, repo, desc, pub)
	if n > 0 {
		return &SignatureInfo{Form: "sigstore-bundle", Verified: n}, nil
	}
	if err != nil && !errors.Is(err, errNoSignature) {
		reasons = append(reasons, err.Error())
	}
	n, err = verifyClassic(ctx, repo, desc.Digest, pub)
	if n > 0 {
		return &SignatureInfo{Form: "cosign-sig", Verified: n}, nil
	}
	if err != nil && !errors.Is(err, errNoSignature) {
		reasons = append(reasons, err.Error())
	}
	if len(reasons) == 0 {
		return nil, &SignatureError{Ref: ref, Reason: fmt.Sprintf("%s is not signed: no cosign signature (no %s tag, no Sigstore bundle referrer)", desc.Digest, sigTag(desc.Digest)),
			Hint: "publish it with charter publish --sign-key FILE, or sign it with cosign sign --key"}
	}
	return nil, &SignatureError{Ref: ref, Reason: fmt.Sprintf("no signature of %s verifies with the given key: %s", desc.Digest, strings.Join(reasons, "; "))}
}

var errNoSignature = errors.New("no signature")

// verifyClassic counts the layers of the .sig manifest of d that pub
// signed and whose payload names d.
func verifyClassic(ctx context.Context, repo *remote.Repository, d digest.Digest, pub crypto.PublicKey) (int, error) {
	m, _, err := fetchManifest(ctx, repo, sigTag(d))
	if errors.Is(err, errdef.ErrNotFound) {
		return 0, errNoSignature
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %v", sigTag(d), err)
	}
	if len(m.Layers) == 0 {
		return 0, fmt.Errorf("%s holds an empty list of signatures", sigTag(d))
	}
	if len(m.Layers) > maxSignatures {
		return 0, fmt.Errorf("%s holds more than %d signatures", sigTag(d), maxSignatures)
	}
	n := 0
	var reasons []string
	for i, l := range m.Layers {
		why := func(format string, args ...any) {
			reasons = append(reasons, fmt.Sprintf("%s signature %d: %s", sigTag(d), i+1, fmt.Sprintf(format, args...)))
		}
		sigB64, ok := l.Annotations[annotationSignature]
		switch {
		case l.MediaType != simpleSigningType:
			why("of media type %s, not cosign's simple signing", l.MediaType)
			continue
		case !ok || sigB64 == "":
			why("carries no signature")
			continue
		case l.Size < 0 || l.Size > maxSignatureBlob:
			why("a payload of %d bytes", l.Size)
			continue
		}
		sig, err := base64.StdEncoding.DecodeString(sigB64)
		if err != nil {
			why("the signature is not base64")
			continue
		}
		payload, err := content.FetchAll(ctx, repo, l)
		if err != nil {
			why("%v", err)
			continue
		}
		if !verifyBytes(pub, payload, sig) {
			why("not signed by the given key")
			continue
		}
		var p simpleSigning
		if err := json.Unmarshal(payload, &p); err != nil {
			why("the payload does not decode: %v", err)
			continue
		}
		if p.Critical.Type != simpleSigningKind {
			why("the payload is of type %q", p.Critical.Type)
			continue
		}
		if p.Critical.Image.DockerManifestDigest != d.String() {
			why("signs another digest, %s", p.Critical.Image.DockerManifestDigest)
			continue
		}
		n++
	}
	if n == 0 {
		return 0, errors.New(strings.Join(reasons, "; "))
	}
	return n, nil
}

// verifyBundles counts the Sigstore bundle referrers of target that pub
// signed and whose statement names target's digest, and returns the first.
func verifyBundles(ctx context.Context, repo *remote.Repository, target ocispec.Descriptor, pub crypto.PublicKey) (int, ocispec.Descriptor, error) {
	var refs []ocispec.Descriptor
	err := repo.Referrers(ctx, target, sigstoreBundleType, func(r []ocispec.Descriptor) error {
		refs = append(refs, r...)
		if len(refs) > maxSignatures {
			return fmt.Errorf("more than %d signature referrers", maxSignatures)
		}
		return nil
	})
	var first ocispec.Descriptor
	if errors.Is(err, errdef.ErrNotFound) || err == nil && len(refs) == 0 {
		return 0, first, errNoSignature
	}
	if err != nil {
		return 0, first, err
	}
	n := 0
	var reasons []string
	for _, r := range refs {
		if err := verifyBundle(ctx, repo, r, target.Digest, pub); err != nil {
			reasons = append(reasons, fmt.Sprintf("bundle %s: %v", r.Digest, err))
			continue
		}
		if n == 0 {
			first = r
		}
		n++
	}
	if n == 0 {
		return 0, first, errors.New(strings.Join(reasons, "; "))
	}
	return n, first, nil
}

func verifyBundle(ctx context.Context, repo *remote.Repository, r ocispec.Descriptor, d digest.Digest, pub crypto.PublicKey) error {
	if r.Size < 0 || r.Size > maxManifest {
		return fmt.Errorf("a manifest of %d bytes", r.Size)
	}
	mb, err := content.FetchAll(ctx, repo, r)
	if err != nil {
		return err
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return fmt.Errorf("does not decode: %v", err)
	}
	if m.Subject == nil || m.Subject.Digest != d || len(m.Layers) != 1 || m.Layers[0].MediaType != sigstoreBundleType || m.Layers[0].Size > maxSignatureBlob {
		return fmt.Errorf("not one Sigstore bundle about %s", d)
	}
	bj, err := content.FetchAll(ctx, repo, m.Layers[0])
	if err != nil {
		return err
	}
	var b sigstoreBundle
	if err := json.Unmarshal(bj, &b); err != nil {
		return fmt.Errorf("does not decode: %v", err)
	}
	switch {
	case b.MediaType != sigstoreBundleType:
		return fmt.Errorf("a bundle of media type %q", b.MediaType)
	case b.DSSEEnvelope == nil:
		return errors.New("holds no DSSE envelope (a kind of signature charter does not check)")
	case b.DSSEEnvelope.PayloadType != inTotoType:
		return fmt.Errorf("an envelope of payload type %q", b.DSSEEnvelope.PayloadType)
	case len(b.DSSEEnvelope.Signatures) == 0:
		return errors.New("an empty list of signatures")
	}
	body, err := base64.StdEncoding.DecodeString(b.DSSEEnvelope.Payload)
	if err != nil {
		return errors.New("the payload is not base64")
	}
	signed := false
	for _, s := range b.DSSEEnvelope.Signatures {
		sig, err := base64.StdEncoding.DecodeString(s.Sig)
		if err == nil && verifyBytes(pub, pae(b.DSSEEnvelope.PayloadType, body), sig) {
			signed = true
			break
		}
	}
	if !signed {
		return errors.New("not signed by the given key")
	}
	var st statement
	if err := json.Unmarshal(body, &st); err != nil {
		return fmt.Errorf("the statement does not decode: %v", err)
	}
	if st.Type != inTotoStatement || st.PredicateType != cosignPredicate {
		return fmt.Errorf("a statement of type %q and predicate %q, not cosign's signature", st.Type, st.PredicateType)
	}
	for _, s := range st.Subject {
		if s.Digest["sha256"] == d.Encoded() && d.Algorithm() == digest.SHA256 {
			return nil
		}
	}
	return fmt.Errorf("the statement signs another digest, not %s", d)
}
