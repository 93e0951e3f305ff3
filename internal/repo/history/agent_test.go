package history_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// agentIDs are the agents the random histories of logHistory declare, and
// one they never do.
var agentIDs = []string{"a0", "a1", "a2", "a3", "x", "y", "z", "nobody"}

// TestAgentSnapshotsOracle evaluates, at every config tree of random
// histories, the whole tree through package revision, and wants
// AgentSnapshots to agree for every agent: where the whole tree validates,
// the agent's snapshot is the same document (or the same absence); where it
// does not, the scoped evaluation may still validate (a broken file of an
// agent nobody mentions hides nothing), and when it does, its document is
// that of the whole tree with the broken files of other agents left out,
// which no oracle computes, so only the trees that validate are compared.
// The same walk without caches (every tree listed whole, nothing reused)
// must give the same snapshots.
//
// The histories have merges, files holding one agent, two agents or an
// agent beside other declarations, agents that refer to agents in other
// files (by id and by CUE reference), tests that name an agent, commits
// that do not validate, syntax errors, renamed and removed files, links,
// hidden folders, cue.mod, executable files, a file that becomes a folder,
// and a removed config root.
func TestAgentSnapshotsOracle(t *testing.T) {
	sourcetest.NeedGit(t)
	for seed := range uint64(short(2, 1)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			repo, err := source.Open(filepath.Join(logHistory(t, seed, short(40, 20)), "config"))
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			whole := wholeTrees(t, repo)
			compared := 0
			for _, id := range agentIDs {
				walk, err := history.AgentSnapshots(repo, "HEAD", id, history.AgentOptions{})
				if err != nil {
					t.Fatal(err)
				}
				bare, err := history.AgentSnapshots(repo, "HEAD", id, history.AgentOptions{NoCaches: true})
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(snapshotsOf(bare), snapshotsOf(walk)); d != "" {
					t.Errorf("agent %s: snapshots (-no caches +caches):\n%s", id, d)
				}
				if bare.Seen != walk.Seen {
					t.Errorf("agent %s: seen %v without caches, %v with", id, bare.Seen, walk.Seen)
				}
				for tree, w := range whole {
					s, ok := walk.Snapshots[tree]
					if !ok {
						t.Fatalf("agent %s: tree %s has no snapshot", id, tree)
					}
					if w.rev == nil || !w.rev.OK() {
						continue
					}
					compared++
					want, err := bundle.AgentDocIn(w.rev.Program, id)
					if err != nil {
						t.Fatal(err)
					}
					if s.Err != nil {
						t.Errorf("agent %s, tree %s: %v; the whole tree validates", id, tree, s.Err)
						continue
					}
					if d := cmp.Diff(want, s.Doc); d != "" {
						t.Errorf("agent %s, tree %s (-whole tree +scoped):\n%s", id, tree, d)
					}
				}
			}
			if compared == 0 {
				t.Fatal("no tree validated whole: the history tests nothing")
			}
		})
	}
}

// wholeTree is one config tree evaluated whole; rev is nil where the
// commit has no config root.
type wholeTree struct{ rev *revision.Revision }

