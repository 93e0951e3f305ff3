package site

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// chromium finds Debian's chromium. In CI its absence fails the test:
// .ci/run installs it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/lib/chromium/chromium", "/usr/bin/chromium"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return realtool.Need(t, "chromium", "chromium")
}

// pageInfo is what the browser reads from a loaded page.
type pageInfo struct {
	Links    []string `json:"links"`
	IDs      []string `json:"ids"`
	Scripts  int      `json:"scripts"`
	Agents   int      `json:"agents"`
	Reports  int      `json:"reports"`
	Delegate int      `json:"delegate"`
	Approves int      `json:"approves"`
	Cells    int      `json:"cells"`
	Versions int      `json:"versions"`
	Bars     int      `json:"bars"`
	// EmptySVG counts <svg> elements that drew nothing.
	EmptySVG    int    `json:"emptySVG"`
	Description string `json:"description"`
	Title       string `json:"title"`
	GraphText   string `json:"graphText"`
	CSS         bool   `json:"css"`
}

const readPage = `(() => {
  const links = [];
  for (const a of document.querySelectorAll('a')) {
    const h = a.getAttribute('href') || a.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
    if (h) links.push(new URL(h, document.baseURI).href);
  }
  for (const l of document.querySelectorAll('link[href]')) links.push(l.href);
  const q = s => document.querySelectorAll(s).length;
  const d = document.querySelector('.description');
  const eve = document.querySelector('g#agent-eve');
  return {
    links,
    ids: [...document.querySelectorAll('[id]')].map(e => e.id),
    scripts: q('script'),
    agents: q('svg g.node.agent'),
    reports: q('svg g.edge.reports-to'),
    delegate: q('svg g.edge.can-delegate-to'),
    approves: q('svg g.edge.approves'),
    cells: q('svg.heatmap rect.cell'),
    versions: q('svg.timeline g.version'),
    bars: q('svg.bars'),
    emptySVG: [...document.querySelectorAll('svg')].filter(s => { const b = s.getBBox(); return !(b.width > 0 && b.height > 0); }).length,
    description: d ? d.textContent : '',
    title: document.querySelector('h1').textContent,
    graphText: eve ? [...eve.querySelectorAll('text')].map(t => t.textContent).join('\n') : '',
    css: getComputedStyle(document.querySelector('header.top')).display === 'flex',
  };
})()`

// browser is one headless chromium for the whole test; each page gets a
// tab of its own. axe is axe-core's source, run in each page.
type browser struct {
	ctx context.Context
	axe string
}

// axeViolation is one rule axe-core finds broken on a page, with the
// elements that break it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// runAxe checks the page against WCAG 2.x A and AA and axe's best
// practices.
const runAxe = `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}, resultTypes: ['violations'], preload: false}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({target: n.target}))})))`

func newBrowser(t *testing.T) *browser {
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, _ := chromedp.NewContext(actx)
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx)
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return &browser{ctx: ctx, axe: npmtools.AxeCore(t)}
}

