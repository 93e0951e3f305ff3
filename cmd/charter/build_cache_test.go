package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/gen"
)

// TestBuildOverEqualsFresh: after random sequences of edits of a
// generated repository (budgets, managers, delegates, personalities and
// so team.json's pair sums and extremes, types and presets, ignore
// comments, credentials with and without an ignore that excuses them,
// option typos and syntax errors that stop the build, renamed agents,
// agents added and removed, edits of a file that declares more than
// agents, undos), `charter build` over the previous bundle through the
// cache leaves exactly the folder a fresh build writes, file for file
// and byte for byte, or fails as a fresh build fails; and most edits
// are built over the previous bundle.
func TestBuildOverEqualsFresh(t *testing.T) {
	agents, edits := 120, 12
	if !testing.Short() {
		agents, edits = 520, 40 // above team.FullMatrixMax: the extremes, not the matrix
	}
	root, cache := t.TempDir(), t.TempDir()
	t.Setenv("CHARTER_CACHE_DIR", cache)
	t.Setenv("CHARTER_DEBUG_INCREMENTAL", "1")
	if err := gen.Write(root, agents); err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteExtra(root, agents); err != nil {
		t.Fatal(err)
	}
	write := func(rel, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	out, fresh := filepath.Join(t.TempDir(), "dist"), filepath.Join(t.TempDir(), "dist")
	build := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"-C", root, "build"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	r := rand.New(rand.NewPCG(27, 30))
	id := func() string { return fmt.Sprintf("a%04d", r.IntN(agents)) }
	files := []string{"agents/a0001.cue", "agents/a0005.cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue"}
	mutators, breaking := gen.Mutators(r, agents)
	token := "ghp_" + strings.Repeat("A1b2C3d4E5", 3) + "f6G7h8"
	mutators = append(mutators[:breaking:breaking],
		func(s string) string { // an ignore comment that excuses a credential-shaped literal
			return strings.Replace(s, "\tpersonality: {", "\t// charter:ignore secret-literal a documented example token\n\tdescription: \""+token+"\"\n\tpersonality: {", 1)
		},
		func(s string) string { // the excuse dropped: the literal stays
			return strings.Replace(s, "\t// charter:ignore secret-literal a documented example token\n", "", 1)
		})
	texts := map[string][]string{}
	for _, rel := range files {
		texts[rel] = []string{read(rel)}
	}

	over, added := 0, 0
	for i := range edits + 1 {
		step := "first build"
		if i > 0 {
			switch k := r.IntN(20); {
			case k == 0:
				src := read("extra.cue")
				if strings.Contains(src, "spare") {
					src = strings.Replace(src, "presets: spare: behavior: {}\n", "", 1)
				} else {
					src += "presets: spare: behavior: {}\n"
				}
				write("extra.cue", src)
				step = "extra.cue"
			case k == 1:
				added++
				rel := fmt.Sprintf("agents/new%d.cue", added)
				write(rel, regexp.MustCompile(`agents: a\d+`).ReplaceAllString(texts[files[0]][0], fmt.Sprintf("agents: n%04d", added)))
				step = "added " + rel
			case k == 2 && added > 0:
				rel := fmt.Sprintf("agents/new%d.cue", r.IntN(added)+1)
				os.Remove(filepath.Join(root, filepath.FromSlash(rel)))
				step = "removed " + rel
			default:
				rel := files[r.IntN(len(files))]
				hist := texts[rel]
				next := ""
				switch k := r.IntN(10); {
				case k < 2 && len(hist) > 1:
					next = hist[len(hist)-2]
				case k < 3 && len(hist) > 1:
					next = hist[r.IntN(len(hist)-1)]
				default:
					m := r.IntN(len(mutators))
					next = mutators[m](hist[len(hist)-1])
				}
				texts[rel] = append(hist, next)
				write(rel, next)
				step = "edit of " + rel
			}
		}
		code, stdout, log := build("--out", out)
		wantCode, wantStdout, wantErr := build("--no-cache", "--out", fresh)
		if code != wantCode || strings.ReplaceAll(stdout, fresh, out) != strings.ReplaceAll(wantStdout, fresh, out) {
			t.Fatalf("%d (%s): exit %d, %q; a fresh build: exit %d, %q, %s\ncache: %s", i, step, code, stdout, wantCode, wantStdout, wantErr, log)
		}
		if diff := cmp.Diff(folder(t, fresh), folder(t, out)); diff != "" {
			t.Fatalf("%d (%s): the bundle built over the previous one differs from a fresh build (-fresh +over):\n%s\ncache: %s", i, step, diff, log)
		}
		if strings.Contains(log, "rendered") {
			over++
		}
		if os.Getenv("DEBUG_CACHE") != "" {
			t.Logf("%d (%s): exit %d: %s", i, step, code, log)
		}
	}
	if over < edits/3 {
		t.Errorf("%d of %d edits built over the previous bundle, want most of them", over, edits)
	}
}

// folder is every file under dir, by slash-separated path, with its
// size and sha256 (to keep a difference readable).
func folder(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = fmt.Sprintf("%d bytes, sha256 %x", len(b), sha256.Sum256(b))
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// buildBoth builds the repository at root into out through the cache and
// into fresh with --no-cache, fails t unless both exit alike and leave
// the same files, and returns the exit code and what the cache said.
func buildBoth(t *testing.T, root, out, fresh string) (int, string) {
	t.Helper()
	build := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"-C", root, "build"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, stdout, log := build("--out", out)
	wantCode, wantStdout, wantErr := build("--no-cache", "--out", fresh)
	if code != wantCode || strings.ReplaceAll(stdout, fresh, out) != strings.ReplaceAll(wantStdout, fresh, out) {
		t.Fatalf("exit %d, %q; a fresh build: exit %d, %q, %s\ncache: %s", code, stdout, wantCode, wantStdout, wantErr, log)
	}
	if diff := cmp.Diff(folder(t, fresh), folder(t, out)); diff != "" {
		t.Fatalf("the bundle built over the previous one differs from a fresh build (-fresh +over):\n%s\ncache: %s", diff, log)
	}
	return code, log
}

// overRepo is a generated repository of n agents with the cache on, and
// the two folders buildBoth compares, built once.
func overRepo(t *testing.T, n int) (root, out, fresh string) {
	t.Helper()
	root = t.TempDir()
	t.Setenv("CHARTER_CACHE_DIR", t.TempDir())
	t.Setenv("CHARTER_DEBUG_INCREMENTAL", "1")
	if err := gen.Write(root, n); err != nil {
		t.Fatal(err)
	}
	out, fresh = filepath.Join(t.TempDir(), "dist"), filepath.Join(t.TempDir(), "dist")
	if code, _ := buildBoth(t, root, out, fresh); code != 0 {
		t.Fatalf("the generated repository does not build: exit %d", code)
	}
	return root, out, fresh
}

// edit replaces old by new in the file rel of root, once.
func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s holds no %q", rel, old)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildOverDelegatesNamedByExpression: a can_delegate_to that names
// an agent through an expression (an interpolation) rather than a whole
// string literal names an agent the scope of the edit does not hold;
// its delegates_to, in agent.json and delegation.json, is still the
// one a fresh build gives, not one short of that agent.
func TestBuildOverDelegatesNamedByExpression(t *testing.T) {
	root, out, fresh := overRepo(t, 120)
	edit(t, root, "agents/a0003.cue", "\tauthority: {\n", "\t_n: \"0100\"\n\tauthority: {\n")
	edit(t, root, "agents/a0003.cue", "can_delegate_to: [", `can_delegate_to: ["a\(_n)", `)
	if _, log := buildBoth(t, root, out, fresh); !strings.Contains(log, "rendered 1 of 120 agents") {
		t.Fatalf("not built over the previous bundle: %s", log)
	}
}
