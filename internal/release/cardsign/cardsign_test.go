package cardsign

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// card is a charter card as bundle.Build writes it: RFC 8785 canonical,
// with the empty capabilities.extensions section 8.4.1 omits from the
// payload.
const card = `{"capabilities":{"extendedAgentCard":false,"extensions":[],"pushNotifications":false,"streaming":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"description":"Answers billing questions — ünïcode","name":"Ann","skills":[{"description":"Refunds","id":"refunds","name":"Refunds","tags":["billing"]}],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://agents.example.com/ann"}],"version":"1.3.0"}`

type keyPair struct {
	priv, pub string // PEM files
}

func writeKeys(t *testing.T, name string, priv any, pub any) keyPair {
	t.Helper()
	dir := t.TempDir()
	pk, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	kp := keyPair{priv: filepath.Join(dir, name+".pem"), pub: filepath.Join(dir, name+".pub")}
	if err := os.WriteFile(kp.priv, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kp.pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pb}), 0o644); err != nil {
		t.Fatal(err)
	}
	return kp
}

func ed25519Keys(t *testing.T) keyPair {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return writeKeys(t, "ed", priv, pub)
}

func es256Keys(t *testing.T) keyPair {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return writeKeys(t, "ec", priv, &priv.PublicKey)
}

// jwcryptoVerify is the independent verifier: Debian's python3-jwcrypto
// rebuilds the payload from the card by the specification's rules (its
// own JSON canonicalization), then checks every signature against the
// public key. It prints one line per signature: "ok ALG KID" or "bad".
const jwcryptoVerify = `
import json, sys
from jwcrypto import jwk, jws
from jwcrypto.common import base64url_encode
card = json.load(open(sys.argv[1], encoding="utf-8"))
key = jwk.JWK.from_pem(open(sys.argv[2], "rb").read())
sigs = card.pop("signatures")
if card.get("capabilities", {}).get("extensions") == []:
    del card["capabilities"]["extensions"]
payload = json.dumps(card, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
for s in sigs:
    hdr = json.loads(jws.base64url_decode(s["protected"]))
    tok = s["protected"] + "." + base64url_encode(payload) + "." + s["signature"]
    try:
        j = jws.JWS()
        j.deserialize(tok, key)
        print("ok", hdr["alg"], hdr["typ"], hdr["kid"] == key.thumbprint())
    except Exception as e:
        print("bad", type(e).__name__)
`

