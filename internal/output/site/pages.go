package site

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"sync"

	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/graphviz"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/docsgen"
	"github.com/charter-dev/charter/internal/par"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/render"
	"github.com/charter-dev/charter/rules"
)

//go:embed templates.html
var templatesText string

//go:embed style.css
var styleCSS []byte

// templates are parsed on first use, not in every process's start.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("site").Funcs(template.FuncMap{
		"relation": relation,
		"anchor":   docsgen.Anchor,
		"brief":    diff.Brief,
		"severity": func(d diag.Diagnostic) string { return d.Severity.String() },
		"where":    where,
		"join":     func(s []string) string { return strings.Join(s, ", ") },
		"pct":      func(f float64) string { return fmt.Sprintf("%.2f", f) },
		"color":    scoreColor,
		"add":      func(a, b int) int { return a + b },
		"sub":      func(a, b int) int { return a - b },
	}).Parse(templatesText))
})

// site is one site under construction.
type site struct {
	rev      *revision.Revision
	prog     *compiler.Program
	diags    []diag.Diagnostic
	versions map[string][]history.Version
	diff     *review
	files    bundlefile.Tree
	// byAgent holds the diagnostics whose path is in an agent, by id;
	// general those in no agent.
	byAgent map[string][]diag.Diagnostic
	general []diag.Diagnostic
	// reports holds, by agent id, the agents that report to it.
	reports map[string][]string
}

// page is what the layout template is given.
type page struct {
	Title string
	// Root is the path from the page to the site's root ("" or "../").
	Root string
	// Nav says which pages exist.
	Nav  nav
	Rev  string
	Kind string
	Body template.HTML
}

type nav struct {
	Pictures, Reference, Diff bool
}

func (s *site) nav() nav {
	return nav{Pictures: s.prog != nil, Reference: s.prog != nil, Diff: s.diff != nil}
}

// put renders a page into the site: body is the template name, data its
// data.
func (s *site) put(path, title, kind, body string, data any) error {
	b, err := s.page(path, title, kind, body, data)
	if err == nil {
		s.files[path] = b
	}
	return err
}

// page renders a page, every credential in it redacted. It only reads the
// site, so pages may be rendered in parallel.
func (s *site) page(path, title, kind, body string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates().ExecuteTemplate(&b, body, data); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	root := strings.Repeat("../", strings.Count(path, "/"))
	var out bytes.Buffer
	out.WriteString(Marker + "\n")
	if err := templates().ExecuteTemplate(&out, "layout", page{Title: title, Root: root, Nav: s.nav(), Rev: s.revName(), Kind: kind, Body: template.HTML(b.String())}); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return showInvisible(redactPage(out.Bytes())), nil
}

// showInvisible writes the characters of a page that a reader would not
// see (tag characters, zero-width and bidirectional controls: the ones
// every text output escapes) as their escapes, \U000e0049: no browser
// draws them, and a model reads them. None has a meaning in HTML, so the
// page's markup is unchanged.
func showInvisible(page []byte) []byte {
	s := string(page)
	if e := diag.Escape(s, "\r\n"); e != s {
		return []byte(e)
	}
	return page
}

// revName says what revision the site shows.
func (s *site) revName() string {
	if c := s.rev.Commit; c != nil {
		return fmt.Sprintf("%s (commit %.12s)", s.rev.Name, c.Hash)
	}
	return "the working tree"
}

// where is a diagnostic's place: file:line:col.
func where(d diag.Diagnostic) string {
	if d.File == "" {
		return ""
	}
	if d.Line == 0 {
		return d.File
	}
	return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
}

// agentOf returns the agent a diagnostic's path is in, if any.
func agentOf(path string) string {
	rest, ok := strings.CutPrefix(path, "agents.")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ".")
	return id
}

func (s *site) generate() error {
	s.byAgent = map[string][]diag.Diagnostic{}
	for _, d := range s.diags {
		if id := agentOf(d.Path); id != "" {
			s.byAgent[id] = append(s.byAgent[id], d)
		} else {
			s.general = append(s.general, d)
		}
	}
	s.files["style.css"] = styleCSS
	if err := s.index(); err != nil {
		return err
	}
	if s.diff != nil {
		if err := s.diffPage(); err != nil {
			return err
		}
	}
	if s.prog == nil {
		return nil
	}
	s.reports = map[string][]string{}
	for _, a := range s.prog.Agents {
		if to := a.Decl.Authority.ReportsTo; to != "" {
			s.reports[to] = append(s.reports[to], a.ID)
		}
	}
	if err := s.authorityPage(); err != nil {
		return err
	}
	if err := s.compatibilityPage(); err != nil {
		return err
	}
	// Agent pages are independent: render them on every core.
	agents := s.prog.Agents
	pages := make([][]byte, len(agents))
	errs := make([]error, len(agents))
	par.Each(len(agents), 0, func(i int) { pages[i], errs[i] = s.agentPage(agents[i]) })
	for i, a := range agents {
		if errs[i] != nil {
			return errs[i]
		}
		s.files["agents/"+a.ID+".html"] = pages[i]
	}
	return s.reference()
}