// visit loads a page in a new tab and returns what it read, the problems
// the page had (console errors, exceptions, failed requests, what axe-core
// finds inaccessible) and, when shot is set, a full-page screenshot.
func (b *browser) visit(t *testing.T, u string, shot bool) (pageInfo, []string, []byte) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 30*time.Second)
	defer cancelTime()
	var mu sync.Mutex
	var problems []string
	urls := map[network.RequestID]string{}
	report := func(format string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			mu.Lock()
			urls[ev.RequestID] = ev.Request.URL
			mu.Unlock()
		case *network.EventLoadingFailed:
			mu.Lock()
			u := urls[ev.RequestID]
			mu.Unlock()
			report("request failed: %s: %s", u, ev.ErrorText)
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if e := ev.ExceptionDetails.Exception; e != nil {
				msg += " " + e.Description
			}
			report("exception: %s", msg)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				report("console.%s", ev.Type)
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
				report("console %s: %s %s", ev.Entry.Level, ev.Entry.Text, ev.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(u)); err != nil {
		t.Fatalf("loading %s: %v", u, err)
	}
	info, err := chromedp.Run(ctx, chromedp.Evaluate[pageInfo](readPage))
	if err != nil {
		t.Fatalf("reading %s: %v", u, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](b.axe)); err != nil {
		t.Fatalf("loading axe-core into %s: %v", u, err)
	}
	violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](runAxe, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core on %s: %v", u, err)
	}
	for _, v := range violations {
		var targets []string
		for _, n := range v.Nodes {
			targets = append(targets, fmt.Sprint(n.Target...))
		}
		report("axe-core %s (%s): %s: %s", v.ID, v.Impact, v.Help, strings.Join(targets, "; "))
	}
	var png []byte
	if shot {
		if png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
			t.Fatalf("screenshot of %s: %v", u, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return info, slices.Clone(problems), png
}

// authorityCounts counts what the authority graph must draw.
func authorityCounts(cfg *model.Config) (reports, delegate, approves int) {
	for _, a := range cfg.Agents {
		if _, ok := cfg.Agents[a.Authority.ReportsTo]; ok {
			reports++
		}
		for _, to := range a.Authority.CanDelegateTo {
			if _, ok := cfg.Agents[to]; ok {
				delegate++
			}
		}
		approves += len(a.Authority.CanApprove)
	}
	return
}

// TestBrowser opens every page of the sites of examples/dev-team (with a
// second commit, --history and --diff), examples/assistant and the
// hostile repository in headless Chromium: each loads with no console
// error and no failed request, axe-core finds no violation of WCAG 2.2 A
// and AA or of its best practices, every link inside the site resolves (to a
// page and, with a #fragment, to an element of it), the pictures are drawn
// with the nodes, edges and cells the repository declares, and repository
// text shows as text. A screenshot of each kind of page goes to the test's
// artifact directory (go test -artifacts keeps them).
func TestBrowser(t *testing.T) {
	realtool.Long(t, "drives Chromium for about 20 s")
	b := newBrowser(t)
	shots := t.ArtifactDir()
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"dev-team", Options{Dir: gitRepo(t), History: true, DiffFrom: "HEAD~1", DiffTo: "HEAD"}},
		{"assistant", Options{Dir: "../../../examples/assistant"}},
		{"hostile", Options{Dir: hostileRepo(t)}},
		{"invalid", Options{Dir: invalidRepo(t)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := build(t, tc.opts)
			out := filepath.Join(t.TempDir(), "public")
			if err := bundle.WriteDir(out, res.Files); err != nil {
				t.Fatal(err)
			}
			rev, err := (&revision.Evaluator{}).Evaluate(revision.Source{Dir: tc.opts.Dir})
			if err != nil {
				t.Fatalf("evaluating %s: %v", tc.opts.Dir, err)
			}
			infos := map[string]pageInfo{}
			shot := map[string]bool{}
			for _, p := range res.Files.Paths() {
				if !strings.HasSuffix(p, ".html") {
					continue
				}
				kind := strings.TrimSuffix(p, ".html")
				switch {
				case strings.HasPrefix(p, "agents/"):
					kind = "agent"
				case slices.Contains([]string{"categories", "agent-types", "profiles", "behaviors"}, kind):
					kind = "reference"
				}
				take := !shot[kind] && (tc.name == "dev-team" || tc.name == "invalid" || kind == "agent")
				if kind == "agent" && tc.name == "dev-team" && p != "agents/marco.html" {
					take = false // marco has two versions and a widening
				}
				if tc.name == "hostile" && p != "agents/eve.html" {
					take = false
				}
				shot[kind] = shot[kind] || take
				u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(out, p))}).String()
				info, problems, png := b.visit(t, u, take)
				for _, pr := range problems {
					t.Errorf("%s: %s", p, pr)
				}
				if info.Scripts != 0 {
					t.Errorf("%s: %d <script> elements; the site has none", p, info.Scripts)
				}
				if info.EmptySVG != 0 {
					t.Errorf("%s: %d <svg> drew nothing", p, info.EmptySVG)
				}
				if !info.CSS {
					t.Errorf("%s: the stylesheet did not apply", p)
				}
				if png != nil {
					name := tc.name + "-" + kind + ".png"
					if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				infos[p] = info
			}

			// Every link inside the site resolves, fragments included.
			root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/"}).String()
			for p, info := range infos {
				for _, l := range info.Links {
					if !strings.HasPrefix(l, "file:") {
						continue
					}
					rel, ok := strings.CutPrefix(l, root)
					if !ok {
						t.Errorf("%s: link %s leaves the site", p, l)
						continue
					}
					target, frag, _ := strings.Cut(rel, "#")
					if _, ok := res.Files[target]; !ok {
						t.Errorf("%s: link to %s: no such page", p, rel)
						continue
					}
					if frag == "" {
						continue
					}
					frag, _ = url.PathUnescape(frag)
					if !slices.Contains(infos[target].IDs, frag) {
						t.Errorf("%s: link to %s: %s has no element with id %q", p, rel, target, frag)
					}
				}
			}

			if !rev.OK() {
				if !strings.Contains(infos["index.html"].Title, "does not validate") {
					t.Errorf("index.html of an invalid repository is titled %q", infos["index.html"].Title)
				}
				return
			}
			// The pictures show what the repository declares.
			cfg := rev.Program.Config
			n := len(cfg.Agents)
			reports, delegate, approves := authorityCounts(cfg)
			a := infos["authority.html"]
			if a.Agents != n || a.Reports != reports || a.Delegate != delegate || a.Approves != approves {
				t.Errorf("authority graph: %d agents, %d reports_to, %d can_delegate_to, %d can_approve edges; want %d, %d, %d, %d",
					a.Agents, a.Reports, a.Delegate, a.Approves, n, reports, delegate, approves)
			}
			if c := infos["compatibility.html"].Cells; c != n*(n-1)/2 {
				t.Errorf("heatmap: %d cells, want %d (one per pair of %d agents)", c, n*(n-1)/2, n)
			}
			switch tc.name {
			case "dev-team":
				if v := infos["agents/marco.html"].Versions; v != 2 {
					t.Errorf("marco's timeline: %d versions, want 2", v)
				}
				if bars := infos["diff.html"].Bars; bars != 2 {
					t.Errorf("diff page: %d agents' bars, want 2 (marco, priya)", bars)
				}
			case "hostile":
				eve := infos["agents/eve.html"]
				if want := "<script>alert('xss')</script> & done"; eve.Description != want {
					t.Errorf("eve's description shows %q, want %q", eve.Description, want)
				}
				if want := cfg.Agents["eve"].Name; eve.Title != want {
					t.Errorf("eve's page title shows %q, want %q", eve.Title, want)
				}
				if want := cfg.Agents["eve"].Name + "\neve · " + cfg.Agents["eve"].Role; infos["authority.html"].GraphText != want {
					t.Errorf("eve's node shows %q, want %q", infos["authority.html"].GraphText, want)
				}
			}
		})
	}
}
