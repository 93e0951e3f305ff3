package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/charter-dev/charter/internal/testkit/adkconfig"
	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/internal/testkit/registrytest"
)

func TestMain(m *testing.M) {
	// The tests write no cache into the user's cache folder: scripts set
	// one of their own (Setup), the other tests none.
	if os.Getenv("CHARTER_CACHE_DIR") == "" {
		os.Setenv("CHARTER_CACHE_DIR", "off")
	}
	testscript.Main(guard{m}, map[string]func(){
		"charter": func() {
			// Registries are reached without DNS: a name other than
			// localhost is an unknown host, as on a machine offline.
			registryClient = registrytest.OfflineClient(registrytest.NoDNS)
			installFaults(os.Getenv("CHARTER_FAULTS"))
			os.Exit(Main())
		},
	})
}

// TestScript runs testdata/script/*.txtar, the end-to-end tests of every
// command. $EXAMPLES is the repository's examples folder, $SEEDS the
// seeds' examples that import reads (importer/testdata/seeds); `cpdir SRC DST`
// copies a folder tree; `exitcode N PROG ARGS...` runs a program like exec
// and checks its exit status; `claude SCRIPT.json [ARGS...]` runs the real
// Claude Code against a scripted model (claude_script_test.go); the
// condition [root] holds when the tests run as root, [claude] when Claude
// Code is installed (in CI it must be).
func TestScript(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := filepath.Abs("../../internal/interop/importer/testdata/seeds")
	if err != nil {
		t.Fatal(err)
	}
	junitXSD, err := filepath.Abs("../../internal/output/diag/testdata/junit-10.xsd")
	if err != nil {
		t.Fatal(err)
	}
	removeHookBin(t)
	testscript.Run(t, testscript.Params{
		Dir: "../../testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			env.Setenv("SEEDS", seeds)
			env.Setenv("JUNIT_XSD", junitXSD)
			// The npm packages the scripts run (node_modules under it).
			env.Setenv("NPMTOOLS", npmtools.Dir())
			// charter's cache of lint results: beside $WORK, never in it
			// (scripts check what a command wrote there), one per script.
			env.Setenv("CHARTER_CACHE_DIR", filepath.Join(filepath.Dir(env.WorkDir), "cache-"+filepath.Base(env.WorkDir)))
			// Deterministic git: fixed identities and dates, no user config.
			for k, v := range map[string]string{
				"GIT_AUTHOR_NAME":     "Ada Author",
				"GIT_AUTHOR_EMAIL":    "ada@example.com",
				"GIT_AUTHOR_DATE":     "2026-01-01T12:00:00Z",
				"GIT_COMMITTER_NAME":  "Cy Committer",
				"GIT_COMMITTER_EMAIL": "cy@example.com",
				"GIT_COMMITTER_DATE":  "2026-01-01T12:00:00Z",
				"GIT_CONFIG_NOSYSTEM": "1",
				"GIT_CONFIG_GLOBAL":   "/dev/null",
				"NO_COLOR":            "1",
			} {
				env.Setenv(k, v)
			}
			// charter-hook, built from cmd/charter-hook (hookbin_script_test.go).
			return putHookOnPath(env)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"cpdir":    cpdir,
			"exitcode": exitcode,
			// release_script_test.go
			"registry":     scriptRegistry,
			"tamper":       scriptTamper,
			"dropproxy":    scriptDropProxy,
			"setjson":      scriptSetJSON,
			"replace":      scriptReplace,
			"rehash":       scriptRehash,
			"pushartifact": scriptPushArtifact,
			// sarif-multitool FILE: the SARIF multitool's validator with
			// GitHub's rules finds no error in FILE.
			"sarif-multitool": sarifMultitool,
			// actions-core JSON [PREFIX]: stdout is charter's JSON
			// diagnostics annotated by GitHub's @actions/core.
			"actions-core": actionsCore,
			// claude_script_test.go
			"claude": scriptClaude,
			// adk-config FILE...: ADK's loader would load each Agent
			// Config (internal/testkit/adkconfig).
			"adk-config": adkConfig,
			// serve_script_test.go: charter serve in the background, and
			// requests to it.
			"serve": scriptServe,
			"http":  scriptHTTP,
			// hookbin_script_test.go: one hook call through charter eval
			// and charter-hook, the same answer required.
			"samehook": scriptSameHook,
		},
		// [root]: running as root, where chmod 000 does not make a file
		// unreadable. [have:PROG]: PROG is installed; in CI (CI=true) a
		// missing one fails the script instead, since every program the
		// scripts read outputs with (jq, xmllint) must be there.
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			if cond == "claude" {
				return claudeCondition()
			}
			if cond == "have:npmtools" {
				if npmtools.Multitool() != "" {
					return true, nil
				}
				if realtool.InCI() {
					return false, errors.New(npmtools.Missing("the SARIF multitool and @actions/core") + ", and CI is set")
				}
				return false, nil
			}
			// [npm:PKG]: node and the npm package PKG, pinned in
			// internal/testkit/npmtools, are installed.
			if pkg, ok := strings.CutPrefix(cond, "npm:"); ok {
				return npmCondition(pkg)
			}
			if prog, ok := strings.CutPrefix(cond, "have:"); ok {
				if _, err := exec.LookPath(prog); err == nil {
					return true, nil
				}
				if realtool.InCI() {
					return false, fmt.Errorf("%s is not installed, and CI is set: install it (.ci/run does)", prog)
				}
				return false, nil
			}
			return releaseCondition(cond)
		},
		RequireExplicitExec: true,
	})
}