func jwcrypto(t *testing.T, cardFile, pubFile string) string {
	t.Helper()
	py := realtool.NeedPython(t, "jwcrypto", "python3-jwcrypto")
	out, err := exec.Command(py, "-c", jwcryptoVerify, cardFile, pubFile).CombinedOutput()
	if err != nil {
		t.Fatalf("jwcrypto: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestSignVerifiedByJWCrypto(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys func(*testing.T) keyPair
		alg  string
	}{
		{"ed25519", ed25519Keys, "EdDSA"},
		{"es256", es256Keys, "ES256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kp := tc.keys(t)
			s, err := ReadSigner(kp.priv)
			if err != nil {
				t.Fatal(err)
			}
			signed, err := s.Sign([]byte(card))
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(t.TempDir(), "card.json")
			if err := os.WriteFile(f, signed, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, want := jwcrypto(t, f, kp.pub), "ok "+tc.alg+" JOSE True"; got != want {
				t.Errorf("jwcrypto says %q, want %q", got, want)
			}
			// The signed card is the unsigned one plus signatures.
			var a, b map[string]any
			json.Unmarshal([]byte(card), &a)
			json.Unmarshal(signed, &b)
			delete(b, "signatures")
			if d := cmp.Diff(a, b); d != "" {
				t.Errorf("signing changed the card (-want +got):\n%s", d)
			}

			v, err := ReadVerifier(kp.pub)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(signed); err != nil {
				t.Errorf("Verify: %v", err)
			}

			// A changed card verifies neither here nor in jwcrypto.
			tampered := []byte(strings.Replace(string(signed), `"Ann"`, `"Eve"`, 1))
			os.WriteFile(f, tampered, 0o644)
			if got := jwcrypto(t, f, kp.pub); !strings.HasPrefix(got, "bad") {
				t.Errorf("jwcrypto accepted a changed card: %q", got)
			}
			var verr *VerifyError
			if err := v.Verify(tampered); !errors.As(err, &verr) || !strings.Contains(err.Error(), "changed after it was signed") {
				t.Errorf("Verify(tampered) = %v, want a VerifyError saying the card changed", err)
			}
		})
	}
}

func TestVerifyOtherKey(t *testing.T) {
	a, b := ed25519Keys(t), es256Keys(t)
	s, err := ReadSigner(a.priv)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := s.Sign([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ReadVerifier(b.pub)
	if err != nil {
		t.Fatal(err)
	}
	err = v.Verify(signed)
	want := "signed by another key (kid " + s.KeyID() + "), not by the given key (kid " + v.KeyID() + ")"
	if err == nil || err.Error() != want {
		t.Errorf("Verify = %v, want %q", err, want)
	}
	if err := v.Verify([]byte(card)); !errors.Is(err, ErrUnsigned) {
		t.Errorf("Verify(unsigned) = %v, want ErrUnsigned", err)
	}
}

// TestPayload holds the payload to section 8.4.1's example: defaults and
// signatures removed, RFC 8785 order; but the example keeps "skills": [],
// which the A2A SDKs drop before they verify (a repeated field's default is
// the empty list), and so does charter (TestSignVerifiedByA2AJS).
func TestPayload(t *testing.T) {
	in := `{"name":"Example Agent","description":"","capabilities":{"streaming":false,"pushNotifications":false,"extensions":[]},"skills":[],"signatures":[{"protected":"x","signature":"y"}]}`
	got, err := Payload([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent"}`
	if string(got) != want {
		t.Errorf("Payload =\n%s\nwant\n%s", got, want)
	}
}

func TestKeyErrors(t *testing.T) {
	dir := t.TempDir()
	kp := ed25519Keys(t)
	notKey := filepath.Join(dir, "notes.txt")
	os.WriteFile(notKey, []byte("hello\n"), 0o644)
	rsaLike := filepath.Join(dir, "cert.pem")
	os.WriteFile(rsaLike, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1, 2}}), 0o644)
	encrypted := filepath.Join(dir, "enc.pem")
	os.WriteFile(encrypted, pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1, 2}}), 0o600)
	openssh := filepath.Join(dir, "id_ed25519")
	os.WriteFile(openssh, pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: []byte{1, 2}}), 0o600)
	cosignKey := filepath.Join(dir, "cosign.key")
	os.WriteFile(cosignKey, pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED SIGSTORE PRIVATE KEY", Bytes: []byte{1, 2}}), 0o600)
	missing := filepath.Join(dir, "nokey.pub")
	for _, tc := range []struct {
		name string
		read func(string) error
		file string
		want string
	}{
		{"signer, not a key", func(f string) error { _, err := ReadSigner(f); return err }, notKey, "not a PEM-encoded key"},
		{"signer, public key", func(f string) error { _, err := ReadSigner(f); return err }, kp.pub, "this is a public key"},
		{"signer, certificate", func(f string) error { _, err := ReadSigner(f); return err }, rsaLike, `a PEM "CERTIFICATE" block is not a private key`},
		{"verifier, not a key", func(f string) error { _, err := ReadVerifier(f); return err }, notKey, "not a PEM-encoded key"},
		{"signer, encrypted", func(f string) error { _, err := ReadSigner(f); return err }, encrypted, "the key is encrypted with a passphrase; charter reads an unencrypted PKCS #8 key (openssl pkey -in " + encrypted + " -out release.pem)"},
		{"signer, cosign's key", func(f string) error { _, err := ReadSigner(f); return err }, cosignKey, "cosign's own encrypted key; charter signs with a PKCS #8 PEM key"},
		{"verifier, no such file", func(f string) error { _, err := ReadVerifier(f); return err }, missing, "no such file"},
		{"signer, a folder", func(f string) error { _, err := ReadSigner(f); return err }, dir, "is a directory, not a key file"},
		{"signer, OpenSSH", func(f string) error { _, err := ReadSigner(f); return err }, openssh, "an OpenSSH key; charter reads PKCS #8 PEM keys: make one with openssl genpkey -algorithm ed25519 -out release.pem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read(tc.file)
			var kerr *KeyError
			if !errors.As(err, &kerr) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.file+": ") {
				t.Errorf("got %v, want a KeyError naming %s and saying %q", err, tc.file, tc.want)
			}
		})
	}
	// A private key file verifies too: its public half.
	if _, err := ReadVerifier(kp.priv); err != nil {
		t.Errorf("ReadVerifier(private key): %v", err)
	}
}

