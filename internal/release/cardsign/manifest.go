package cardsign

import (
	"bytes"
	"crypto/ecdsa"
	"errors"
	"fmt"

	"github.com/go-jose/go-jose/v4"
)

// The manifest signature: build --sign-key signs manifest.json's bytes
// with the key that signs the cards, as a detached JWS (RFC 7515 compact
// form with the payload left out: PROTECTED..SIGNATURE) whose protected
// header holds alg, typ "JOSE" and kid. manifest.json lists every other
// file's SHA-256, so the signature vouches for the whole bundle.

// maxJWS bounds a manifest.jws: one signature is a few hundred bytes.
const maxJWS = 64 << 10

// ErrManifestUnsigned says a bundle has no manifest.jws.
var ErrManifestUnsigned = errors.New("manifest.json is not signed (the bundle has no manifest.jws)")

// SignManifest returns the detached JWS over manifest, the bytes of
// manifest.json.
func (s *Signer) SignManifest(manifest []byte) ([]byte, error) {
	var key any = s.key
	if ec, ok := s.key.(*ecdsa.PrivateKey); ok {
		key = rfc6979{ec} // deterministic: the same build gives the same bytes
	}
	js, err := jose.NewSigner(jose.SigningKey{Algorithm: s.alg, Key: key}, (&jose.SignerOptions{}).WithType("JOSE").WithHeader("kid", s.kid))
	if err != nil {
		return nil, err
	}
	obj, err := js.Sign(manifest)
	if err != nil {
		return nil, err
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return nil, err
	}
	return []byte(compact + "\n"), nil
}

// VerifyManifest checks that jws, a bundle's manifest.jws, is v's key's
// signature of manifest. Everything short of that is a refusal, never a
// skip: no signature, one that names no key id or another key's, an
// algorithm other than EdDSA and ES256, a signature over other bytes.
func (v *Verifier) VerifyManifest(manifest, jws []byte) error {
	if jws == nil {
		return ErrManifestUnsigned
	}
	if len(jws) > maxJWS {
		return fmt.Errorf("manifest.jws holds more than %d bytes: not one signature", maxJWS)
	}
	compact := string(bytes.TrimSpace(jws))
	if _, _, ok := splitDetached(compact); !ok {
		return errors.New("manifest.jws is not a detached JWS (PROTECTED..SIGNATURE)")
	}
	obj, err := jose.ParseDetached(compact, manifest, Algorithms)
	if err != nil {
		return fmt.Errorf("manifest.jws: %v", err)
	}
	if len(obj.Signatures) != 1 {
		return errors.New("manifest.jws holds no signature")
	}
	kid := obj.Signatures[0].Protected.KeyID
	switch {
	case kid == "":
		return errors.New("manifest.jws names no key (no kid): refused")
	case kid != v.kid:
		return fmt.Errorf("manifest.json is signed by another key (kid %s), not by the given key (kid %s)", kid, v.kid)
	}
	if _, err := obj.Verify(v.key); err != nil {
		return fmt.Errorf("the signature by key %s does not verify: manifest.json was changed after it was signed (%v)", v.kid, err)
	}
	return nil
}