// agentRow is one line of the index.
type agentRow struct {
	ID, Name, Role, Department, Type, Profile, Access, Autonomy string
	Findings, Errors                                            int
	// Page is false when the agent has no page (the revision did not
	// compile).
	Page bool
}

type indexData struct {
	Invalid  bool
	Errors   int
	Counts   []count
	Agents   []agentRow
	General  []diag.Diagnostic
	Unplaced map[string][]diag.Diagnostic
	Diff     bool
	History  bool
}

type count struct {
	N    int
	What string
}

func (s *site) index() error {
	cfg := s.rev.Validation.Config
	d := indexData{Invalid: s.prog == nil, General: s.general, Diff: s.diff != nil, History: s.versions != nil}
	for _, x := range s.diags {
		if x.Severity == diag.Error {
			d.Errors++
		}
	}
	d.Counts = []count{{len(cfg.Agents), "agents"}, {len(cfg.AgentTypes), "agent types"}, {len(cfg.Categories), "categories"},
		{len(cfg.Presets), "presets"}, {len(cfg.BehaviorTypes), "behavior types"}, {len(cfg.Profiles), "profiles"}}
	for _, id := range model.Sorted(cfg.Agents) {
		a := cfg.Agents[id]
		r := agentRow{ID: id, Name: a.Name, Role: a.Role, Department: a.Department, Type: a.Type, Profile: a.Profile,
			Access: a.Tools.AccessLevel, Autonomy: a.AutonomyLevel, Findings: len(s.byAgent[id]), Page: s.prog != nil}
		for _, x := range s.byAgent[id] {
			if x.Severity == diag.Error {
				r.Errors++
			}
		}
		d.Agents = append(d.Agents, r)
	}
	if s.prog == nil {
		// Without agent pages, an agent's errors show on the index.
		d.Unplaced = s.byAgent
	}
	title := "Agents"
	if s.prog == nil {
		title = "Agents: the configuration does not validate"
	}
	return s.put("index.html", title, "index", "index", d)
}

func (s *site) authorityPage() error {
	cfg := s.prog.Config
	es := authority(cfg.Agents)
	type group struct {
		Name string
		SVG  template.HTML
	}
	data := struct {
		Groups     []group
		Edges      []edge
		Flagged    []edge
		PerDept    bool
		GraphMax   int
		AgentCount int
	}{Edges: es, GraphMax: GraphMax, AgentCount: len(cfg.Agents)}
	for _, e := range es {
		if e.Cycle || e.Low() {
			data.Flagged = append(data.Flagged, e)
		}
	}
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		return fmt.Errorf("starting Graphviz: %w", err)
	}
	defer gv.Close()
	ids := model.Sorted(cfg.Agents)
	groups := map[string][]string{"": ids}
	names := []string{""}
	if len(ids) > GraphMax {
		data.PerDept = true
		groups = map[string][]string{}
		names = nil
		for _, id := range ids {
			d := deptName(cfg.Agents[id].Department)
			if groups[d] == nil {
				names = append(names, d)
			}
			groups[d] = append(groups[d], id)
		}
		slices.Sort(names)
	}
	for _, name := range names {
		g := group{Name: name}
		if len(groups[name]) <= GraphMax {
			g.SVG, err = layout(ctx, gv, dot(s.prog, groups[name], es, ""))
			if err != nil {
				return err
			}
		}
		data.Groups = append(data.Groups, g)
	}
	return s.put("authority.html", "Authority", "authority", "authority", data)
}

func (s *site) compatibilityPage() error {
	h, lowest := compatibility(s.prog.Config.Agents)
	n := len(s.prog.Config.Agents)
	data := struct {
		Map     *heatmap
		Lowest  []pair
		Agents  int
		Pairs   int
		Max     int
		Flagged []edge
	}{Map: h, Lowest: lowest, Agents: n, Pairs: n * (n - 1) / 2, Max: HeatmapMax}
	for _, e := range authority(s.prog.Config.Agents) {
		if e.Low() {
			data.Flagged = append(data.Flagged, e)
		}
	}
	return s.put("compatibility.html", "Compatibility", "compatibility", "compatibility", data)
}

// settingRow is one resolved behavior setting of an agent.
type settingRow struct {
	Category, Setting, Value string
	// Sentence is the prompt line the value gives ("" when the option
	// leaves the line out).
	Sentence  string
	Help      string
	Option    string
	DecidedBy string
	Steps     []compiler.Step
}

type toolRow struct {
	compiler.ProvidedTool
	Denied bool
}

type agentData struct {
	A        *compiler.Agent
	D        *model.Agent
	Findings []diag.Diagnostic
	Settings []settingRow
	Prompt   []render.Line
	Tools    []toolRow
	Rules    []rules.Rule
	Reports  []string
	Budget   string
	// Owners own the agent (its own, its type's or the repository's);
	// Approvers may approve a change that widens it (charter review).
	Owners, Approvers []string
	Card              string
	Timeline          *timeline
	Versions          []history.Version
	History           bool
}

