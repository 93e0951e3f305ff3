package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// TestSignedCardsVerifiedByA2AJS builds and signs the starter's cards, one
// agent's skill without tags, and has the A2A project's JavaScript SDK
// (@a2a-js/sdk) verify every one offline: the SDK drops empty lists before
// it verifies, so a card that signed "tags": [] failed there.
func TestSignedCardsVerifiedByA2AJS(t *testing.T) {
	realtool.Long(t, "runs node")
	dir := starterRepo(t, false)
	src := "package charter\n\nagents: cy: {name: \"Cy\", type: \"personal_assistant\", skills: primary: [{id: \"notes\", name: \"Notes\", description: \"Takes notes.\"}]}\n"
	if err := os.WriteFile(filepath.Join(dir, "agents", "cy.cue"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "release.pem")
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "dist")
	if code, _, stderr := runArgs("-C", dir, "build", "--sign-key", key, "--out", out); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	cards, err := filepath.Glob(filepath.Join(out, "agents", "*", "card.json"))
	if err != nil || len(cards) != 3 {
		t.Fatalf("cards: %v, %v", cards, err)
	}
	jwk, err := (&jose.JSONWebKey{Key: pub}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := npmtools.VerifyCards(t, jwk, cards...); !ok {
		t.Errorf("@a2a-js/sdk rejects cards charter signed:\n%s", got)
	}
}
