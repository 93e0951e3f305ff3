package oci

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2"
	"oras.land/oras-go/v2/registry/remote"
)

func ecKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestSignatureRefusals publishes signed and unsigned bundles to the real
// registry (docker-registry, which has no referrers API: the bundle
// referrer goes under the sha256-<hex> tag, as cosign's does) and checks
// that pull refuses everything but a signature by the key of the exact
// digest: OPA's GHSA-g2pf-6v5v-qcc8 made a missing signature a skip.
func TestSignatureRefusals(t *testing.T) {
	r := startRegistry(t)
	ctx := context.Background()
	key, other := ecKey(t), ecKey(t)
	tr, ar := tree(t, "You are Ann.\n")
	signedRef := r.Host + "/agents/signed:v1"
	pub, err := Publish(ctx, signedRef, tr, ar, meta, Options{PlainHTTP: true, SignKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if pub.Signature == nil || pub.Signature.Referrer == "" || !strings.HasSuffix(pub.Signature.Tag, ".sig") {
		t.Fatalf("Publish signed: %+v, want a .sig tag and a bundle referrer", pub.Signature)
	}
	got, err := Pull(ctx, signedRef, Options{PlainHTTP: true, VerifyKey: &key.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	if got.Signature == nil || got.Signature.Form != "sigstore-bundle" {
		t.Errorf("Pull signed: signature %+v, want the Sigstore bundle", got.Signature)
	}
	// Signing again with the key adds nothing.
	again, err := Publish(ctx, signedRef, tr, ar, meta, Options{PlainHTTP: true, SignKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if again.Signature.Referrer != pub.Signature.Referrer {
		t.Errorf("signing again: referrer %s, want the first one, %s", again.Signature.Referrer, pub.Signature.Referrer)
	}
	n, _, err := verifyBundles(ctx, mustRepo(t, signedRef), ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.Digest(pub.Digest), Size: pub.Size}, &key.PublicKey)
	if n != 1 || err != nil {
		t.Errorf("after signing twice: %d bundles by the key (%v), want 1", n, err)
	}

	// An unsigned artifact: another bundle, so another digest.
	tr2, ar2 := tree(t, "You are Bob.\n")
	unsignedRef := r.Host + "/agents/signed:unsigned"
	upub, err := Publish(ctx, unsignedRef, tr2, ar2, meta, Options{PlainHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	repo := mustRepo(t, unsignedRef)
	udigest := digest.Digest(upub.Digest)

	refuse := func(name, ref string, pubKey crypto.PublicKey, want string) {
		t.Helper()
		_, err := Pull(ctx, ref, Options{PlainHTTP: true, VerifyKey: pubKey})
		var serr *SignatureError
		if !errors.As(err, &serr) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Pull = %v, want a SignatureError saying %q", name, err, want)
		}
	}
	refuse("another key", signedRef, &other.PublicKey, "no signature of "+pub.Digest+" verifies with the given key")
	refuse("no signature", unsignedRef, &key.PublicKey, "is not signed: no cosign signature")
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	refuse("an RSA key", signedRef, &rsaKey.PublicKey, "unknown signature algorithm")

	// An empty list of signatures under the .sig tag.
	mb, _ := json.Marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, Config: ocispec.DescriptorEmptyJSON, Layers: []ocispec.Descriptor{}})
	if _, err := oras.PushBytes(ctx, repo, ocispec.MediaTypeEmptyJSON, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := oras.TagBytes(ctx, repo, ocispec.MediaTypeImageManifest, mb, sigTag(udigest)); err != nil {
		t.Fatal(err)
	}
	refuse("an empty signature list", unsignedRef, &key.PublicKey, "holds an empty list of signatures")

	// The signed artifact's .sig manifest copied to the unsigned one's tag:
	// a valid signature, of another digest.
	_, sigManifest, err := oras.FetchBytes(ctx, repo, sigTag(digest.Digest(pub.Digest)), oras.DefaultFetchBytesOptions)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := oras.TagBytes(ctx, repo, ocispec.MediaTypeImageManifest, sigManifest, sigTag(udigest)); err != nil {
		t.Fatal(err)
	}
	refuse("a signature of another digest", unsignedRef, &key.PublicKey, "signs another digest, "+pub.Digest)

	// A Sigstore bundle of a kind charter does not check (no DSSE
	// envelope), and one with an empty list of signatures: neither
	// vouches, and the .sig tag (of another digest) does not either.
	for _, b := range []string{
		`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","messageSignature":{"messageDigest":{"algorithm":"SHA2_256","digest":""},"signature":""}}`,
		`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","dsseEnvelope":{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[]}}`,
	} {
		layer, err := oras.PushBytes(ctx, repo, sigstoreBundleType, []byte(b))
		if err != nil {
			t.Fatal(err)
		}
		subject := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: udigest, Size: upub.Size}
		if _, err := oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, sigstoreBundleType, oras.PackManifestOptions{Subject: &subject, Layers: []ocispec.Descriptor{layer}}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Pull(ctx, unsignedRef, Options{PlainHTTP: true, VerifyKey: &key.PublicKey})
	for _, want := range []string{"holds no DSSE envelope", "an empty list of signatures", "signs another digest"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Pull with bad bundles = %v, want it to say %q", err, want)
		}
	}

	// Now a real signature by the key, in the classic form, beside the bad
	// ones: it vouches.
	if err := attachClassic(ctx, repo, r.Host+"/agents/signed", udigest, key); err != nil {
		t.Fatal(err)
	}
	got, err = Pull(ctx, unsignedRef, Options{PlainHTTP: true, VerifyKey: &key.PublicKey})
	if err != nil || got.Signature.Form != "cosign-sig" {
		t.Errorf("Pull after a good classic signature: %+v, %v", got, err)
	}
}

// TestSignEd25519 signs with an Ed25519 key: the classic form only (pure
// Ed25519, which cosign verify --key accepts), no Sigstore bundle.
func TestSignEd25519(t *testing.T) {
	r := startRegistry(t)
	ctx := context.Background()
	pubKey, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tr, ar := tree(t, "You are Ann.\n")
	ref := r.Host + "/agents/ed:v1"
	pub, err := Publish(ctx, ref, tr, ar, meta, Options{PlainHTTP: true, SignKey: priv})
	if err != nil {
		t.Fatal(err)
	}
	if pub.Signature.Referrer != "" {
		t.Errorf("Ed25519 wrote a Sigstore bundle %s; cosign cannot check it", pub.Signature.Referrer)
	}
	got, err := Pull(ctx, ref, Options{PlainHTTP: true, VerifyKey: pubKey})
	if err != nil || got.Signature.Form != "cosign-sig" {
		t.Errorf("Pull: %+v, %v", got, err)
	}
}

func mustRepo(t *testing.T, ref string) *remote.Repository {
	t.Helper()
	repo, err := repository(mustRef(t, ref), Options{PlainHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	return repo
}
