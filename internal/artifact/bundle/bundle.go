// Package bundle turns a compiled program into the bundle release jobs
// publish and agent runtimes load (docs/design.md §7):
//
//	manifest.json              versions, source commit, tree and config root, every file's sha256 and size
//	manifest.jws               with build --sign-key: a detached JWS over manifest.json's bytes
//	agents/<id>/agent.json     the resolved agent, with its content hash
//	agents/<id>/prompt.md      the compiled system prompt ({name} runtime variables kept)
//	agents/<id>/card.json      the A2A v1.0 Agent Card, RFC 8785 canonical JSON
//	profiles/<name>.json       each flattened rule profile
//	categories.json            every category, setting and option
//	delegation.json            every agent's delegates_to, for the delegation check
//	flows.json                 every flow resolved, when the repository declares one
//	team.json                  pairwise compatibility and the skill index
//
// The same input gives the same bytes: JSON keys are sorted (RFC 8785 order,
// then indented, except card.json which stays canonical), every list has a
// stable order, and nothing records the time but the source commit's.
//
// The bundle's format and what a runtime reads of it (the manifest, the
// check against it, the Runtime) are internal/artifact/bundlefile, which
// links no CUE, for the Claude Code hook.
package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/a2a"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/par"
	"github.com/charter-dev/charter/render"
)

// Options describe the build.
type Options struct {
	CharterVersion string
	CUEVersion     string
	// Source is nil when building from the working tree.
	Source *bundlefile.Source
	// SignCard, when set, signs each agent's card.json: it gets the
	// canonical card and returns it with its signatures.
	SignCard func(card []byte) ([]byte, error)
	// SignManifest, when set, signs manifest.json: it gets the file's
	// bytes and returns a detached JWS, which the bundle holds as
	// manifest.jws.
	SignManifest func(manifest []byte) ([]byte, error)
	// Versions holds, when building from Git, each agent's version number
	// as `charter log` counts it; agent.json records it as version.
	Versions map[string]int
	// Team, when set, gives team.json's content in place of team.Build
	// over the program's agents (an incremental build keeps what it is
	// made of); it runs beside the agents' files.
	Team func() *team.Team
}

// Build renders every artifact of prog.
func Build(prog *compiler.Program, opts Options) (bundlefile.Tree, error) {
	t, put := collector()

	// team.json scores every pair of agents (keeping every score only up
	// to team.FullMatrixMax agents): the biggest single task, so it runs
	// beside the agents.
	teamDone := par.Go(func() error { return putTeam(prog, opts, put) })

	errs := make([]error, len(prog.Agents))
	par.Each(len(prog.Agents), 0, func(i int) { errs[i] = buildAgent(prog, prog.Agents[i], opts, put) })
	// On every way out the team's goroutine is waited for: a panic there
	// reaches the caller, and nothing writes into t after Build returns.
	for _, err := range errs {
		if err != nil {
			teamDone()
			return nil, err
		}
	}
	if err := putShared(prog, delegation(prog), put); err != nil {
		teamDone()
		return nil, err
	}
	if err := teamDone(); err != nil {
		return nil, err
	}

	var files []bundlefile.File
	for _, p := range t.Paths() {
		files = append(files, FileOf(p, t[p]))
	}
	return t, putManifest(t, files, opts)
}

// collector returns a tree and put, which puts a file in it from any
// goroutine.
func collector() (bundlefile.Tree, func(path string, b []byte)) {
	t := bundlefile.Tree{}
	var mu sync.Mutex
	return t, func(path string, b []byte) {
		mu.Lock()
		t[path] = b
		mu.Unlock()
	}
}

// FileOf is the manifest's entry of the file p holding b.
func FileOf(p string, b []byte) bundlefile.File {
	sum := sha256.Sum256(b)
	return bundlefile.File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: len(b)}
}

// putTeam puts team.json.
func putTeam(prog *compiler.Program, opts Options, put func(string, []byte)) error {
	var tm *team.Team
	if opts.Team != nil {
		tm = opts.Team()
	} else {
		tm = team.Build(prog.Config.Agents)
	}
	// It is large: compact, its keys sorted by the declaration order of
	// team.Team's fields.
	b, err := canonjson.Marshal(tm)
	if err != nil {
		return err
	}
	put("team.json", append(b, '\n'))
	return nil
}

