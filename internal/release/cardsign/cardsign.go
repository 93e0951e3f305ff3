// Package cardsign signs and verifies A2A Agent Cards as the A2A v1.0
// specification's section 8.4 describes: each signature is a JWS
// (RFC 7515) whose protected header holds alg, typ "JOSE" and kid, over a
// detached payload, the card's RFC 8785 canonical form without its
// signatures field and without members that hold a default value
// (section 8.4.1): empty strings of optional members, and every empty
// list, as the A2A SDKs rebuild the card before they verify.
// The card carries it as {"protected": ..., "signature": ...} in its
// signatures array.
//
// Keys are PEM files: Ed25519 (EdDSA) and ECDSA P-256 (ES256). The kid is
// the key's RFC 7638 JWK thumbprint (SHA-256, base64url), so a verifier
// can say which key signed a card it cannot verify.
package cardsign

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/fileerr"
)

// Algorithms are the JWS algorithms cardsign signs with and accepts.
var Algorithms = []jose.SignatureAlgorithm{jose.EdDSA, jose.ES256}

// KeyError says a key file cannot be used, and why.
type KeyError struct {
	File   string
	Reason string
	// Err is the failure to read the file, if that is why.
	Err error
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s: %s", e.File, e.Reason) }

func (e *KeyError) Unwrap() error { return e.Err }

// readKeyFile reads a key file; a file that cannot be read is a KeyError
// that says why in words.
func readKeyFile(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	if path, why, ok := fileerr.Why(err, "key file"); ok {
		return nil, &KeyError{File: path, Reason: why, Err: err}
	}
	return b, err
}

// Signer signs cards with one private key.
type Signer struct {
	key crypto.Signer
	alg jose.SignatureAlgorithm
	kid string
}

// Verifier checks card signatures against one public key.
type Verifier struct {
	key crypto.PublicKey
	kid string
}

// KeyID returns the signer's kid: its public key's JWK thumbprint.
func (s *Signer) KeyID() string { return s.kid }

// KeyID returns the verifier's kid: its key's JWK thumbprint.
func (v *Verifier) KeyID() string { return v.kid }

// ReadSigner reads a PEM private key (PKCS #8, or SEC 1 "EC PRIVATE KEY")
// from file.
func ReadSigner(file string) (*Signer, error) {
	b, err := readKeyFile(file)
	if err != nil {
		return nil, err
	}
	return ParseSigner(file, b)
}

// ParseSigner reads a PEM private key; file names it in errors.
func ParseSigner(file string, data []byte) (*Signer, error) {
	blk, err := pemBlock(file, data)
	if err != nil {
		return nil, err
	}
	var priv any
	switch blk.Type {
	case "PRIVATE KEY":
		priv, err = x509.ParsePKCS8PrivateKey(blk.Bytes)
	case "EC PRIVATE KEY":
		priv, err = x509.ParseECPrivateKey(blk.Bytes)
	case "PUBLIC KEY":
		return nil, &KeyError{File: file, Reason: "this is a public key; signing needs the private key (openssl genpkey -algorithm ed25519 -out release.pem)"}
	case "ENCRYPTED PRIVATE KEY":
		return nil, &KeyError{File: file, Reason: fmt.Sprintf("the key is encrypted with a passphrase; charter reads an unencrypted PKCS #8 key (openssl pkey -in %s -out release.pem)", file)}
	case "ENCRYPTED SIGSTORE PRIVATE KEY", "ENCRYPTED COSIGN PRIVATE KEY":
		return nil, &KeyError{File: file, Reason: "cosign's own encrypted key; charter signs with a PKCS #8 PEM key (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out release.pem), whose public half cosign verify --key takes (docs/release.md)"}
	case "OPENSSH PRIVATE KEY":
		return nil, &KeyError{File: file, Reason: "an OpenSSH key; charter reads PKCS #8 PEM keys: make one with openssl genpkey -algorithm ed25519 -out release.pem"}
	default:
		return nil, &KeyError{File: file, Reason: fmt.Sprintf("a PEM %q block is not a private key; want \"PRIVATE KEY\"", blk.Type)}
	}
	if err != nil {
		return nil, &KeyError{File: file, Reason: fmt.Sprintf("cannot read the private key: %v", err)}
	}
	var s *Signer
	switch k := priv.(type) {
	case ed25519.PrivateKey:
		s = &Signer{key: k, alg: jose.EdDSA}
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, &KeyError{File: file, Reason: fmt.Sprintf("an ECDSA key on %s; ES256 needs P-256", k.Curve.Params().Name)}
		}
		s = &Signer{key: k, alg: jose.ES256}
	default:
		return nil, &KeyError{File: file, Reason: fmt.Sprintf("a %T key; want Ed25519 or ECDSA P-256", priv)}
	}
	if s.kid, err = thumbprint(s.key.Public()); err != nil {
		return nil, &KeyError{File: file, Reason: err.Error()}
	}
	return s, nil
}