func (s *site) agentPage(a *compiler.Agent) ([]byte, error) {
	p := s.prog
	d := agentData{A: a, D: a.Decl, Findings: s.byAgent[a.ID], History: s.versions != nil}
	for _, c := range a.Behavior {
		cat := p.Config.Categories[c.Name]
		for _, rs := range c.Settings {
			set := cat.Settings[rs.Name]
			row := settingRow{Category: c.Name, Setting: rs.Name, Value: rs.Value.String(), Help: set.Description,
				DecidedBy: p.Describe(rs.Origin), Steps: p.Steps(a, c.Name, rs.Name)}
			if rs.Text != "" {
				row.Sentence = strings.TrimPrefix(strings.ReplaceAll(rs.Line, "{text}", rs.Text), "- ")
			}
			if o, ok := set.Options[row.Value]; ok {
				row.Option = o.Description
			}
			d.Settings = append(d.Settings, row)
		}
	}
	prompt, err := render.RenderSources(p, a)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.ID, err)
	}
	d.Prompt = redactLines(prompt.Lines)
	for _, t := range a.Tools {
		d.Tools = append(d.Tools, toolRow{ProvidedTool: t, Denied: slices.Contains(a.Decl.Tools.Denied, t.Name)})
	}
	if a.Profile != nil {
		d.Rules = a.Profile.Rules
	}
	d.Reports = s.reports[a.ID]
	d.Owners, d.Approvers = p.Config.AgentOwners(a.ID), p.Config.Approvers(a.ID)
	if b := a.Decl.Authority.BudgetLimit; b != nil {
		d.Budget = model.NumberChoice(*b).String()
	}
	hash, err := bundle.ContentHash(a, prompt.String())
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.ID, err)
	}
	card, err := canonjson.Pretty(bundle.Card(p, a, hash))
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.ID, err)
	}
	d.Card = string(card)
	if vs := s.versions[a.ID]; len(vs) > 0 {
		d.Timeline = versionTimeline(vs)
		d.Versions = slices.Clone(vs)
		slices.Reverse(d.Versions)
	}
	title := a.Decl.Name
	if title == "" {
		title = a.ID
	}
	return s.page("agents/"+a.ID+".html", title, "agent", "agent", d)
}

// reference writes the pages charter docs writes, as HTML.
func (s *site) reference() error {
	md := docsgen.Generate(s.prog)
	for _, name := range []string{"categories", "agent-types", "profiles", "behaviors"} {
		title, body, err := markdown(md[name+".md"])
		if err != nil {
			return err
		}
		if err := s.put(name+".html", title, "reference", "reference", body); err != nil {
			return err
		}
	}
	return nil
}

// agentChanges is one agent's part of the diff page.
type agentChanges struct {
	Agent                      string
	Page                       bool
	Bars                       *bars
	Widened, Narrowed, Neutral []diff.Change
}

func (s *site) diffPage() error {
	r := s.diff
	data := struct {
		From, To string
		Errors   map[string][]diag.Diagnostic
		Agents   []agentChanges
		Other    []diff.Change
		Total    [3]int
	}{From: r.From, To: r.To, Errors: r.Errors}
	byAgent := map[string]*agentChanges{}
	var order []string
	for _, c := range r.Changes {
		if c.Agent == "" {
			data.Other = append(data.Other, c)
			continue
		}
		g, ok := byAgent[c.Agent]
		if !ok {
			g = &agentChanges{Agent: c.Agent}
			if s.prog != nil {
				_, g.Page = s.prog.Config.Agents[c.Agent]
			}
			byAgent[c.Agent] = g
			order = append(order, c.Agent)
		}
		switch c.Effect {
		case diff.Widened:
			g.Widened = append(g.Widened, c)
			data.Total[0]++
		case diff.Narrowed:
			g.Narrowed = append(g.Narrowed, c)
			data.Total[1]++
		default:
			g.Neutral = append(g.Neutral, c)
			data.Total[2]++
		}
	}
	// Agents with widened changes first, then narrowed, then by id.
	slices.SortStableFunc(order, func(x, y string) int {
		rank := func(g *agentChanges) int {
			switch {
			case len(g.Widened) > 0:
				return 0
			case len(g.Narrowed) > 0:
				return 1
			}
			return 2
		}
		if rx, ry := rank(byAgent[x]), rank(byAgent[y]); rx != ry {
			return rx - ry
		}
		return strings.Compare(x, y)
	})
	most := 0
	for _, id := range order {
		g := byAgent[id]
		most = max(most, len(g.Widened), len(g.Narrowed), len(g.Neutral))
	}
	for _, id := range order {
		g := byAgent[id]
		g.Bars = effectBars(len(g.Widened), len(g.Narrowed), len(g.Neutral), most)
		data.Agents = append(data.Agents, *g)
	}
	return s.put("diff.html", "Changes from "+r.From+" to "+r.To, "diff", "diff", data)
}