// putShared puts the files that read no agent's declaration but through
// dg (delegation.json): profiles, categories, delegation, flows.
func putShared(prog *compiler.Program, dg delegationDoc, put func(string, []byte)) error {
	for name, p := range prog.Profiles {
		b, err := canonjson.Pretty(p)
		if err != nil {
			return err
		}
		put("profiles/"+name+".json", b)
	}
	cats, err := canonjson.Pretty(categories(prog))
	if err != nil {
		return err
	}
	put("categories.json", cats)
	b, err := canonjson.Pretty(dg)
	if err != nil {
		return err
	}
	put(bundlefile.DelegationFile, b)
	if len(prog.Config.Flows) > 0 {
		fl, err := canonjson.Pretty(flows(prog.Config))
		if err != nil {
			return err
		}
		put("flows.json", fl)
	}
	return nil
}

// putManifest puts manifest.json, listing files (sorted by path), and
// its signature when opts sign it.
func putManifest(t bundlefile.Tree, files []bundlefile.File, opts Options) error {
	m := bundlefile.Manifest{SchemaVersion: bundlefile.SchemaVersion, CharterVersion: opts.CharterVersion, CUEVersion: opts.CUEVersion, Source: opts.Source, Files: files}
	if m.Files == nil {
		m.Files = []bundlefile.File{}
	}
	mb, err := canonjson.Pretty(m)
	if err != nil {
		return err
	}
	t["manifest.json"] = mb
	if opts.SignManifest != nil {
		sig, err := opts.SignManifest(mb)
		if err != nil {
			return fmt.Errorf("signing manifest.json: %w", err)
		}
		t[bundlefile.SignatureFile] = sig
	}
	return nil
}

// Rebuild builds what of a bundle can differ from the previous one, whose
// manifest listed prev, when of every agent's declaration only those of
// the compiled agents changed (and no other declaration, nor the set of
// agents): the files of those agents, compiled in prog (which may hold
// only part of the repository, but every declaration that is not an
// agent's), and every file that reads the agents together (delegation.json from
// delegates, every agent's delegates_to; team.json from opts.Team) or
// none. It returns those files and the new bundle's every file, as the
// manifest lists them, with manifest.json (which it holds too). With the
// bytes of the others from the previous bundle, the bundle is the one
// Build gives.
func Rebuild(prog *compiler.Program, compiled []*compiler.Agent, delegates map[string][]string, prev []bundlefile.File, opts Options) (bundlefile.Tree, []bundlefile.File, error) {
	if opts.Team == nil {
		return nil, nil, fmt.Errorf("internal error: a rebuild needs the team")
	}
	t, put := collector()
	redo := map[string]bool{}
	for _, a := range compiled {
		redo["agents/"+a.ID+"/"] = true
	}
	errs := make([]error, len(compiled))
	par.Each(len(compiled), 0, func(i int) { errs[i] = buildAgent(prog, compiled[i], opts, put) })
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	dg := delegationDoc{DelegatesTo: make(map[string][]string, len(delegates))}
	for id, to := range delegates {
		dg.DelegatesTo[id] = nonNil(to)
	}
	if err := putShared(prog, dg, put); err != nil {
		return nil, nil, err
	}
	if err := putTeam(prog, opts, put); err != nil {
		return nil, nil, err
	}
	var files []bundlefile.File
	for _, f := range prev {
		switch dir, _ := path.Split(f.Path); {
		case f.Path == "manifest.json" || f.Path == bundlefile.SignatureFile || f.Path == "categories.json" || f.Path == bundlefile.DelegationFile ||
			f.Path == "flows.json" || f.Path == "team.json" || dir == "profiles/" || redo[dir]:
			continue
		}
		files = append(files, f)
	}
	for _, p := range t.Paths() {
		files = append(files, FileOf(p, t[p]))
	}
	slices.SortFunc(files, func(a, b bundlefile.File) int { return strings.Compare(a.Path, b.Path) })
	if err := putManifest(t, files, opts); err != nil {
		return nil, nil, err
	}
	files = append(files, FileOf("manifest.json", t["manifest.json"]))
	if sig, ok := t[bundlefile.SignatureFile]; ok {
		files = append(files, FileOf(bundlefile.SignatureFile, sig))
	}
	slices.SortFunc(files, func(a, b bundlefile.File) int { return strings.Compare(a.Path, b.Path) })
	return t, files, nil
}