// adkConfig checks ADK Agent Configs: adk-config FILE...; with !, each
// must be refused (the reasons go to stdout).
func adkConfig(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: adk-config FILE...")
	}
	for _, f := range args {
		err := adkconfig.Check([]byte(ts.ReadFile(f)))
		switch {
		case err != nil && !neg:
			ts.Fatalf("ADK would refuse %s: %v", f, err)
		case err == nil && neg:
			ts.Fatalf("ADK would load %s", f)
		case err != nil:
			fmt.Fprintf(ts.Stdout(), "%s: %v\n", f, err)
		}
	}
}

// npmCondition answers [npm:PKG].
func npmCondition(pkg string) (bool, error) {
	_, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(npmtools.Dir(), "node_modules", filepath.FromSlash(pkg), "package.json"))
	}
	if err == nil {
		return true, nil
	}
	if realtool.InCI() {
		return false, fmt.Errorf("%s, and CI is set", npmtools.Missing("node and "+pkg))
	}
	return false, nil
}

// cpdir copies a directory tree: cpdir SRC DST.
func cpdir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpdir SRC DST")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	ts.Check(err)
}

// sarifMultitool checks SARIF files with Microsoft's multitool and
// GitHub's ingestion rules: sarif-multitool FILE...
func sarifMultitool(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: sarif-multitool FILE...")
	}
	files := make([]string, len(args))
	for i, a := range args {
		files[i] = ts.MkAbs(a)
	}
	problems, err := npmtools.Validate(files...)
	if err != nil {
		ts.Fatalf("%v", npmError(err))
	}
	if len(problems) > 0 {
		ts.Fatalf("the SARIF multitool's GitHub rules reject %s:\n%s", strings.Join(args, " "), strings.Join(problems, "\n"))
	}
}

// actionsCore writes charter's JSON diagnostics as @actions/core writes
// the same annotations, to stdout: actions-core JSON [PREFIX].
func actionsCore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: actions-core JSON [PREFIX]")
	}
	prefix := ""
	if len(args) == 2 {
		prefix = args[1]
	}
	out, err := npmtools.AnnotateCmd(ts.MkAbs(args[0]), prefix)
	if err != nil {
		ts.Fatalf("%v", npmError(err))
	}
	ts.Stdout().Write([]byte(out))
}

// npmError says, for a tool that is not installed, how to install it;
// outside CI the scripts guard these commands with [have:npmtools].
func npmError(err error) error {
	return fmt.Errorf("%v (npm install --no-save --prefix internal/testkit/npmtools installs it)", err)
}

// exitcode runs a program like exec and checks its exit status:
// exitcode N PROG ARGS... Its stdout and stderr are checked as exec's are.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: exitcode N PROG [ARGS...]: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
