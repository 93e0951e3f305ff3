// Package adkgo runs, for tests, ADK-Go's own Agent Config loader
// (google.golang.org/adk/v2, internal/configurable's FromConfig) over
// folders of root_agent.yaml files. The loader is internal to ADK-Go, so
// it is run through ADK-Go's own command that calls it,
// cmd/internal/adkcli, built at the version loader/go.mod pins into
// /usr/local/bin/adkcli:
//
//	cd internal/testkit/adkgo/loader && GOWORK=off go build -o /usr/local/bin/adkcli google.golang.org/adk/v2/cmd/internal/adkcli
//
// (.ci/run does). A test that does not find it, or finds another version,
// skips, except in CI, where it fails (realtool.Missing).
//
// The command walks its working folder for root_agent.yaml files, loads
// each (the YAML into ADK-Go's structs, the agent class, the model, the
// tools and callbacks resolved by name, sub_agents by config_path) and
// prints "Agent loaded successfully: NAME" or logs "Error loading agent
// at PATH: ERR"; then it hands an unknown subcommand to ADK's launcher,
// which refuses it, so no server starts and nothing is called.
package adkgo

import (
	"bufio"
	"bytes"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// Module is the Go module the loader comes from.
const Module = "google.golang.org/adk/v2"

// Path is where .ci/run installs the loader.
const Path = "/usr/local/bin/adkcli"

// Dir is the absolute path of this folder; loader/ under it pins the
// loader's build.
func Dir() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Dir(here)
}

var requireLine = regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(Module) + `\s+(v\S+)`)

// Version is the ADK-Go version loader/go.mod pins.
func Version() (string, error) {
	b, err := os.ReadFile(filepath.Join(Dir(), "loader", "go.mod"))
	if err != nil {
		return "", err
	}
	m := requireLine.FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("loader/go.mod requires no %s", Module)
	}
	return string(m[1]), nil
}

// Need returns the loader's path: the program at Path, built from the
// pinned ADK-Go version (its build information says so). Anything else
// is Missing.
func Need(t testing.TB) string {
	t.Helper()
	want, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	how := "build it: cd internal/testkit/adkgo/loader && GOWORK=off go build -o " + Path + " " + Module + "/cmd/internal/adkcli (.ci/run does)"
	info, err := buildinfo.ReadFile(Path)
	if err != nil {
		realtool.Missing(t, "ADK-Go's config loader is not at "+Path+" ("+err.Error()+"); "+how)
	}
	if info.Path != Module+"/cmd/internal/adkcli" || info.Main.Path != Module || info.Main.Version != want {
		realtool.Missing(t, fmt.Sprintf("%s is %s from %s %s, not ADK-Go's loader at the pinned %s %s; %s", Path, info.Path, info.Main.Path, info.Main.Version, Module, want, how))
	}
	return Path
}

// Result is what the loader said about one root_agent.yaml.
type Result struct {
	// Name is the loaded agent's name ("" when it was not loaded).
	Name string
	// Err is the loader's reason for not loading it ("" when loaded).
	Err string
}

// OK reports whether the loader loaded the file.
func (r Result) OK() bool { return r.Name != "" && r.Err == "" }

var (
	loading = regexp.MustCompile(`Loading agent from: (.+)$`)
	loaded  = regexp.MustCompile(`Agent loaded successfully: (.*)$`)
	failed  = regexp.MustCompile(`Error loading agent at (.+?root_agent\.yaml): (.*)$`)
)

// Load runs the loader at path in dir and returns its verdict on every
// root_agent.yaml under dir, by path relative to dir in slash form, and
// the loader's whole output (for a failure message). A file the loader
// found but gave no verdict on is an error.
func Load(path, dir string) (map[string]Result, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// An unknown subcommand: ADK's launcher refuses it after the loading,
	// so the run ends there. A dummy key: the Gemini client is made
	// without calling anything.
	cmd := exec.CommandContext(ctx, path, "charter-loads-only")
	home, err := os.MkdirTemp("", "adkgo-home")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(home)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GOOGLE_API_KEY=not-a-key"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	// The launcher's refusal ends the output with its usage: keep its
	// first line.
	errOut, _, _ := strings.Cut(stderr.String(), "\nArguments:")
	out := stdout.String() + errOut
	if ctx.Err() != nil {
		return nil, out, fmt.Errorf("the ADK-Go loader did not finish in %v", 2*time.Minute)
	}
	if strings.Contains(stdout.String(), "No 'root_agent.yaml' files found") {
		return nil, out, fmt.Errorf("the ADK-Go loader found no root_agent.yaml under %s", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, out, err
	}
	rel := func(p string) string {
		r, err := filepath.Rel(abs, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	res := map[string]Result{}
	var current string
	// stdout: "Loading agent from: P" then "Agent loaded successfully: N"
	// or nothing (the error goes to stderr, by path).
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		line := sc.Text()
		if m := loading.FindStringSubmatch(line); m != nil {
			current = rel(m[1])
			if _, ok := res[current]; !ok {
				res[current] = Result{}
			}
		} else if m := loaded.FindStringSubmatch(line); m != nil && current != "" {
			res[current] = Result{Name: m[1]}
		}
	}
	sc = bufio.NewScanner(&stderr)
	for sc.Scan() {
		if m := failed.FindStringSubmatch(sc.Text()); m != nil {
			res[rel(m[1])] = Result{Err: m[2]}
		}
	}
	if len(res) == 0 {
		return nil, out, fmt.Errorf("the ADK-Go loader loaded nothing (%v)", runErr)
	}
	for p, r := range res {
		if r.Name == "" && r.Err == "" {
			return nil, out, fmt.Errorf("the ADK-Go loader gave no verdict on %s", p)
		}
	}
	return res, out, nil
}
