package main

import (
	"bytes"
	"fmt"
	"testing"
)

// TestCacheLogEscapes: what the caches' log says comes from the
// repository (a file's name, an error about its text), so it reaches the
// terminal escaped, as every text output of charter does: a file named
// with a terminal control sequence prints as text.
func TestCacheLogEscapes(t *testing.T) {
	t.Setenv("CHARTER_DEBUG_INCREMENTAL", "1")
	var stderr bytes.Buffer
	w := cacheLog(&globals{stderr: &stderr})
	fmt.Fprintf(w, "charter: cache: 1 files changed (%s); evaluated 2 of 9 files\n", "agents/\x1b[31mred.cue")
	if got, want := stderr.String(), `charter: cache: 1 files changed (agents/\x1b[31mred.cue); evaluated 2 of 9 files`+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