func buildAgent(prog *compiler.Program, a *compiler.Agent, opts Options, put func(string, []byte)) error {
	dir := "agents/" + a.ID + "/"
	prompt, err := render.Render(prog, a)
	if err != nil {
		return err
	}
	text := prompt.String()
	put(dir+"prompt.md", []byte(text))

	doc, err := AgentJSON(a, text)
	if err != nil {
		return err
	}
	canon, hash, err := canonicalHash(doc)
	if err != nil {
		return err
	}
	doc = canonjson.InsertMember(canon, "content_hash", canonjson.AppendString(nil, hash))
	if n, ok := opts.Versions[a.ID]; ok {
		// Outside the hash: the number follows from the hash's history.
		doc = canonjson.InsertMember(doc, "version", []byte(strconv.Itoa(n)))
	}
	doc, err = withSources(doc, a)
	if err != nil {
		return err
	}
	put(dir+"agent.json", canonjson.Indent(doc))

	card, err := canonjson.Canonical(Card(prog, a, hash))
	if err != nil {
		return err
	}
	if opts.SignCard != nil {
		if card, err = opts.SignCard(card); err != nil {
			return fmt.Errorf("signing the card of agent %s: %v", a.ID, err)
		}
	}
	put(dir+"card.json", card)
	return nil
}

// AgentDoc returns the content of agent.json as a JSON object, with its
// content_hash: the SHA-256 of the object's RFC 8785 form without the hash.
// prompt is the compiled prompt (prompt.md), so that the hash covers
// everything the agent is, option texts included.
func AgentDoc(a *compiler.Agent, prompt string) (map[string]any, string, error) {
	b, err := AgentJSON(a, prompt)
	if err != nil {
		return nil, "", err
	}
	return DecodeAgent(b)
}

// DecodeAgent returns the agent.json object of AgentJSON's output, with its
// content_hash.
func DecodeAgent(b []byte) (map[string]any, string, error) {
	_, hash, err := canonicalHash(b)
	if err != nil {
		return nil, "", err
	}
	g, err := decode(b)
	if err != nil {
		return nil, "", err
	}
	doc := g.(map[string]any)
	doc["content_hash"] = hash
	return doc, hash, nil
}

// AgentJSON returns agent.json without its hash, as a JSON object: the
// agent's declaration with the resolved values over it. Its members are
// in no order and may repeat a key (the last one counts; DecodeAgent reads
// it so). Equal agents give equal bytes, so comparing the bytes is a quick
// test for a change.
func AgentJSON(a *compiler.Agent, prompt string) ([]byte, error) {
	behavior := map[string]any{}
	for _, c := range a.Behavior {
		settings := map[string]any{}
		for _, s := range c.Settings {
			settings[s.Name] = s.Value
		}
		behavior[c.Name] = settings
	}
	resolved := map[string]any{"id": a.ID, "behavior": behavior, "variables": a.Variables, "prompt": prompt}
	typeParts(a, resolved)
	if a.Variables == nil {
		resolved["variables"] = map[string]any{}
	}
	var behaviors []any
	for _, b := range a.Behaviors {
		rb := map[string]any{"type": b.Type, "kind": b.Kind, "params": b.Params}
		if len(b.Events) > 0 {
			rb["events"] = b.Events
		}
		if len(b.Context) > 0 {
			rb["context"] = b.Context
		}
		behaviors = append(behaviors, rb)
	}
	if behaviors != nil {
		resolved["behaviors"] = behaviors
	}
	if len(a.Tools) > 0 {
		resolved["provided_tools"] = a.Tools
	}
	// What the agent may call, computed once by the compiler: runtimes,
	// eval and the Claude Code hook read these, never the lists above.
	resolved["effective_tools"] = a.EffectiveNames()
	// Whom it may start: always written, so that a bundle without it
	// (an older charter's) is refused rather than read as "anyone".
	resolved["delegates_to"] = nonNil(a.Delegates)
	if len(a.Excluded) > 0 {
		resolved["excluded_tools"] = a.Excluded
	}
	if a.Restricted() {
		resolved["tools_restricted"] = true
	}
	if len(a.DeniedTools) > 0 {
		resolved["denied_tools"] = a.DeniedTools
	}
	if len(a.Constraints) > 0 {
		resolved["tool_constraints"] = a.Constraints
	}
	if len(a.Strictness) > 0 {
		resolved["behavior_strictness"] = a.Strictness
	}
	if len(a.RuntimeTools) > 0 {
		resolved["runtime_tools"] = a.RuntimeTools
	}
	if a.Profile != nil {
		resolved["profile"] = a.Profile
	}
	decl, err := canonjson.Marshal(a.Decl)
	if err != nil {
		return nil, err
	}
	over, err := canonjson.Marshal(resolved)
	if err != nil {
		return nil, err
	}
	if len(decl) < 2 || decl[0] != '{' || len(over) < 2 || over[0] != '{' {
		return nil, fmt.Errorf("internal error: agent %s does not encode as a JSON object", a.ID)
	}
	// One object, the declaration's members then the resolved ones:
	// decoding keeps the last of two equal keys, so resolved values win.
	joined := make([]byte, 0, len(decl)+len(over))
	joined = append(joined, decl[:len(decl)-1]...)
	if len(decl) > 2 {
		joined = append(joined, ',')
	}
	return append(joined, over[1:]...), nil
}

