package site

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charter-dev/charter/internal/graphviz"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
)

// hostile is an agent whose every text tries to break out of HTML, of an
// attribute, of an SVG <title> and of a DOT label; and with right-to-left
// and CJK text in it.
const hostile = `package charter

agents: eve: {
	name:        "Eve \"<b>bold</b>\" & <i>co</i> \\N 'q'"
	role:        "<img src=x onerror=alert(1)>"
	department:  "מחלקה RTL 東京"
	description: "<script>alert('xss')</script> & done"
	type:        "personal_assistant"
	personality: {openness: 0.1, collaboration: "team", conflict_approach: "compete"}
	authority: {reports_to: "morgan", can_approve: ["</title><script>alert(3)</script>"]}
	owners: ["a&b'c\"d@example.com", "@acme/eve"]
	skills: primary: [{id: "x", name: "<svg onload=alert(1)>", description: "</title><script>alert(2)</script>"}]
}

roles: "</title><script>alert(3)</script>": description: "<script>alert(4)</script>"
`

// copyDir copies a directory tree (an example) so a test may add to it.
func copyDir(t testing.TB, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// hostileRepo is examples/assistant with the hostile agent added.
func hostileRepo(t testing.TB) string {
	t.Helper()
	dir := copyDir(t, "../../../examples/assistant")
	if err := os.WriteFile(filepath.Join(dir, "agents", "eve.cue"), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func build(t testing.TB, opts Options) *Result {
	t.Helper()
	res, err := Build(opts)
	if err != nil {
		t.Fatalf("Build(%+v): %v", opts, err)
	}
	return res
}

func TestEscaped(t *testing.T) {
	res := build(t, Options{Dir: hostileRepo(t)})
	if res.Invalid {
		t.Fatalf("the hostile repository does not validate: %v", res.Diagnostics)
	}
	// The site has no script, image or event handler of its own: any
	// <script, <img, <i>co, <b>bold or on...= attribute in a tag is a
	// repository value that got out.
	breakout := regexp.MustCompile(`(?i)<script|<img|<i>co|<b>bold|<[a-z][^<>]*\son[a-z]+=`)
	for _, p := range res.Files.Paths() {
		if loc := breakout.FindIndex(res.Files[p]); loc != nil {
			b := res.Files[p]
			t.Errorf("%s: unescaped markup at %d: %q", p, loc[0], b[max(loc[0]-80, 0):min(loc[1]+80, len(b))])
		}
	}
	eve := string(res.Files["agents/eve.html"])
	for _, want := range []string{
		`&lt;script&gt;alert(&#39;xss&#39;)&lt;/script&gt; &amp; done`,
		`&lt;img src=x onerror=alert(1)&gt;`,
		`מחלקה RTL 東京`,
		`<dt>owners</dt><dd>a&amp;b&#39;c&#34;d@example.com, @acme/eve</dd>`,
	} {
		if !strings.Contains(eve, want) {
			t.Errorf("agents/eve.html lacks %s", want)
		}
	}
	// Graphviz wrote the label: the backslash and the entity stay text.
	if graph := string(res.Files["authority.html"]); !strings.Contains(graph, `Eve &quot;&lt;b&gt;bold&lt;/b&gt;&quot; &amp; &lt;i&gt;co&lt;/i&gt; \N`) {
		t.Errorf("authority.html: Eve's label is not there as text")
	}
}

func TestDeterministic(t *testing.T) {
	for _, dir := range []string{"../../../examples/dev-team", "../../../examples/assistant"} {
		a := build(t, Options{Dir: dir})
		b := build(t, Options{Dir: dir})
		if diff := cmp.Diff(a.Files, b.Files); diff != "" {
			t.Errorf("%s: two builds differ (-first +second):\n%s", dir, diff)
		}
	}
}

// invalidRepo is examples/assistant with an agent that does not validate.
func invalidRepo(t testing.TB) string {
	t.Helper()
	dir := copyDir(t, "../../../examples/assistant")
	bad := "package charter\n\nagents: cy: {name: \"Cy <b>\", type: \"personal_assistant\", behavior: scheduling: ambiguous_time: \"sometimes\"}\n"
	if err := os.WriteFile(filepath.Join(dir, "agents", "cy.cue"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestInvalid(t *testing.T) {
	res := build(t, Options{Dir: invalidRepo(t)})
	if !res.Invalid {
		t.Fatal("Invalid is false for a repository that does not validate")
	}
	index := string(res.Files["index.html"])
	for _, want := range []string{`class="errors"`, `agents/cy.cue:3:`, `&#34;sometimes&#34; is not an option`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, p := range res.Files.Paths() {
		if p != "index.html" && p != "style.css" {
			t.Errorf("wrote %s for a repository that does not compile", p)
		}
	}
}

// agentsOf makes n agents over the given departments, round robin.
func agentsOf(n int, depts ...string) map[string]*model.Agent {
	m := map[string]*model.Agent{}
	for i := range n {
		o := float64(i%10) / 10
		m[fmt.Sprintf("a%03d", i)] = &model.Agent{Department: depts[i%len(depts)], Personality: &model.Personality{Openness: &o}}
	}
	return m
}

func TestHeatmap(t *testing.T) {
	for _, tc := range []struct {
		name        string
		agents      map[string]*model.Agent
		cells       int
		departments bool
	}{
		{"one agent", agentsOf(1, ""), 0, false},
		{"five agents: every pair", agentsOf(5, "x"), 10, false},
		{"at the limit: every pair", agentsOf(HeatmapMax, "x", "y"), HeatmapMax * (HeatmapMax - 1) / 2, false},
		{"above it: pairs of departments", agentsOf(HeatmapMax+1, "x", "y", ""), 6, true},
		{"one department", agentsOf(100, "x"), 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, lowest := compatibility(tc.agents)
			if len(h.Cells) != tc.cells || h.Departments != tc.departments {
				t.Errorf("%d cells (departments %v), want %d (%v)", len(h.Cells), h.Departments, tc.cells, tc.departments)
			}
			n := len(tc.agents)
			if want := min(n*(n-1)/2, LowestPairs); len(lowest) != want {
				t.Errorf("%d lowest pairs, want %d", len(lowest), want)
			}
			for i := 1; i < len(lowest); i++ {
				if lowest[i].Score.Score < lowest[i-1].Score.Score {
					t.Errorf("lowest pairs out of order at %d: %v", i, lowest)
				}
			}
		})
	}
}

func TestCycles(t *testing.T) {
	agents := map[string]*model.Agent{
		"ann": {Authority: model.Authority{ReportsTo: "bob", CanDelegateTo: []string{"cy"}}},
		"bob": {Authority: model.Authority{ReportsTo: "ann"}},
		"cy":  {Authority: model.Authority{ReportsTo: "ann", CanDelegateTo: []string{"cy", "dan"}}},
		"dan": {Authority: model.Authority{CanDelegateTo: []string{"ann", "nobody"}}},
	}
	var got []string
	for _, e := range authority(agents) {
		got = append(got, fmt.Sprintf("%s %s %s cycle=%v", e.From, e.Relation, e.To, e.Cycle))
	}
	want := []string{
		"ann reports_to bob cycle=true",
		"ann can_delegate_to cy cycle=true",
		"bob reports_to ann cycle=true",
		"cy reports_to ann cycle=false",
		"cy can_delegate_to cy cycle=true",
		"cy can_delegate_to dan cycle=true",
		"dan can_delegate_to ann cycle=true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
}

func TestMarkdown(t *testing.T) {
	md := "<!-- Generated by charter docs from the repository's CUE files; do not edit. -->\n\n# Profiles\n\n" +
		"A <script>alert(1)</script> description.\n\n<div onclick=x>block</div>\n\n" +
		"| rule | text |\n| --- | --- |\n| [dev](profiles.md#dev) | one<br>two |\n\n" +
		"See [ann](agents/ann.md) and [out](https://example.com/a.md).\n\nA ![pixel *dot*](https://example.com/p.png) in text.\n\n## dev\n\n## dev\n"
	title, body, err := markdown([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	if title != "Profiles" {
		t.Errorf("title %q, want Profiles", title)
	}
	for _, want := range []string{
		`A &lt;script&gt;alert(1)&lt;/script&gt; description.`,
		`&lt;div onclick=x&gt;block&lt;/div&gt;`,
		`one<br>two`,
		"<thead>\n<tr>\n<th>rule</th>\n<th>text</th>", // the table extension (internal/gmtable)
		`href="profiles.html#dev"`,
		`href="agents/ann.html"`,
		`href="https://example.com/a.md"`,
		`<h2 id="dev">dev</h2>`,
		`<h2 id="dev-1">dev</h2>`,
		`A ![pixel dot](https://example.com/p.png) in text.`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("body lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(string(body), "<h1") {
		t.Errorf("the title is in the body too")
	}
}

// FuzzMarkdown holds the reference's renderer to showing raw HTML as text,
// whatever the Markdown around it.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"# T\n\n<script>x</script>", "| a |\n| --- |\n| <img src=x onerror=y><br> |", "<div>\n<script>\n</div>", "`<b>` <b>x</b>", "[l](javascript:alert(1))", "<!-- c --><?php ?>", "![x](https://example.com/x.png)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		_, body, err := markdown([]byte(md))
		if err != nil {
			t.Fatal(err)
		}
		if loc := regexp.MustCompile(`(?i)<(script|img|div|b>|!--|\?)|href="javascript`).FindStringIndex(string(body)); loc != nil {
			t.Fatalf("raw HTML got out of %q: %s", md, body)
		}
	})
}

// FuzzDOTLabel holds Graphviz to escaping whatever text a label has: the
// SVG must never carry a tag the label did not get escaped.
func FuzzDOTLabel(f *testing.F) {
	for _, s := range []string{"plain", `a"b`, `back\slash\N\G\n`, "&amp; &lt; &#60;", "<script>x</script>", "</title><b>", "שלום 東京", "line\nbreak", `\`} {
		f.Add(s)
	}
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		f.Fatal(err)
	}
	defer gv.Close()
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return
		}
		src := "digraph { n0 [label=" + dotString(s) + ", tooltip=" + dotString(s) + "]; }"
		svg, err := layout(ctx, gv, src)
		if err != nil {
			t.Fatalf("label %q: %v", s, err)
		}
		if bytes.Contains([]byte(svg), []byte("<script")) || bytes.Contains([]byte(svg), []byte("<b>")) {
			t.Fatalf("label %q got out: %s", s, svg)
		}
	})
}

// gitRepo makes a Git repository of examples/dev-team with two commits:
// the second gives marco a standard access level and a budget (widened)
// and takes priya's delegation to ravi away (narrowed).
func gitRepo(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed")
	}
	dir := copyDir(t, "../../../examples/dev-team")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com",
			"GIT_AUTHOR_DATE=2026-01-01T12:00:00Z", "GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com",
			"GIT_COMMITTER_DATE=2026-01-01T12:00:00Z", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "the team")
	edit := func(file, old, new string) {
		t.Helper()
		p := filepath.Join(dir, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%s has no %q", file, old)
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("agents/marco.cue", `access_level: "restricted"`, `access_level: "standard"`)
	edit("agents/priya.cue", `can_delegate_to: ["sarah", "marco", "tess", "ravi"]`, `can_delegate_to: ["sarah", "marco", "tess"]`)
	git("commit", "-q", "-a", "-m", "Marco gets standard access", "-m", "Reviewed-by: Priya <priya@example.com>")
	return dir
}

func TestHistoryAndDiff(t *testing.T) {
	dir := gitRepo(t)
	res := build(t, Options{Dir: dir, History: true, DiffFrom: "HEAD~1", DiffTo: "HEAD"})
	marco := string(res.Files["agents/marco.html"])
	for _, want := range []string{`class="timeline"`, `class="version created"`, `class="version widened"`, `Reviewed-by: Priya &lt;priya@example.com&gt;`} {
		if !strings.Contains(marco, want) {
			t.Errorf("agents/marco.html lacks %s", want)
		}
	}
	d := string(res.Files["diff.html"])
	w, n := strings.Index(d, `id="agent-marco"`), strings.Index(d, `id="agent-priya"`)
	if w < 0 || n < 0 || w > n {
		t.Errorf("diff.html: marco (widened) at %d should come before priya (narrowed) at %d", w, n)
	}
	if !strings.Contains(d, `access_level`) {
		t.Errorf("diff.html does not show the access level change")
	}
	again := build(t, Options{Dir: dir, History: true, DiffFrom: "HEAD~1", DiffTo: "HEAD"})
	if diff := cmp.Diff(res.Files, again.Files); diff != "" {
		t.Errorf("two builds with history differ:\n%s", diff)
	}
}

// The timeline numbers an agent's versions as charter log does: a commit
// where another agent's file does not validate still counts for marco,
// whose scope does not hold that file.
func TestHistoryNumbersAsLog(t *testing.T) {
	dir := gitRepo(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com",
			"GIT_AUTHOR_DATE=2026-01-02T12:00:00Z", "GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com",
			"GIT_COMMITTER_DATE=2026-01-02T12:00:00Z", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(file, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	marco, err := os.ReadFile(filepath.Join(dir, "agents/marco.cue"))
	if err != nil {
		t.Fatal(err)
	}
	// One commit changes marco and adds a broken agent; the next fixes it.
	write("agents/marco.cue", strings.Replace(string(marco), `access_level: "standard"`, `access_level: "elevated"`, 1))
	write("agents/zed.cue", "package charter\n\nagents: zed: {name: \"Zed\", type: \"nope\", status: \"retired\"}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "Marco elevated; Zed half-written")
	if err := os.Remove(filepath.Join(dir, "agents/zed.cue")); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-a", "-m", "Zed removed")

	res := build(t, Options{Dir: dir, History: true})
	page := string(res.Files["agents/marco.html"])
	repo, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	h, err := history.AgentVersions(repo, "HEAD", "marco", history.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Versions) != 3 {
		t.Fatalf("log gives marco %d versions, want 3 (created, standard, elevated)", len(h.Versions))
	}
	for _, v := range h.Versions {
		// The timeline's title of each version names its commit.
		if want := fmt.Sprintf("v%d %s", v.Number, v.Entry.Commit.String()[:12]); !strings.Contains(page, want) {
			t.Errorf("agents/marco.html lacks %q: log's version %d (%s) at that commit", want, v.Number, v.Summary)
		}
	}
}

// TestTimelineDate: a version's date on the timeline is the author's, as
// Git holds it and log shows it: a commit at 23:30 in +05:30 on January 2
// is not dated January 2 because UTC says 18:00, nor is 01:00 in +09:00
// on January 3 dated January 2.
func TestTimelineDate(t *testing.T) {
	late := time.Date(2026, 1, 3, 1, 0, 0, 0, time.FixedZone("", 9*3600))
	tl := versionTimeline([]history.Version{{Number: 1, Summary: "created", Entry: &history.Entry{Author: source.Person{When: late}}}})
	if got := tl.Points[0].Title; !strings.Contains(got, " 2026-01-03 +0900: created") {
		t.Errorf("timeline title %q, want the author's date and zone, 2026-01-03 +0900", got)
	}
}
