package main

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite generated files")

// TestCommandReference fails when docs/commands.md is stale.
func TestCommandReference(t *testing.T) {
	const path = "../../docs/commands.md"
	want := commandReference()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("docs/commands.md is stale; regenerate it with: go test ./cmd/charter -run TestCommandReference -update")
	}
}
