package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// hookBin builds cmd/charter-hook once for the scripts, which find it on
// PATH: the program users install, not a copy of its code.
var hookBin = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "charter-hook-bin")
	if err != nil {
		return "", err
	}
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "charter-hook"), "../charter-hook").CombinedOutput()
	if err != nil {
		return "", errors.New("go build ../charter-hook: " + err.Error() + "\n" + string(out))
	}
	return dir, nil
})

// putHookOnPath puts charter-hook on the script's PATH.
func putHookOnPath(env *testscript.Env) error {
	dir, err := hookBin()
	if err != nil {
		return err
	}
	env.Setenv("PATH", dir+string(filepath.ListSeparator)+env.Getenv("PATH"))
	return nil
}

// removeHookBin removes the folder hookBin built into, once the tests ran.
func removeHookBin(t *testing.T) {
	t.Cleanup(func() {
		if dir, err := hookBin(); err == nil {
			os.RemoveAll(dir)
		}
	})
}

// scriptSameHook runs one hook call through both programs and requires
// the same answer: `samehook INPUT ARGS...` runs `charter eval --protocol
// claude-code ARGS...` and `charter-hook ARGS...`, each with the file
// INPUT on stdin, and fails unless their stdout, stderr and exit status
// are equal, byte for byte. An argument {state} becomes state-eval for
// charter and state-hook for charter-hook, so that each program keeps its
// own sessions and a sequence of calls meets the same history in both.
// The common stdout and stderr become the script's; the status must be
// 0 (with !, anything else).
func scriptSameHook(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: samehook INPUT ARGS...")
	}
	input := []byte(ts.ReadFile(args[0]))
	type result struct {
		stdout, stderr string
		code           int
	}
	runOne := func(argv []string, state string) result {
		for i, a := range argv {
			argv[i] = strings.ReplaceAll(a, "{state}", state)
		}
		path, err := lookPath(argv[0], ts.Getenv("PATH"))
		ts.Check(err)
		cmd := exec.Command(path, argv[1:]...)
		cmd.Dir = ts.MkAbs(".")
		cmd.Env = []string{"PATH=" + ts.Getenv("PATH"), "HOME=" + ts.Getenv("HOME"), "TMPDIR=" + ts.Getenv("TMPDIR"), "CHARTER_CACHE_DIR=" + ts.Getenv("CHARTER_CACHE_DIR")}
		cmd.Stdin = bytes.NewReader(input)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", argv[0], err)
		}
		return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
	}
	eval := runOne(append([]string{"charter", "eval", "--protocol", "claude-code"}, args[1:]...), "state-eval")
	hook := runOne(append([]string{"charter-hook"}, args[1:]...), "state-hook")
	if eval != hook {
		ts.Fatalf("charter eval --protocol claude-code and charter-hook differ on %s:\ncharter: exit %d\nstdout: %q\nstderr: %q\ncharter-hook: exit %d\nstdout: %q\nstderr: %q",
			args[0], eval.code, eval.stdout, eval.stderr, hook.code, hook.stdout, hook.stderr)
	}
	ts.Stdout().Write([]byte(eval.stdout))
	ts.Stderr().Write([]byte(eval.stderr))
	if (eval.code != 0) != neg {
		ts.Fatalf("both exited %d", eval.code)
	}
}

// lookPath finds prog in the folders of path (a script's PATH, not the
// test's).
func lookPath(prog, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New(prog + " is not on the script's PATH")
}