// ReadVerifier reads a PEM public key (PKIX "PUBLIC KEY") from file, or the
// public half of a private key file.
func ReadVerifier(file string) (*Verifier, error) {
	b, err := readKeyFile(file)
	if err != nil {
		return nil, err
	}
	return ParseVerifier(file, b)
}

// ParseVerifier reads a PEM public key, or a private key's public half;
// file names it in errors.
func ParseVerifier(file string, data []byte) (*Verifier, error) {
	blk, err := pemBlock(file, data)
	if err != nil {
		return nil, err
	}
	if blk.Type != "PUBLIC KEY" {
		s, err := ParseSigner(file, data)
		if err != nil {
			return nil, err
		}
		return &Verifier{key: s.key.Public(), kid: s.kid}, nil
	}
	pub, err := x509.ParsePKIXPublicKey(blk.Bytes)
	if err != nil {
		return nil, &KeyError{File: file, Reason: fmt.Sprintf("cannot read the public key: %v", err)}
	}
	switch k := pub.(type) {
	case ed25519.PublicKey:
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return nil, &KeyError{File: file, Reason: fmt.Sprintf("an ECDSA key on %s; ES256 needs P-256", k.Curve.Params().Name)}
		}
	default:
		return nil, &KeyError{File: file, Reason: fmt.Sprintf("a %T key; want Ed25519 or ECDSA P-256", pub)}
	}
	kid, err := thumbprint(pub)
	if err != nil {
		return nil, &KeyError{File: file, Reason: err.Error()}
	}
	return &Verifier{key: pub, kid: kid}, nil
}

func pemBlock(file string, data []byte) (*pem.Block, error) {
	blk, rest := pem.Decode(data)
	// openssl ecparam -genkey writes the curve's name before the key.
	for blk != nil && blk.Type == "EC PARAMETERS" {
		blk, rest = pem.Decode(rest)
	}
	if blk == nil {
		return nil, &KeyError{File: file, Reason: "not a PEM-encoded key (no -----BEGIN ...----- block); make one with openssl genpkey -algorithm ed25519 -out release.pem"}
	}
	return blk, nil
}

