package main

import (
	"os/exec"
	"strings"
	"testing"
)

// heavy are the modules charter-hook must not link: each is what made
// charter's start-up several times a small program's (package
// initialisation of CUE's decimal tables, Git's crypto, the registry
// clients, the metrics registry, markdown, WebAssembly).
var heavy = []string{
	"cuelang.org/",
	"github.com/go-git/",
	"oras.land/",
	"github.com/prometheus/",
	"github.com/yuin/goldmark",
	"github.com/sigstore/",
	"github.com/tetratelabs/wazero",
	"github.com/spf13/cobra",
	"github.com/redis/",
	"github.com/charter-dev/charter/compiler",
	"github.com/charter-dev/charter/internal/artifact/bundle", // the writer; bundlefile is the reader
	"github.com/charter-dev/charter/internal/config/validate",
}

// TestHookLinksLittle: charter-hook (and so internal/enforce/hook, which
// charter eval's hook path runs too) links none of the heavy modules.
// Every call of a Claude Code session starts the hook: what it links, it
// initialises every time.
func TestHookLinksLittle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps listed %d packages; want charter-hook's whole graph:\n%s", len(deps), out)
	}
	for _, d := range deps {
		for _, h := range heavy {
			if d == strings.TrimSuffix(h, "/") || strings.HasPrefix(d, h) && (strings.HasSuffix(h, "/") || len(d) == len(h) || d[len(h)] == '/') {
				t.Errorf("charter-hook links %s (%s): keep what the hook needs apart from it (see internal/artifact/bundlefile)", d, h)
			}
		}
	}
}
