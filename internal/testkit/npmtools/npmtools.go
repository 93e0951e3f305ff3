// Package npmtools runs, for tests, the programs outside charter that read
// its outputs and come from npm: Microsoft's SARIF multitool, whose
// validator carries GitHub code scanning's ingestion rules (GH1001...),
// GitHub's own Actions toolkit (@actions/core), which writes workflow
// commands as GitHub means them, Deque's axe-core, which checks the site's
// pages for accessibility in Chromium, the A2A project's JavaScript SDK
// (@a2a-js/sdk), which verifies signed Agent Cards, and
// @anthropic-ai/claude-agent-sdk, whose platform package holds the real
// Claude Code binary (internal/testkit/claudetest runs it), and the
// runtimes charter exports to, which read the exports in
// testdata/script/export_*.txtar: typescript (tsc over the Agent SDK's
// types), @openai/agents, opencode-ai (OpenCode's binary) and
// @google/gemini-cli-core. package.json
// pins them; install them with
//
//	npm install --no-save --prefix internal/testkit/npmtools
//
// (.ci/run does). A test that needs one and does not find it skips, except
// in CI (CI set and not false), where it fails.
package npmtools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// Dir is the absolute path of this folder, which holds package.json and,
// once installed, node_modules.
func Dir() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Dir(here)
}

// InstallCommand installs the tools package.json pins, from the top of the
// repository.
const InstallCommand = "npm install --no-save --prefix internal/testkit/npmtools"

// Missing reports why a tool is not there and how to install it.
func Missing(what string) string {
	return what + " is not installed: run " + InstallCommand + " (needs node and npm)"
}

// need skips t, or fails it in CI, with Missing's message.
func need(t testing.TB, what string) {
	t.Helper()
	realtool.Missing(t, Missing(what))
}

// Multitool returns the path of the SARIF multitool's executable, or "" when
// it is not installed.
func Multitool() string {
	p := filepath.Join(Dir(), "node_modules", "@microsoft", "sarif-multitool-"+runtime.GOOS, "Sarif.Multitool")
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if fi.Mode()&0o100 == 0 {
		// npm may skip the package's postinstall (chmod u+x).
		if os.Chmod(p, fi.Mode()|0o100) != nil {
			return ""
		}
	}
	return p
}

// ValidateSARIF runs the multitool's validator with the SARIF rules and
// GitHub's (--rule-kind "Gh;Sarif") over the files and returns what it reports
// at level error, one line each, as the multitool prints it; nil when the
// log is one GitHub accepts. It skips t (fails in CI) when the multitool is
// not installed.
func ValidateSARIF(t testing.TB, files ...string) []string {
	t.Helper()
	problems, err := Validate(files...)
	if err != nil {
		if _, ok := err.(missingError); ok {
			need(t, err.Error())
		}
		t.Fatal(err)
	}
	return problems
}

// Validate is ValidateSARIF without a testing.TB; a missing multitool is an
// error whose text names it.
func Validate(files ...string) ([]string, error) {
	mt := Multitool()
	if mt == "" {
		return nil, missingError("the SARIF multitool (@microsoft/sarif-multitool)")
	}
	dir, err := os.MkdirTemp("", "charter-multitool-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "validation.sarif")
	cmd := exec.Command(mt, append([]string{"validate", "--rule-kind", "Gh;Sarif", "-o", out}, files...)...)
	// The multitool is a .NET program: without ICU on the machine it needs
	// invariant globalization, and it should not phone home.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	stdout, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("sarif multitool: %v\n%s", err, stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("sarif multitool wrote no report: %v\n%s", err, stdout)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return nil, fmt.Errorf("sarif multitool report: %v", err)
	}
	errorRules := map[string]bool{}
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if r.Level == "error" {
				errorRules[r.RuleID] = true
			}
		}
	}
	if len(errorRules) == 0 {
		return nil, nil
	}
	var problems []string
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		s := string(bytes.TrimSpace(line))
		for id := range errorRules {
			if strings.Contains(s, ": error "+id+":") {
				problems = append(problems, s)
				break
			}
		}
	}
	if len(problems) == 0 {
		for id := range errorRules {
			problems = append(problems, "error "+id+" (see the multitool's output)")
		}
	}
	return problems, nil
}

// Annotate runs annotate.mjs, which writes charter's JSON diagnostics in
// jsonFile as @actions/core writes the same annotations, with prefix
// joined in front of every file; it returns that output. It skips t (fails
// in CI) when node or @actions/core is not installed.
func Annotate(t testing.TB, jsonFile, prefix string) string {
	t.Helper()
	out, err := AnnotateCmd(jsonFile, prefix)
	if err != nil {
		if _, ok := err.(missingError); ok {
			need(t, err.Error())
		}
		t.Fatal(err)
	}
	return out
}

type missingError string

func (e missingError) Error() string { return string(e) }

// AnnotateCmd is Annotate without a testing.TB; a missing tool is an error
// whose text names it.
func AnnotateCmd(jsonFile, prefix string) (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", missingError("node")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "@actions", "core", "package.json")); err != nil {
		return "", missingError("@actions/core")
	}
	cmd := exec.Command(node, filepath.Join(Dir(), "annotate.mjs"), jsonFile, prefix)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("node annotate.mjs: %v\n%s", err, stderr.Bytes())
	}
	return string(out), nil
}

// AxeCore returns the source of axe-core (axe.min.js), Deque's
// accessibility engine, which a browser test injects into each page; it
// skips t (fails in CI) when it is not installed.
func AxeCore(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(), "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		need(t, "axe-core")
	}
	return string(b)
}

// VerifyCards runs a2averify.mjs: the A2A project's JavaScript SDK
// (@a2a-js/sdk) verifies the signatures of the cards with the public key
// jwk (a JWK, as JSON). It returns the SDK's verdict a card a line ("ok
// FILE", "FAIL FILE: why") and whether every card verified. It skips t
// (fails in CI) when node or the SDK is not installed.
func VerifyCards(t testing.TB, jwk []byte, cards ...string) (string, bool) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		need(t, "node")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "@a2a-js", "sdk", "package.json")); err != nil {
		need(t, "@a2a-js/sdk")
	}
	key := filepath.Join(t.TempDir(), "key.jwk.json")
	if err := os.WriteFile(key, jwk, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{filepath.Join(Dir(), "a2averify.mjs"), key}, cards...)...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("node a2averify.mjs: %v\n%s", err, out)
	}
	return string(out), err == nil
}
