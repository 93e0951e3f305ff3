package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// Package initialisation budgets for a charter process, from
// GODEBUG=inittrace=1 on `charter version`: the heap every package's init
// allocates, which does not move with the machine's load as time does.
// Measured (issue 30): 4.9 MB before jsonschema's metaschemas, the site's
// templates and the credential detector's expressions were made lazy, 2.9
// MB after; 2.55 MB once charter's own expressions and tables went lazy
// (own 0.34 -> 0.07 MB) and oras-go's root package was no longer linked;
// 2.33 MB once goldmark's extension package was (internal/gmtable: own
// 0.10 MB).
// What is left is dependencies' (cue's apd, goldmark, cel's protobuf
// descriptors, client_golang, oras-go's registry). The total stays under
// the collector's first trigger (about 3.5 MB of a 4 MB goal): past it,
// every process collects before main (internal/gcstart).
const (
	initBudget    = 2_600_000
	ownInitBudget = 120_000
)

// TestInitBudget: `charter version` initialises no more than the budgets,
// and none of what was made lazy (each shows by name when it comes back).
func TestInitBudget(t *testing.T) {
	realtool.Long(t, "builds charter")
	bin := filepath.Join(t.TempDir(), "charter")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("charter version: %v\n%s", err, stderr.String())
	}
	type pkg struct {
		name  string
		bytes int
	}
	var all []pkg
	total, own := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		all = append(all, pkg{f[1], b})
		total += b
		if strings.HasPrefix(f[1], "github.com/charter-dev/charter/") {
			own += b
		}
	}
	if len(all) == 0 {
		t.Fatalf("no inittrace lines:\n%s", stderr.String())
	}
	slices.SortFunc(all, func(a, b pkg) int { return b.bytes - a.bytes })
	top := func() string {
		var s []string
		for _, p := range all[:min(10, len(all))] {
			s = append(s, p.name+" "+strconv.Itoa(p.bytes))
		}
		return strings.Join(s, "\n")
	}
	t.Logf("package initialisation: %d bytes, charter's own %d", total, own)
	if total > initBudget {
		t.Errorf("package initialisation allocates %d bytes, over the budget of %d; the largest:\n%s", total, initBudget, top())
	}
	if own > ownInitBudget {
		t.Errorf("charter's own packages allocate %d bytes in init, over the budget of %d; the largest:\n%s", own, ownInitBudget, top())
	}
	for _, p := range all {
		switch p.name {
		case "github.com/charter-dev/charter/internal/jsonschema", "github.com/charter-dev/charter/internal/output/site",
			"github.com/charter-dev/charter/internal/output/secret":
			if p.bytes > 20_000 {
				t.Errorf("%s allocates %d bytes in init: what was made lazy (metaschemas, templates, expressions) is eager again", p.name, p.bytes)
			}
		case "github.com/charter-dev/charter/lint", "github.com/charter-dev/charter/rules",
			"github.com/charter-dev/charter/internal/interop/importer", "github.com/charter-dev/charter/internal/artifact/bundle",
			"github.com/charter-dev/charter/internal/config/validate":
			// Their expressions, the rules' crc32c table and the lint
			// registry's check (lint keeps 35 KB of rule docs).
			if p.bytes > 50_000 {
				t.Errorf("%s allocates %d bytes in init: what was made lazy (expressions, tables) is eager again", p.name, p.bytes)
			}
		case "oras.land/oras-go/v2":
			t.Errorf("charter links oras-go's root package, which compiles a media-type expression in init (0.29 MB): use internal/release/oci's tagBytes, fetchBytes, packManifest")
		case "github.com/yuin/goldmark/extension":
			t.Errorf("charter links goldmark's extension package, whose init compiles linkify's expressions (0.26 MB): use internal/gmtable")
		case "github.com/santhosh-tekuri/jsonschema/v6":
			t.Errorf("charter links upstream jsonschema, which compiles its metaschemas in init: use internal/jsonschema")
		}
	}
}
