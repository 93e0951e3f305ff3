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
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/gen"
)

// TestBuildOverEqualsFresh: after random sequences of edits of a
// generated repository (budgets, managers, delegates, by id, by role
// and by expression, personalities, departments and skills and so
// team.json's pair sums, extremes and index, types and presets, the
// output a flow reads, ignore comments, credentials with and without an
// ignore that excuses them, in an agent's second file too, option typos
// and syntax errors that stop the build, renamed agents, agents added
// and removed, edits of a file that declares more than agents, undos),
// `charter build` over the previous bundle through the
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
	repo := gen.Files{T: t, Root: root}
	// A role, a flow and a second file for some of the agents edited: a
	// can_delegate_to may name the role, the flow reads its agents'
	// output, a0005 is declared in two files.
	for rel, src := range map[string]string{
		"roles.cue":        "package charter\n\nroles: leads: {description: \"Leads.\", members: [\"a0001\", \"a0005\"]}\n",
		"flows.cue":        "package charter\n\nflows: ship: steps: [\n\t{name: \"plan\", agent: \"a0001\", next: [{step: \"build\"}]},\n\t{name: \"build\", agent: \"a0005\"},\n]\n",
		"agents/z0005.cue": "package charter\n\nagents: a0005: {\n\tdescription: \"Declared in a second file.\"\n}\n",
	} {
		repo.Write(rel, src)
	}
	write, read := repo.Write, repo.Read
	out, fresh := filepath.Join(t.TempDir(), "dist"), filepath.Join(t.TempDir(), "dist")

	r := rand.New(rand.NewPCG(27, 30))
	id := func() string { return fmt.Sprintf("a%04d", r.IntN(agents)) }
	files := []string{"agents/a0001.cue", "agents/a0005.cue", "agents/z0005.cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue"}
	all, breaking := gen.Mutators(r, agents)
	token := "ghp_" + strings.Repeat("A1b2C3d4E5", 3) + "f6G7h8"
	sub := func(s, re string, repl func() string) string {
		return regexp.MustCompile(re).ReplaceAllStringFunc(s, func(string) string { return repl() })
	}
	mutators := append(slices.Clone(all[:breaking]),
		func(s string) string { // an ignore comment that excuses a credential-shaped literal
			return strings.Replace(s, "\tpersonality: {", "\t// charter:ignore secret-literal a documented example token\n\tdescription: \""+token+"\"\n\tpersonality: {", 1)
		},
		func(s string) string { // the excuse dropped: the literal stays
			return strings.Replace(s, "\t// charter:ignore secret-literal a documented example token\n", "", 1)
		},
		func(s string) string { // the second file's description, excused or not
			return sub(s, `\tdescription: "Declared in a second file."\n`, func() string {
				return [...]string{"\t// charter:ignore secret-literal a documented example token\n", ""}[r.IntN(2)] + "\tdescription: \"" + token + "\"\n"
			})
		},
		func(s string) string { // another department, maybe one of its own: team.json's department sums
			return sub(s, `department: "[A-Za-z]*"`, func() string {
				return fmt.Sprintf("department: %q", [...]string{"Engineering", "Support", "Solo", "Solo2"}[r.IntN(4)])
			})
		},
		func(s string) string { // a skill's proficiency: team.json's skill index
			return sub(s, `proficiency: [0-9.]+`, func() string { return fmt.Sprintf("proficiency: %.2f", float64(r.IntN(101))/100) })
		},
		func(s string) string { // a delegate named by its role
			return strings.Replace(s, "can_delegate_to: [", "can_delegate_to: [\"leads\", ", 1)
		},
		func(s string) string { // a delegate named by an expression, not a whole literal
			return strings.Replace(s, "can_delegate_to: [", fmt.Sprintf("can_delegate_to: [\"a\\(%q)\", ", fmt.Sprintf("%04d", r.IntN(agents))), 1)
		},
		func(s string) string { // an output the flow reads
			return strings.Replace(s, "\tstatus:", "\toutput: {type: \"object\", properties: plan: type: \"string\"}\n\tstatus:", 1)
		})
	// Then the ones that stop the build: a typo, a rename, another
	// file's agent, a syntax error.
	breakers := all[breaking:]
	texts := map[string][]string{}
	for _, rel := range files {
		texts[rel] = []string{read(rel)}
	}

	over, added, failed := 0, 0, false
	good := map[string]string{} // the texts of files of the last build that passed
	for i := range edits + 1 {
		step := "first build"
		if i > 0 {
			switch k := r.IntN(20); {
			case failed && k < 10: // the build is broken: mostly back to the last that built
				for rel, src := range good {
					if hist := texts[rel]; hist[len(hist)-1] != src {
						texts[rel] = append(hist, src)
						write(rel, src)
					}
				}
				step = "undo to the last bundle built"
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
				case k < 4:
					next = breakers[r.IntN(len(breakers))](hist[len(hist)-1])
				default:
					next = mutators[r.IntN(len(mutators))](hist[len(hist)-1])
				}
				texts[rel] = append(hist, next)
				write(rel, next)
				step = "edit of " + rel
			}
		}
		code, log := buildBoth(t, root, out, fresh, fmt.Sprintf("%d (%s)", i, step))
		if strings.Contains(log, "rendered") {
			over++
		}
		if failed = code != 0; !failed {
			for rel, hist := range texts {
				good[rel] = hist[len(hist)-1]
			}
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
// into fresh with --no-cache, fails t unless both exit alike, print the
// same (but for the cache's log) and leave the same files, and returns
// the exit code and what the cache said. what names the build in
// messages.
func buildBoth(t *testing.T, root, out, fresh, what string) (int, string) {
	t.Helper()
	build := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"-C", root, "build"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, stdout, stderr := build("--out", out)
	wantCode, wantStdout, wantStderr := build("--no-cache", "--out", fresh)
	var log, rest strings.Builder
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if strings.HasPrefix(l, "charter: cache: ") {
			log.WriteString(l)
		} else {
			rest.WriteString(l)
		}
	}
	same := func(x, y string) bool { return strings.ReplaceAll(x, fresh, out) == strings.ReplaceAll(y, fresh, out) }
	if code != wantCode || !same(stdout, wantStdout) || !same(rest.String(), wantStderr) {
		t.Fatalf("%s: exit %d, %q, %q; a fresh build: exit %d, %q, %q\ncache: %s", what, code, stdout, rest.String(), wantCode, wantStdout, wantStderr, log.String())
	}
	if diff := cmp.Diff(folder(t, fresh), folder(t, out)); diff != "" {
		t.Fatalf("%s: the bundle built over the previous one differs from a fresh build (-fresh +over):\n%s\ncache: %s", what, diff, log.String())
	}
	return code, log.String()
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
	if code, _ := buildBoth(t, root, out, fresh, "the first build"); code != 0 {
		t.Fatalf("the generated repository does not build: exit %d", code)
	}
	return root, out, fresh
}