func thumbprint(pub crypto.PublicKey) (string, error) {
	jwk := jose.JSONWebKey{Key: pub}
	tp, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// Signature is one entry of a card's signatures array (A2A
// AgentCardSignature).
type Signature struct {
	Protected string         `json:"protected"`
	Signature string         `json:"signature"`
	Header    map[string]any `json:"header,omitempty"`
}

// Sign returns card (a JSON object) with a signature by s appended to its
// signatures, in RFC 8785 canonical form.
func (s *Signer) Sign(card []byte) ([]byte, error) {
	doc, err := decodeCard(card)
	if err != nil {
		return nil, err
	}
	payload, err := payloadOf(doc)
	if err != nil {
		return nil, err
	}
	var key any = s.key
	if ec, ok := s.key.(*ecdsa.PrivateKey); ok {
		key = rfc6979{ec}
	}
	js, err := jose.NewSigner(jose.SigningKey{Algorithm: s.alg, Key: key}, (&jose.SignerOptions{}).WithType("JOSE").WithHeader("kid", s.kid))
	if err != nil {
		return nil, err
	}
	obj, err := js.Sign(payload)
	if err != nil {
		return nil, err
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return nil, err
	}
	protected, sig, ok := splitDetached(compact)
	if !ok {
		return nil, fmt.Errorf("internal error: unexpected JWS %q", compact)
	}
	sigs, _ := doc["signatures"].([]any)
	doc["signatures"] = append(sigs, map[string]any{"protected": protected, "signature": sig})
	return canonjson.Canonical(doc)
}

// rfc6979 signs ES256 deterministically (RFC 6979), as Ed25519 signs:
// go-jose's ECDSA signatures are random, and a random signature would give
// every build of one commit another card, so another bundle digest.
type rfc6979 struct{ key *ecdsa.PrivateKey }

func (r rfc6979) Public() *jose.JSONWebKey { return &jose.JSONWebKey{Key: &r.key.PublicKey} }

func (r rfc6979) Algs() []jose.SignatureAlgorithm { return []jose.SignatureAlgorithm{jose.ES256} }

// SignPayload returns the JWS form of the signature, R and S as 32 bytes
// each (RFC 7518 section 3.4), not ASN.1.
func (r rfc6979) SignPayload(payload []byte, alg jose.SignatureAlgorithm) ([]byte, error) {
	if alg != jose.ES256 {
		return nil, jose.ErrUnsupportedAlgorithm
	}
	sum := sha256.Sum256(payload)
	der, err := r.key.Sign(nil, sum[:], crypto.SHA256) // nil: RFC 6979
	if err != nil {
		return nil, err
	}
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("internal error: ECDSA signature %x: %v", der, err)
	}
	out := make([]byte, 64)
	rs.R.FillBytes(out[:32])
	rs.S.FillBytes(out[32:])
	return out, nil
}

func splitDetached(compact string) (protected, sig string, ok bool) {
	parts := strings.Split(compact, ".")
	if len(parts) != 3 || parts[1] != "" {
		return "", "", false
	}
	return parts[0], parts[2], true
}

// Payload returns what a card's signatures sign: its RFC 8785 canonical
// form without signatures and without the members section 8.4.1 says to
// omit.
func Payload(card []byte) ([]byte, error) {
	doc, err := decodeCard(card)
	if err != nil {
		return nil, err
	}
	return payloadOf(doc)
}

// omitEmpty names the card's members that are not REQUIRED in the A2A
// proto and whose default (an empty string) section 8.4.1 says to omit
// before canonicalizing, by the object that holds them.
var omitEmpty = map[string][]string{
	"card":  {"documentationUrl", "iconUrl"},
	"skill": {},
}

// payloadOf is the payload of a card: without signatures, without the
// empty strings omitEmpty names, and without any empty list at any depth.
// A repeated field's default is the empty list whether or not the proto
// requires the field, and the A2A SDKs, which rebuild the card through the
// proto before they verify (@a2a-js/sdk's canonicalizeAgentCard), leave
// every empty list out: a card that signed "tags": [] failed there.
// charter's cards hold no empty list (package a2a omits them), so what is
// signed is what every reader reconstructs.
func payloadOf(doc map[string]any) ([]byte, error) {
	c := make(map[string]any, len(doc))
	for k, v := range doc {
		c[k] = v
	}
	delete(c, "signatures")
	c = dropEmpty(c, omitEmpty["card"])
	if skills, ok := c["skills"].([]any); ok {
		out := make([]any, len(skills))
		for i, s := range skills {
			if m, ok := s.(map[string]any); ok {
				out[i] = dropEmpty(m, omitEmpty["skill"])
			} else {
				out[i] = s
			}
		}
		c["skills"] = out
	}
	return canonjson.Canonical(dropEmptyLists(c))
}

// dropEmptyLists returns v without the members, at any depth, that hold an
// empty list.
func dropEmptyLists(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if l, ok := e.([]any); ok && len(l) == 0 {
				continue
			}
			out[k] = dropEmptyLists(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropEmptyLists(e)
		}
		return out
	}
	return v
}

// dropEmpty returns a copy of m without those of names that hold null,
// "" or [].
func dropEmpty(m map[string]any, names []string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, n := range names {
		v, ok := out[n]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case nil:
			delete(out, n)
		case string:
			if x == "" {
				delete(out, n)
			}
		case []any:
			if len(x) == 0 {
				delete(out, n)
			}
		}
	}
	return out
}

