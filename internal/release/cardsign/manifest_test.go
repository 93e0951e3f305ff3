package cardsign

import (
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

const manifest = "{\n  \"files\": [],\n  \"schema_version\": \"1\"\n}\n"

func TestManifestSignature(t *testing.T) {
	for name, keys := range map[string]keyPair{"EdDSA": ed25519Keys(t), "ES256": es256Keys(t)} {
		t.Run(name, func(t *testing.T) {
			s, err := ReadSigner(keys.priv)
			if err != nil {
				t.Fatal(err)
			}
			v, err := ReadVerifier(keys.pub)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := s.SignManifest([]byte(manifest))
			if err != nil {
				t.Fatal(err)
			}
			again, _ := s.SignManifest([]byte(manifest))
			if string(again) != string(sig) {
				t.Errorf("two signatures of one manifest differ: a rebuild would change the bundle")
			}
			if err := v.VerifyManifest([]byte(manifest), sig); err != nil {
				t.Fatalf("VerifyManifest: %v", err)
			}
			if err := v.VerifyManifest([]byte(strings.Replace(manifest, `"1"`, `"2"`, 1)), sig); err == nil || !strings.Contains(err.Error(), "manifest.json was changed after it was signed") {
				t.Errorf("changed manifest: %v", err)
			}
			jwcryptoManifest(t, sig, keys.pub)
		})
	}
}

// jwcryptoManifest checks the signature with Debian's python3-jwcrypto,
// an independent JOSE implementation: a runtime in another language
// verifies manifest.jws so.
func jwcryptoManifest(t *testing.T, sig []byte, pub string) {
	t.Helper()
	py := realtool.NeedPython(t, "jwcrypto", "python3-jwcrypto")
	dir := t.TempDir()
	mf, sf := filepath.Join(dir, "manifest.json"), filepath.Join(dir, "manifest.jws")
	if err := os.WriteFile(mf, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sf, sig, 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `
import sys
from jwcrypto import jwk, jws
from jwcrypto.common import base64url_encode, json_decode
key = jwk.JWK.from_pem(open(sys.argv[3], "rb").read())
prot, empty, sig = open(sys.argv[2]).read().strip().split(".")
assert empty == ""
hdr = json_decode(jws.base64url_decode(prot))
j = jws.JWS()
j.deserialize(prot + "." + base64url_encode(open(sys.argv[1], "rb").read()) + "." + sig, key)
print("ok", hdr["alg"], hdr["kid"] == key.thumbprint())
`
	out, err := exec.Command(py, "-c", script, mf, sf, pub).CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), " True") || !strings.HasPrefix(string(out), "ok ") {
		t.Errorf("jwcrypto: %s %v", out, err)
	}
}

func TestManifestSignatureRefusals(t *testing.T) {
	keys, others := es256Keys(t), es256Keys(t)
	s, _ := ReadSigner(keys.priv)
	v, _ := ReadVerifier(keys.pub)
	o, _ := ReadSigner(others.priv)
	otherSig, err := o.SignManifest([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	// A signature by the key, but with no kid in its header.
	js, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: s.key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := js.Sign([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	noKid, _ := obj.DetachedCompactSerialize()
	b64 := base64.RawURLEncoding.EncodeToString
	for _, c := range []struct {
		name string
		jws  []byte
		want string
	}{
		{"missing", nil, "manifest.json is not signed (the bundle has no manifest.jws)"},
		{"empty", []byte(""), "not a detached JWS"},
		{"not a JWS", []byte("hello"), "not a detached JWS"},
		{"with its payload", []byte(b64([]byte(`{"alg":"ES256"}`)) + "." + b64([]byte(manifest)) + ".c2ln"), "not a detached JWS"},
		{"no kid", []byte(noKid), "names no key (no kid): refused"},
		{"another key", otherSig, "manifest.json is signed by another key"},
		{"alg none", []byte(b64([]byte(`{"alg":"none","kid":"`+v.kid+`"}`)) + ".."), "manifest.jws:"},
		{"alg HS256", []byte(b64([]byte(`{"alg":"HS256","kid":"`+v.kid+`"}`)) + "..c2ln"), "manifest.jws:"},
		{"too large", []byte(strings.Repeat("a", maxJWS+1)), "more than"},
	} {
		err := v.VerifyManifest([]byte(manifest), c.jws)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: VerifyManifest = %v, want %q", c.name, err, c.want)
		}
		if c.jws == nil && !errors.Is(err, ErrManifestUnsigned) {
			t.Errorf("missing: %v is not ErrManifestUnsigned", err)
		}
	}
}

// FuzzVerifyManifest: whatever manifest.jws holds, VerifyManifest refuses
// it without panicking, unless it is the key's signature of the manifest.
func FuzzVerifyManifest(f *testing.F) {
	keys := es256Keys(&testing.T{})
	s, err := ReadSigner(keys.priv)
	if err != nil {
		f.Fatal(err)
	}
	v, _ := ReadVerifier(keys.pub)
	good, _ := s.SignManifest([]byte(manifest))
	f.Add(good)
	f.Add([]byte("eyJhbGciOiJub25lIn0.."))
	f.Add([]byte(".."))
	f.Fuzz(func(t *testing.T, jws []byte) {
		err := v.VerifyManifest([]byte(manifest), jws)
		if err == nil && strings.TrimSpace(string(jws)) != strings.TrimSpace(string(good)) {
			// Only the key's signature verifies. (ECDSA's (r, n-s) twin
			// would too, but no fuzzer finds it by mutating bytes.)
			t.Fatalf("accepted %q", jws)
		}
	})
}