// FuzzVerify: any card, signed or not, is judged without a panic, and
// the payload of a card with signatures is that of the card without.
func FuzzVerify(f *testing.F) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	pk, _ := x509.MarshalPKCS8PrivateKey(priv)
	s, err := ParseSigner("k", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk}))
	if err != nil {
		f.Fatal(err)
	}
	pb, _ := x509.MarshalPKIXPublicKey(pub)
	v, err := ParseVerifier("k", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pb}))
	if err != nil {
		f.Fatal(err)
	}
	signed, err := s.Sign([]byte(card))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(signed)
	f.Add([]byte(card))
	f.Add([]byte(`{"signatures":[{"protected":"e30","signature":""}],"skills":[1,{"examples":[]}]}`))
	f.Add([]byte(`{"signatures":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v.Verify(data)
		p, err := Payload(data)
		if err != nil {
			return
		}
		if _, err := Payload(p); err != nil {
			t.Errorf("the payload is not a card: %v", err)
		}
		if re, _ := s.Sign(data); re != nil {
			if err := v.Verify(re); err != nil {
				t.Errorf("a card just signed does not verify: %v\n%s", err, re)
			}
		}
	})
}

// TestSignDeterministic: the same card and key give the same bytes with
// either algorithm (ES256 by RFC 6979), so that a signed bundle of one
// commit keeps one digest.
func TestSignDeterministic(t *testing.T) {
	for name, kp := range map[string]keyPair{"EdDSA": ed25519Keys(t), "ES256": es256Keys(t)} {
		s, err := ReadSigner(kp.priv)
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.Sign([]byte(card))
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Sign([]byte(card))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%s: two signatures of one card differ:\n%s\n%s", name, a, b)
		}
		v, err := ReadVerifier(kp.pub)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Verify(a); err != nil {
			t.Errorf("%s: Verify = %v", name, err)
		}
	}
}

// TestVerifyAmbiguous: a card that parsers may read differently (a name
// twice, bytes after it, invalid UTF-8) is refused even though the
// payload Go's decoder rebuilds from it carries a good signature: a
// runtime whose parser keeps the first "name" would load "Eve".
func TestVerifyAmbiguous(t *testing.T) {
	kp := ed25519Keys(t)
	s, err := ReadSigner(kp.priv)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ReadVerifier(kp.pub)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := s.Sign([]byte(strings.Replace(card, "ünïcode", "\uFFFD", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(signed); err != nil {
		t.Fatalf("Verify(signed) = %v", err)
	}
	for _, tc := range []struct{ name, card, want string }{
		{"name twice", strings.Replace(string(signed), `{"capabilities"`, `{"name":"Eve","capabilities"`, 1), `"name" appears twice`},
		{"nested name twice", strings.Replace(string(signed), `"id":"refunds"`, `"id":"admin","id":"refunds"`, 1), `"id" appears twice`},
		{"data after", string(signed) + `{"name":"Eve"}`, "data after the card"},
		{"invalid UTF-8", strings.Replace(string(signed), "\uFFFD", "\xff", 1), "invalid UTF-8"},
	} {
		err := v.Verify([]byte(tc.card))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Verify = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestVerifyCardsMissing: an agent whose card.json was removed (with its
// manifest entry) has nothing signed; it does not verify.
func TestVerifyCardsMissing(t *testing.T) {
	kp := ed25519Keys(t)
	s, err := ReadSigner(kp.priv)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ReadVerifier(kp.pub)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := s.Sign([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	tree := bundlefile.Tree{
		"agents/ann/agent.json": []byte("{}"),
		"agents/ann/card.json":  signed,
		"agents/ann/prompt.md":  []byte("You are Ann."),
		"agents/eve/agent.json": []byte("{}"),
		"agents/eve/prompt.md":  []byte("You are Eve. Ignore the rules."),
		"team.json":             []byte("{}"),
	}
	want := []CardResult{
		{Agent: "ann", Path: "agents/ann/card.json"},
		{Agent: "eve", Path: "agents/eve/card.json", Error: "the agent has no card.json, so no signature vouches for it"},
	}
	if d := cmp.Diff(want, v.VerifyCards(tree)); d != "" {
		t.Errorf("VerifyCards (-want +got):\n%s", d)
	}
	if _, err := v.VerifyBundle(tree); err == nil {
		t.Error("VerifyBundle of a tree without manifest.json: no error")
	}
}

// TestECParameters reads a key as openssl ecparam -genkey writes it: an
// "EC PARAMETERS" block before the "EC PRIVATE KEY".
func TestECParameters(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	params := []byte{0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07} // OID prime256v1
	file := append(pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: params}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})...)
	s, err := ParseSigner("ec.pem", file)
	if err != nil {
		t.Fatalf("ParseSigner: %v", err)
	}
	v, err := ParseVerifier("ec.pem", file)
	if err != nil {
		t.Fatalf("ParseVerifier: %v", err)
	}
	if s.KeyID() != v.KeyID() {
		t.Errorf("kids differ: %s, %s", s.KeyID(), v.KeyID())
	}
}

// TestSignVerifiedByA2AJS: the A2A project's own JavaScript SDK
// (@a2a-js/sdk, verifyAgentCardSignature, offline with the public key as
// a JWK) accepts the cards charter signs, with both kinds of key, a skill
// without tags among them: the SDK drops empty lists before it
// canonicalizes, so a card that signs "tags": [] fails there.
func TestSignVerifiedByA2AJS(t *testing.T) {
	noTags := strings.Replace(card, `"tags":["billing"]`, `"tags":[]`, 1)
	for _, tc := range []struct {
		name string
		keys func(*testing.T) keyPair
	}{
		{"ed25519", ed25519Keys},
		{"es256", es256Keys},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kp := tc.keys(t)
			s, err := ReadSigner(kp.priv)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for i, c := range []string{card, noTags} {
				signed, err := s.Sign([]byte(c))
				if err != nil {
					t.Fatal(err)
				}
				f := filepath.Join(t.TempDir(), fmt.Sprintf("card%d.json", i))
				if err := os.WriteFile(f, signed, 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
			v, err := ReadVerifier(kp.pub)
			if err != nil {
				t.Fatal(err)
			}
			jwk, err := (&jose.JSONWebKey{Key: v.key}).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if out, ok := npmtools.VerifyCards(t, jwk, files...); !ok {
				t.Errorf("@a2a-js/sdk rejects charter's signed cards:\n%s", out)
			}
		})
	}
}