// canonicalHash returns the RFC 8785 form of doc (agent.json without its
// content_hash) and the content hash: the SHA-256 of that form without
// the runtime state (see RuntimeState).
func canonicalHash(doc []byte) ([]byte, string, error) {
	canon, err := canonjson.Transform(nil, doc)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(hashed(canon))
	return canon, hex.EncodeToString(sum[:]), nil
}

// ContentHash returns the content hash of an agent whose compiled prompt
// is prompt: agent.json's content_hash.
func ContentHash(a *compiler.Agent, prompt string) (string, error) {
	doc, err := AgentJSON(a, prompt)
	if err != nil {
		return "", err
	}
	_, hash, err := canonicalHash(doc)
	return hash, err
}

// Card returns an agent's A2A Agent Card, versioned by the repository's
// a2a.version, or else by its content hash (0.0.0+ its first 12 digits).
func Card(prog *compiler.Program, a *compiler.Agent, hash string) *a2a.Card {
	version := prog.Config.A2A.Version
	if version == "" {
		version = "0.0.0+" + hash[:12]
	}
	return a2a.NewCard(a.ID, a.Decl, prog.Config.A2A, version)
}

// decode reads JSON as generic values (objects as maps, numbers as
// json.Number).
func decode(b []byte) (any, error) {
	var g any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	return g, nil
}

// categories is the content of categories.json: every category in prompt
// order with its settings in prompt order.
func categories(prog *compiler.Program) any {
	type option struct {
		Name        string `json:"name"`
		Text        string `json:"text"`
		Description string `json:"description,omitempty"`
		Deprecated  string `json:"deprecated,omitempty"`
	}
	type setting struct {
		Name        string       `json:"name"`
		Description string       `json:"description,omitempty"`
		Line        string       `json:"line"`
		Default     model.Choice `json:"default"`
		Options     []option     `json:"options,omitempty"`
		Range       *model.Range `json:"range,omitempty"`
		Values      []float64    `json:"values,omitempty"`
		Integer     bool         `json:"integer,omitempty"`
		Deprecated  string       `json:"deprecated,omitempty"`
	}
	type category struct {
		Name        string    `json:"name"`
		Title       string    `json:"title"`
		Description string    `json:"description,omitempty"`
		Settings    []setting `json:"settings"`
	}
	out := []category{}
	for _, cname := range prog.CategoryOrder {
		c := prog.Config.Categories[cname]
		rc := category{Name: cname, Title: c.Title, Description: c.Description, Settings: []setting{}}
		for _, sname := range prog.SettingOrder[cname] {
			s := c.Settings[sname]
			rs := setting{Name: sname, Description: s.Description, Line: s.Line, Default: s.Default, Range: s.Range, Values: s.Values, Integer: s.Integer, Deprecated: s.Deprecated}
			for _, oname := range model.Sorted(s.Options) {
				o := s.Options[oname]
				rs.Options = append(rs.Options, option{Name: oname, Text: o.Text, Description: o.Description, Deprecated: o.Deprecated})
			}
			rc.Settings = append(rc.Settings, rs)
		}
		out = append(out, rc)
	}
	return map[string]any{"categories": out}
}

// nonNil returns l, or an empty list for nil (JSON [] rather than null).
func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