// wholeTrees evaluates every distinct config tree from HEAD, whole.
func wholeTrees(t *testing.T, repo *source.Repo) map[plumbing.Hash]wholeTree {
	t.Helper()
	out := map[plumbing.Hash]wholeTree{}
	var ev revision.Evaluator
	err := history.Walk(repo, "HEAD", repo.ConfigPath(), func(e *history.Entry) error {
		if _, ok := out[e.Tree]; ok {
			return nil
		}
		if e.Tree.IsZero() || e.NotDir {
			out[e.Tree] = wholeTree{}
			return nil
		}
		rev, err := ev.EvaluateFS(repo.CommitTree(e.Commit, e.Tree, e.Committer.When), e.Commit.String())
		if err != nil {
			out[e.Tree] = wholeTree{} // unreadable: nothing to compare
			return nil
		}
		out[e.Tree] = wholeTree{rev: rev}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// snapshot is a history.Snapshot that cmp can compare.
type snapshot struct {
	Doc map[string]any
	Err string
}

func snapshotsOf(w *history.AgentWalk) map[string]snapshot {
	out := map[string]snapshot{}
	for tree, s := range w.Snapshots {
		c := snapshot{Doc: s.Doc}
		if s.Err != nil {
			c.Err = s.Err.Error()
		}
		out[tree.String()] = c
	}
	return out
}

// logHistory makes a repository of n random commits under config/ and
// returns its directory.
func logHistory(t *testing.T, seed uint64, n int) string {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
	agent := func(id string, i int) string {
		body := fmt.Sprintf("name: %q, type: %q, model: {provider: \"p\", model_id: \"m%d\", temperature: 0.%d}",
			"Agent "+id, fmt.Sprintf("t%d", rnd.IntN(2)), rnd.IntN(3), rnd.IntN(10))
		switch k := rnd.IntN(12); {
		case k == 0:
			body += `, autonomy_level: "sometimes"` // not an option
		case k == 1:
			body += fmt.Sprintf(", authority: reports_to: %q", []string{"a0", "a1", "x"}[rnd.IntN(3)])
		case k == 2:
			body += `, autonomy_level: "full"`
		}
		return fmt.Sprintf("agents: %s: {%s}\n// %d\n", id, body, i)
	}
	files := map[string]string{
		"config/cue.mod/module.cue": "module: \"example.com/x\"\nlanguage: version: \"v0.17.0\"\n",
		// x is a role too: reports_to: "x" validates whether or not the
		// agent x is declared (a name that is neither is an error).
		"config/types.cue":     "agentTypes: t0: {name: \"T0\", system_prompt: \"You are {agent.name}.\"}\nagentTypes: t1: {name: \"T1\", system_prompt: \"Hi, {agent.name}.\"}\nroles: x: {}\n",
		"config/agents/a0.cue": agent("a0", 0),
		"config/agents/a1.cue": agent("a1", 0),
		"README.md":            "x\n",
	}
	mutate := func(fs map[string]string, i int) {
		delete(fs, "config/agents/broken.cue") // fixed in the next commit
		switch k := rnd.IntN(24); {
		case k < 6:
			id := fmt.Sprintf("a%d", rnd.IntN(4))
			fs["config/agents/"+id+".cue"] = agent(id, i)
		case k < 8:
			fs["config/agents/pair.cue"] = "package charter\n\n" + agent("x", i) + agent("y", i)
		case k < 9:
			// An agent beside another declaration: always in every scope.
			fs["config/mixed.cue"] = fmt.Sprintf("presets: calm%d: behavior: communication: verbosity: \"concise\"\n", i%2) + agent("z", i)
		case k < 10:
			// An agent that takes another's model by CUE reference.
			fs["config/agents/a3.cue"] = fmt.Sprintf("agents: a3: {name: \"A3\", type: \"t0\", model: agents.a%d.model}\n", rnd.IntN(2))
		case k < 11:
			fs["config/types.cue"] = fmt.Sprintf("agentTypes: t0: {name: \"T0\", system_prompt: \"You are {agent.name} (%d).\"}\nagentTypes: t1: {name: \"T1\", system_prompt: \"Hi.\"}\nroles: x: {}\n", i%3)
		case k < 12:
			fs["config/agents/broken.cue"] = "agents: a0: {\n" // a syntax error
		case k < 13:
			fs["config/_draft.cue"] = "not cue at all {\n"
			fs["config/notes.txt"] = fmt.Sprintf("%d\n", i)
		case k < 15:
			keys := slices.Sorted(maps.Keys(fs))
			if p := keys[rnd.IntN(len(keys))]; strings.HasPrefix(p, "config/") && !strings.HasPrefix(p, "config/cue.mod") {
				delete(fs, p)
			}
		case k < 16:
			// Rename a file: agents are keyed by id, not by file.
			from := fmt.Sprintf("config/agents/a%d.cue", rnd.IntN(4))
			if c, ok := fs[from]; ok {
				delete(fs, from)
				fs[fmt.Sprintf("config/team/m%d.cue", i)] = c
			}
		case k < 17:
			for p := range fs {
				if strings.HasPrefix(p, "config/") {
					delete(fs, p)
				}
			}
		case k < 18:
			// Files load leaves out, or reads only in some commits: a
			// link, a hidden folder, cue.mod, an executable file, a
			// file that becomes a folder.
			switch rnd.IntN(6) {
			case 5:
				// A test that names an agent: every other agent's scope
				// must grow by that agent's file to validate.
				fs["config/tests.cue"] = fmt.Sprintf("tests: t1: {agent: %q, calls: [{tool: \"Read\", args: {file_path: \"/x\"}}], expect: [{call: 0, fires: []}]}\n",
					[]string{"a0", "a1", "x", "nobody"}[rnd.IntN(4)])
			case 0:
				fs["config/agents/link.cue"] = "\x00120000 a0.cue"
			case 1:
				fs["config/_drafts/a0.cue"] = agent("a0", i)
			case 2:
				fs["config/cue.mod/pkg/a0.cue"] = agent("a0", i)
			case 3:
				fs["config/agents/exec.cue"] = "\x00100755 " + agent("a1", i)
			default:
				if _, ok := fs["config/agents/x2.cue"]; ok {
					delete(fs, "config/agents/x2.cue")
					fs["config/agents/x2.cue/a2.cue"] = agent("a2", i)
				} else {
					delete(fs, "config/agents/x2.cue/a2.cue")
					fs["config/agents/x2.cue"] = agent("a2", i)
				}
			}
		default:
			fs[fmt.Sprintf("src/f%d.txt", rnd.IntN(3))] = fmt.Sprintf("%d\n", i)
		}
	}

	var stream bytes.Buffer
	data := func(s string) { fmt.Fprintf(&stream, "data %d\n%s\n", len(s), s) }
	commit := func(mark int, branch string, parents []int, fs map[string]string, msg string) {
		fmt.Fprintf(&stream, "commit refs/heads/%s\nmark :%d\n", branch, mark)
		for _, who := range []string{"author Ada Author <ada@example.com>", "committer Cy Committer <cy@example.com>"} {
			fmt.Fprintf(&stream, "%s %d +0000\n", who, sourcetest.Epoch.Unix()+int64(60*mark))
		}
		data(msg)
		for j, p := range parents {
			verb := "merge"
			if j == 0 {
				verb = "from"
			}
			fmt.Fprintf(&stream, "%s :%d\n", verb, p)
		}
		stream.WriteString("deleteall\n")
		for _, p := range slices.Sorted(maps.Keys(fs)) {
			// "\x00MODE " starts the content of a file of another mode.
			mode, content := "100644", fs[p]
			if m, rest, ok := strings.Cut(content, " "); ok && strings.HasPrefix(m, "\x00") {
				mode, content = m[1:], rest
			}
			fmt.Fprintf(&stream, "M %s inline %s\n", mode, p)
			data(content)
		}
	}
	trees := map[int]map[string]string{1: files}
	commit(1, "main", nil, files, "start")
	main, topic := 1, 0
	for mark := 2; mark <= n; mark++ {
		switch {
		case topic == 0 && rnd.IntN(8) == 0:
			fs := maps.Clone(trees[main])
			mutate(fs, mark)
			commit(mark, "topic", []int{main}, fs, fmt.Sprintf("topic %d", mark))
			trees[mark], topic = fs, mark
		case topic != 0 && rnd.IntN(3) == 0:
			fs := maps.Clone(trees[main])
			switch rnd.IntN(3) {
			case 0: // combine both sides
				maps.Copy(fs, trees[topic])
			case 1: // take the topic's tree
				fs = maps.Clone(trees[topic])
			} // else keep main's tree (-s ours)
			commit(mark, "main", []int{main, topic}, fs, fmt.Sprintf("merge %d\n\nReviewed-by: Rae <rae@example.com>", mark))
			trees[mark], main, topic = fs, mark, 0
		case topic != 0 && rnd.IntN(2) == 0:
			fs := maps.Clone(trees[topic])
			mutate(fs, mark)
			commit(mark, "topic", []int{topic}, fs, fmt.Sprintf("topic %d", mark))
			trees[mark], topic = fs, mark
		default:
			fs := maps.Clone(trees[main])
			mutate(fs, mark)
			commit(mark, "main", []int{main}, fs, fmt.Sprintf("change %d", mark))
			trees[mark], main = fs, mark
		}
	}

	r := sourcetest.New(t)
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = r.Dir
	cmd.Env = sourcetest.Env(sourcetest.Epoch)
	cmd.Stdin = &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	r.Git("checkout", "-q", "main")
	return r.Dir
}

// TestVersionNumbers wants build's numbers (VersionNumbers: one walk for
// every agent, the whole tree evaluated where many scopes change) to be
// log's (AgentSnapshots for one agent) for every agent
// of random histories with removals, re-creations and commits that do not
// validate, from every commit.
func TestVersionNumbers(t *testing.T) {
	sourcetest.NeedGit(t)
	for seed := range uint64(short(2, 1)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			repo, err := source.Open(filepath.Join(logHistory(t, seed, short(40, 20)), "config"))
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			var revs []string
			if err := history.Walk(repo, "HEAD", repo.ConfigPath(), func(e *history.Entry) error {
				if len(revs) < 3 {
					revs = append(revs, e.Commit.String())
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for _, rev := range revs {
				got, err := history.VersionNumbers(repo, rev, agentIDs)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int{}
				for _, id := range agentIDs {
					walk, err := history.AgentSnapshots(repo, rev, id, history.AgentOptions{})
					if err != nil {
						t.Fatal(err)
					}
					vs, _ := walk.Versions(id)
					if n := len(vs); n > 0 && !vs[n-1].Removed {
						want[id] = vs[n-1].Number
					}
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("from %s (-log +build):\n%s", rev[:12], d)
				}
			}
		})
	}
}

// TestAgentVersionsOracle wants AgentVersions, which makes versions as the
// walk goes and keeps nothing per commit, to give what Versions gives from
// AgentSnapshots's whole walk, for every agent of random histories with
// removals, re-creations and commits that do not validate, with caches,
// without, and with caches of one entry.
func TestAgentVersionsOracle(t *testing.T) {
	sourcetest.NeedGit(t)
	for seed := range uint64(short(2, 1)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			repo, err := source.Open(filepath.Join(logHistory(t, seed, short(60, 25)), "config"))
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			versions := 0
			for _, id := range agentIDs {
				walk, err := history.AgentSnapshots(repo, "HEAD", id, history.AgentOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want, invalid := walk.Versions(id)
				versions += len(want)
				for _, variant := range []string{"caches", "no caches", "small caches"} {
					noCaches := variant == "no caches"
					restore := func() {}
					if variant == "small caches" {
						restore = history.SmallCaches()
					}
					got, err := history.AgentVersions(repo, "HEAD", id, history.AgentOptions{Docs: true, Changes: true, NoCaches: noCaches})
					restore()
					if err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(want, got.Versions, cmpopts.IgnoreUnexported(diff.Change{})); d != "" {
						t.Errorf("agent %s, %s: versions (-Versions +AgentVersions):\n%s", id, variant, d)
					}
					// As log prints them, Changes with their paths.
					wantJSON, _ := json.Marshal(want)
					gotJSON, _ := json.Marshal(got.Versions)
					if !bytes.Equal(wantJSON, gotJSON) {
						t.Errorf("agent %s, %s: JSON\n%s\nwant\n%s", id, variant, gotJSON, wantJSON)
					}
					if got.Invalid != len(invalid) || len(invalid) > 0 && got.OldestInvalid != nil && got.OldestInvalid.Commit != invalid[0].Commit {
						t.Errorf("agent %s, %s: %d invalid, oldest %v; want %d, oldest %v", id, variant, got.Invalid, got.OldestInvalid, len(invalid), invalid)
					}
					if got.Seen != walk.Seen {
						t.Errorf("agent %s, %s: seen %v, want %v", id, variant, got.Seen, walk.Seen)
					}
				}
			}
			if versions < short(10, 5) {
				t.Fatalf("%d versions in all: the history tests little", versions)
			}
		})
	}
}

// short returns full, or under go test -short the smaller n: the oracles
// then walk a shorter history, the quick loop's size.
func short(full, n int) int {
	if testing.Short() {
		return n
	}
	return full
}

// TestVersionsFollowParents wants an agent's versions to be those that
// follow parent edges as git draws them: `git log --parents -- config`
// lists the commits and their parents rewritten to listed commits; a commit
// is a version when the agent's state (content hash, or absence) differs
// from its state at every such parent (a parent whose configuration does
// not validate standing for its own parents), numbered oldest first. The
// random histories have merges that take one side, the other, or combine
// both.
func TestVersionsFollowParents(t *testing.T) {
	sourcetest.NeedGit(t)
	merges := 0
	for seed := range uint64(short(3, 1)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := mergeHistory(t, seed, 40)
			repo, err := source.Open(filepath.Join(dir, "config"))
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			cmd := exec.Command("git", "log", "--parents", "--format=%H %P", "--", "config")
			cmd.Dir = dir
			cmd.Env = sourcetest.Env(sourcetest.Epoch)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			slices.Reverse(lines) // oldest first
			type row struct {
				Commit  string
				Hash    string
				Removed bool
			}
			for _, id := range []string{"a0", "a1", "a2"} {
				walk, err := history.AgentSnapshots(repo, "HEAD", id, history.AgentOptions{})
				if err != nil {
					t.Fatal(err)
				}
				treeOf := map[string]plumbing.Hash{}
				for _, e := range walk.Entries {
					treeOf[e.Commit.String()] = e.Tree
				}
				parents := map[string][]string{}
				type state struct {
					present bool
					hash    string
				}
				stateAt := func(c string) (state, bool) {
					s := walk.Snapshots[treeOf[c]]
					if s.Err != nil {
						return state{}, false
					}
					if s.Doc == nil {
						return state{}, true
					}
					return state{true, s.Doc["content_hash"].(string)}, true
				}
				var parentStates func(c string) []state
				parentStates = func(c string) []state {
					var out []state
					for _, p := range parents[c] {
						if st, ok := stateAt(p); ok {
							out = append(out, st)
						} else {
							out = append(out, parentStates(p)...)
						}
					}
					return out
				}
				var want []row
				for _, l := range lines {
					f := strings.Fields(l)
					c := f[0]
					if _, ok := treeOf[c]; !ok {
						t.Fatalf("git log lists %s, the walk does not", c)
					}
					parents[c] = f[1:]
					if len(f) > 2 && id == "a0" {
						merges++
					}
					st, ok := stateAt(c)
					if !ok {
						continue
					}
					ps := parentStates(c)
					if len(ps) == 0 {
						ps = []state{{}}
					}
					if !slices.Contains(ps, st) {
						want = append(want, row{c, st.hash, !st.present})
					}
				}
				h, err := history.AgentVersions(repo, "HEAD", id, history.AgentOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var got []row
				for i, v := range h.Versions {
					if v.Number != i+1 {
						t.Errorf("agent %s: version %d numbered %d", id, i+1, v.Number)
					}
					got = append(got, row{v.Entry.Commit.String(), v.ContentHash, v.Removed})
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("agent %s: versions (-git's parents +AgentVersions):\n%s", id, d)
				}
			}
		})
	}
	if merges == 0 {
		t.Fatal("the histories have no merge the walk lists: the test tests little")
	}
}

// mergeHistory makes a history of n steps on two branches whose commits
// interleave in time: main and a topic branch change agents a0 and a1 (each
// in a file of its own), a2 (on either), notes beside them, or break a
// file for a commit; the topic is merged into main taking its side, keeping
// main's (-s ours), or combining both (a conflict resolved with the
// topic's file).
func mergeHistory(t *testing.T, seed uint64, n int) string {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	r := sourcetest.New(t)
	agent := func(id string, i int) string {
		return fmt.Sprintf("package charter\n\nagents: %s: {name: \"%s\", type: \"personal_assistant\", personality: openness: 0.%d}\n", id, strings.ToUpper(id), i%10)
	}
	r.Write("config/cue.mod/module.cue", "module: \"example.com/x\"\nlanguage: version: \"v0.17.0\"\n",
		"config/agents/a0.cue", agent("a0", 1), "config/agents/a1.cue", agent("a1", 2), "config/notes.txt", "0\n")
	r.Git("add", "-A")
	r.Git("commit", "-qm", "start")
	topic := false
	broken := "" // the branch whose last commit does not validate
	for i := 1; i <= n; i++ {
		branch := "main"
		if topic && rnd.IntN(2) == 0 {
			branch = "topic"
		}
		if broken != "" {
			r.Git("checkout", "-q", broken)
			r.Git("rm", "-q", "config/agents/broken.cue")
			r.Git("commit", "-qm", fmt.Sprintf("fix %d", i))
			broken = ""
			continue
		}
		r.Git("checkout", "-q", branch)
		switch k := rnd.IntN(10); {
		case !topic && k < 3:
			r.Git("checkout", "-q", "-B", "topic")
			topic = true
			continue
		case topic && branch == "main" && k < 3:
			r.Git("checkout", "-q", "main")
			switch rnd.IntN(3) {
			case 0:
				r.Git("merge", "-q", "-s", "ours", "--no-edit", "topic", "-m", fmt.Sprintf("merge ours %d", i))
			default:
				if _, err := r.TryGit("merge", "-q", "--no-edit", "topic", "-m", fmt.Sprintf("merge %d", i)); err != nil {
					r.Git("checkout", "-q", "--theirs", ".")
					r.Git("add", "-A")
					r.Git("commit", "-qm", fmt.Sprintf("merge resolved %d", i))
				}
			}
			r.Git("branch", "-q", "-D", "topic")
			topic = false
			continue
		case k < 5:
			id := "a0"
			if branch == "main" {
				id = "a1"
			}
			r.Write("config/agents/"+id+".cue", agent(id, i))
		case k < 6:
			r.Write("config/agents/a2.cue", agent("a2", i))
		case k < 7:
			r.Write("config/agents/broken.cue", "agents: a0: {\n")
			broken = branch
		default:
			r.Write("config/notes.txt", fmt.Sprintf("%d\n", i))
		}
		r.Git("add", "-A")
		r.Git("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("%s %d", branch, i))
	}
	r.Git("checkout", "-q", "main")
	return r.Dir
}