// unambiguous refuses a card that JSON parsers may read differently: a
// member name twice in one object (some keep the first, Go the last),
// invalid UTF-8 (read as U+FFFD, or refused), data after the card. A
// signature checked against what Go reads would vouch for a card that
// another runtime reads otherwise.
func unambiguous(card []byte) error {
	if !utf8.Valid(card) {
		return errors.New("the card is not valid UTF-8 (invalid UTF-8 at byte " + strconv.Itoa(invalidAt(card)) + ")")
	}
	dec := jsontext.NewDecoder(bytes.NewReader(card))
	if _, err := dec.ReadValue(); err != nil {
		var se *jsontext.SyntacticError
		if errors.As(err, &se) && errors.Is(se.Err, jsontext.ErrDuplicateName) {
			in := "the card"
			if p := se.JSONPointer.Parent(); p != "" {
				in = string(p)
			}
			return fmt.Errorf("member %q appears twice in %s: JSON parsers differ on which one counts", se.JSONPointer.LastToken(), in)
		}
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return errors.New("data after the card's closing brace")
	}
	return nil
}

func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func decodeCard(card []byte) (map[string]any, error) {
	if err := unambiguous(card); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(card))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if doc == nil {
		return nil, errors.New("not a JSON object")
	}
	return doc, nil
}

// ErrUnsigned says a card has no signatures.
var ErrUnsigned = errors.New("the card is not signed (no signatures)")

// VerifyError says no signature of a card verifies with the key.
type VerifyError struct {
	// KeyID is the verifier's kid; Signers are the kids the card's
	// signatures name.
	KeyID   string
	Signers []string
	// Reasons says, per signature, why it does not verify.
	Reasons []string
}

func (e *VerifyError) Error() string {
	for _, k := range e.Signers {
		if k == e.KeyID {
			return fmt.Sprintf("the signature by key %s does not verify: the card was changed after it was signed (%s)", e.KeyID, strings.Join(e.Reasons, "; "))
		}
	}
	if len(e.Signers) > 0 {
		return fmt.Sprintf("signed by another key (kid %s), not by the given key (kid %s)", strings.Join(e.Signers, ", "), e.KeyID)
	}
	return fmt.Sprintf("no signature verifies with the given key (kid %s): %s", e.KeyID, strings.Join(e.Reasons, "; "))
}

// Verify checks that at least one of card's signatures is by v's key and
// verifies. It returns ErrUnsigned for a card without signatures and a
// *VerifyError when none verifies.
func (v *Verifier) Verify(card []byte) error {
	doc, err := decodeCard(card)
	if err != nil {
		return err
	}
	raw, ok := doc["signatures"]
	if !ok {
		return ErrUnsigned
	}
	list, ok := raw.([]any)
	if !ok {
		return errors.New("signatures is not a list")
	}
	if len(list) == 0 {
		return ErrUnsigned
	}
	payload, err := payloadOf(doc)
	if err != nil {
		return err
	}
	verr := &VerifyError{KeyID: v.kid}
	for i, item := range list {
		m, _ := item.(map[string]any)
		protected, _ := m["protected"].(string)
		sig, _ := m["signature"].(string)
		if protected == "" || sig == "" {
			verr.Reasons = append(verr.Reasons, fmt.Sprintf("signature %d lacks protected or signature", i+1))
			continue
		}
		obj, err := jose.ParseDetached(protected+".."+sig, payload, Algorithms)
		if err != nil {
			verr.Reasons = append(verr.Reasons, fmt.Sprintf("signature %d: %v", i+1, err))
			continue
		}
		if kid := obj.Signatures[0].Protected.KeyID; kid != "" {
			verr.Signers = append(verr.Signers, kid)
		}
		if _, err := obj.Verify(v.key); err != nil {
			verr.Reasons = append(verr.Reasons, fmt.Sprintf("signature %d: %v", i+1, err))
			continue
		}
		return nil
	}
	return verr
}

// Key returns the signer's private key, for signatures of other formats
// (the OCI artifact's, which cosign reads).
func (s *Signer) Key() crypto.Signer { return s.key }

// Key returns the verifier's public key.
func (v *Verifier) Key() crypto.PublicKey { return v.key }