// edit replaces old by new in the file rel of root, once.
func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	repo := gen.Files{T: t, Root: root}
	src := repo.Read(rel)
	if !strings.Contains(src, old) {
		t.Fatalf("%s holds no %q", rel, old)
	}
	repo.Write(rel, strings.Replace(src, old, new, 1))
}

// TestBuildOverDelegatesNamedByExpression: a can_delegate_to that names
// an agent through an expression (an interpolation) rather than a whole
// string literal names an agent the scope of the edit would not hold:
// such an edit is built in full (package incremental declines it), and
// its delegates_to, in agent.json and delegation.json, is the one a
// fresh build gives, not one short of that agent. Then the repository's
// names are not all strings: the next edit is built in full too.
func TestBuildOverDelegatesNamedByExpression(t *testing.T) {
	root, out, fresh := overRepo(t, 120)
	edit(t, root, "agents/a0003.cue", "\tauthority: {\n", "\t_n: \"0100\"\n\tauthority: {\n")
	edit(t, root, "agents/a0003.cue", "can_delegate_to: [", `can_delegate_to: ["a\(_n)", `)
	if _, log := buildBoth(t, root, out, fresh, "the edit"); !strings.Contains(log, "names an agent other than by a plain string") {
		t.Fatalf("built over the previous bundle: %s", log)
	}
	edit(t, root, "agents/a0007.cue", "budget_limit:", "budget_limit: 1 +")
	if _, log := buildBoth(t, root, out, fresh, "the next edit"); strings.Contains(log, "rendered") {
		t.Fatalf("built over the previous bundle: %s", log)
	}
}
