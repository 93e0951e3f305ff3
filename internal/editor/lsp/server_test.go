package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/internal/editor/cuefmt"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// client is a protocol client over an in-process pipe.
type client struct {
	t     *testing.T
	conn  *jsonrpc2.Conn
	srv   *Server
	root  string
	done  chan error
	mu    sync.Mutex
	diags map[string][]wireDiag
	all   []published
	shown []string
}

// copyDir copies a repository into a temporary folder.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// start starts a server on root, with the fast path off (the tests of
// evaluation expect full ones) unless opts turns it on.
func start(t *testing.T, root string, opts ...func(*Options)) *client {
	t.Helper()
	a, b := net.Pipe()
	c := &client{t: t, root: root, done: make(chan error, 1), diags: map[string][]wireDiag{}}
	o := Options{Root: root, Debounce: 20 * time.Millisecond, StdlibDir: t.TempDir(), FastAfter: time.Hour}
	for _, f := range opts {
		f(&o)
	}
	c.srv = New(o)
	c.srv.evalled = make(chan struct{}, 100)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.done <- c.srv.Serve(ctx, a) }()
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() { c.conn.Close(); cancel() })
	root2 := root
	var res protocol.InitializeResult
	uri := pathURI(root2)
	c.call("initialize", protocol.InitializeParams{RootURI: &uri}, &res)
	c.notify("initialized", struct{}{})
	return c
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p published
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			c.t.Error(err)
		}
		c.diags[p.URI] = p.Diagnostics
		c.all = append(c.all, p)
	case "window/showMessage":
		var p protocol.ShowMessageParams
		_ = json.Unmarshal(*req.Params, &p)
		c.shown = append(c.shown, p.Message)
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// wait waits for the next published evaluation.
func (c *client) wait() {
	c.t.Helper()
	select {
	case <-c.srv.evalled:
		// The notifications were sent before evalled; a round trip makes
		// sure the client has read them.
		var h *protocol.Hover
		c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///nowhere.cue"}}}, &h)
	case <-time.After(60 * time.Second):
		c.t.Fatal("no evaluation within 60s")
	}
}

func (c *client) uri(rel string) string {
	return pathURI(filepath.Join(c.root, filepath.FromSlash(rel)))
}

func (c *client) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

func (c *client) open(rel, src string) {
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: c.uri(rel), LanguageID: "cue", Version: 1, Text: src}})
}

var version int32 = 1

func (c *client) change(rel, src string) {
	version++
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(rel), "version": version},
		"contentChanges": []map[string]any{{"text": src}},
	})
}

// wireDiag and published are what the client reads (glsp's
// IntegerOrString cannot decode a code).
type wireDiag struct {
	Range   protocol.Range `json:"range"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
}

type published struct {
	URI         string     `json:"uri"`
	Diagnostics []wireDiag `json:"diagnostics"`
}

func (c *client) diagnostics(rel string) []wireDiag {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags[c.uri(rel)]
}

// pos returns the position of the first occurrence of marker in src, plus
// delta characters.
func pos(t *testing.T, src, marker string, delta int) protocol.Position {
	t.Helper()
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("no %q in the file", marker)
	}
	return newText(src).position(i + delta)
}

func messages(ds []wireDiag) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+": "+d.Message)
	}
	return strings.Join(out, "\n")
}

const marco = "agents/marco.cue"

func TestDiagnostics(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait()
	if ds := c.diagnostics(marco); len(ds) != 0 {
		t.Fatalf("clean file has diagnostics:\n%s", messages(ds))
	}
	bad := strings.Replace(src, `verbosity: "concise"`, `verbosity: "consise"`, 1)
	c.change(marco, bad)
	c.wait()
	ds := c.diagnostics(marco)
	want := `unknown-option: agents.marco.behavior.communication.verbosity: "consise" is not an option; valid options: concise, detailed, minimal (did you mean "concise"?)`
	if messages(ds) != want {
		t.Fatalf("got\n%s\nwant\n%s", messages(ds), want)
	}
	if got, want := ds[0].Range, newText(bad).rangeOf(strings.Index(bad, `"consise"`), strings.Index(bad, `"consise"`)+len(`"consise"`)); got != want {
		t.Errorf("range %v, want %v (the value)", got, want)
	}
	c.change(marco, src)
	c.wait()
	if ds := c.diagnostics(marco); len(ds) != 0 {
		t.Errorf("fixed file still has diagnostics:\n%s", messages(ds))
	}
}

// TestOtherFiles: an edit in one file publishes what it causes in
// another (a renamed agent that others report to).
func TestOtherFiles(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	const sarah = "agents/sarah.cue"
	src := c.read(sarah)
	c.open(sarah, strings.Replace(src, "agents: sarah:", "agents: sara:", 1))
	c.wait()
	// The dev flow's step names sarah (flows.cue).
	const flows = "flows.cue"
	got := messages(c.diagnostics(flows))
	if !strings.Contains(got, `unknown agent "sarah"`) {
		t.Errorf("flows.cue: got\n%s\nwant a finding about sarah", got)
	}
	c.change(sarah, src)
	c.wait()
	if ds := c.diagnostics(flows); len(ds) != 0 {
		t.Errorf("flows.cue still has diagnostics after the fix:\n%s", messages(ds))
	}
}

func hoverText(t *testing.T, c *client, rel, src, marker string, delta int) string {
	t.Helper()
	var h *protocol.Hover
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Position: pos(t, src, marker, delta)}}, &h)
	if h == nil {
		return ""
	}
	b, _ := json.Marshal(h.Contents)
	var m protocol.MarkupContent
	_ = json.Unmarshal(b, &m)
	return m.Value
}

func TestHover(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait()
	tests := []struct {
		marker string
		delta  int
		want   []string
	}{
		{`"concise"`, 2, []string{"**concise** — option of communication.verbosity", "Prompt: ", "Default: ", "- `detailed`: "}},
		{`verbosity: "concise"`, 2, []string{"**verbosity** — setting of category communication", "Options:"}},
		{`communication: {`, 2, []string{"behavior category", "Settings:"}},
		{`type:        "coder"`, 16, []string{"**coder** — agent type", "Declared in types.cue:"}},
		{`reports_to:   "sarah"`, 17, []string{"**sarah** — agent Sarah Chen", "Declared in agents/sarah.cue:5"}},
		{`{type: "SubAgentContextBehavior"}`, 9, []string{"**SubAgentContextBehavior** — behavior type", "Built in: charter's stdlib/behavior_types.cue:"}},
		{`max_repeats: 2`, 2, []string{"**max_repeats** — parameter of LoopDetectionBehavior"}},
		{`"read_file"`, 2, []string{"**read_file** — tool of behavior type FileToolsBehavior"}},
		{`profile: "team"`, 11, []string{"**team** — rule profile", "Extends: coding"}},
	}
	for _, tt := range tests {
		got := hoverText(t, c, marco, src, tt.marker, tt.delta)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("hover at %s+%d: got\n%s\nwant it to contain %q", tt.marker, tt.delta, got, w)
			}
		}
	}
	// Past the end of the file, and in a file nobody opened: nothing.
	var h *protocol.Hover
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}, Position: protocol.Position{Line: 9999, Character: 9999}}}, &h)
	if h != nil {
		t.Errorf("hover past the end: got %v, want nothing", h)
	}
}

func completionLabels(t *testing.T, c *client, rel, src, marker string, delta int) map[string]string {
	t.Helper()
	var list protocol.CompletionList
	c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Position: pos(t, src, marker, delta)}}, &list)
	out := map[string]string{}
	for _, it := range list.Items {
		d := ""
		if it.Detail != nil {
			d = *it.Detail
		}
		out[it.Label] = d
	}
	return out
}

func TestCompletion(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	// A value being typed: the buffer does not parse until the quote is
	// closed.
	typing := strings.Replace(src, `verbosity: "concise"`, `verbosity: "con`, 1)
	c.open(marco, typing)
	c.wait()
	tests := []struct {
		src, marker string
		delta       int
		want        []string
	}{
		{typing, `verbosity: "con`, len(`verbosity: "con`), []string{"concise", "detailed", "minimal"}},
		{src, `reports_to:   "sarah"`, 16, []string{"sarah", "priya", "tess"}},
		{src, `type:        "coder"`, 15, []string{"coder", "planner", "personal_assistant"}},
		{src, `{type: "SubAgentContextBehavior"}`, 8, []string{"FileToolsBehavior", "CommandToolsBehavior"}},
		{src, `"read_file"`, 1, []string{"read_file", "run_bash"}},
		{src, `profile: "team"`, 10, []string{"team", "coding"}},
		{src, `progress_updates:`, 0, []string{"verbosity", "progress_updates"}},
		{src, `department:  "Engineering"`, 0, []string{"name", "reports_to_missing_is_not_a_field"}[:1]},
	}
	for i, tt := range tests {
		if i == 1 {
			c.change(marco, src)
			c.wait()
		}
		got := completionLabels(t, c, marco, tt.src, tt.marker, tt.delta)
		for _, w := range tt.want {
			if _, ok := got[w]; !ok {
				t.Errorf("completion at %s+%d: no %q in %v", tt.marker, tt.delta, w, got)
			}
		}
		if _, ok := got["marco"]; ok && strings.HasPrefix(tt.marker, "reports_to") {
			t.Errorf("reports_to offers the agent itself")
		}
	}
	c.change(marco, typing)
	c.wait()
	if got := completionLabels(t, c, marco, typing, `verbosity: "con`, len(`verbosity: "con`)); got["concise"] != "Be concise: give the answer and the essential context only" {
		t.Errorf("detail of concise: %q, want its prompt sentence", got["concise"])
	}
}

func TestDefinition(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait()
	def := func(marker string, delta int) *protocol.Location {
		var l *protocol.Location
		c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}, Position: pos(t, src, marker, delta)}}, &l)
		return l
	}
	l := def(`reports_to:   "sarah"`, 17)
	if l == nil || l.URI != c.uri("agents/sarah.cue") || l.Range.Start.Line != 4 {
		t.Errorf("definition of sarah: got %+v, want agents/sarah.cue line 5", l)
	}
	l = def(`"concise"`, 2)
	if l == nil || !strings.HasSuffix(l.URI, "/stdlib/categories.cue") {
		t.Fatalf("definition of an option: got %+v, want the standard library's categories.cue", l)
	}
	p, _ := uriPath(l.URI)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if line := newText(string(b)).line(int(l.Range.Start.Line)); !strings.Contains(line, "concise") {
		t.Errorf("definition of concise lands on %q", line)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o222 != 0 {
		t.Errorf("the standard library's copy is writable: %v", fi.Mode())
	}
}

func actions(t *testing.T, c *client, rel string, line int) []protocol.CodeAction {
	t.Helper()
	var out []protocol.CodeAction
	rng := protocol.Range{Start: protocol.Position{Line: protocol.UInteger(line)}, End: protocol.Position{Line: protocol.UInteger(line), Character: 1}}
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Range: rng,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}}}, &out)
	return out
}

// apply applies one file's edits of a workspace edit to src.
func apply(src string, edits []protocol.TextEdit) string {
	t := newText(src)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		src = src[:t.offset(e.Range.Start)] + e.NewText + src[t.offset(e.Range.End):]
	}
	return src
}

func TestCodeActions(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	bad := strings.Replace(src, `verbosity: "concise"`, `verbosity: "consise"`, 1)
	c.open(marco, bad)
	c.wait()
	line := int(pos(t, bad, `"consise"`, 0).Line)
	as := actions(t, c, marco, line)
	if len(as) != 1 || as[0].Edit == nil {
		t.Fatalf("got %d actions, want the replacement: %+v", len(as), as)
	}
	fixed := apply(bad, as[0].Edit.Changes[c.uri(marco)])
	if fixed != src {
		t.Errorf("replacement gave\n%s", fixed)
	}

	// A lint finding: ignore it in place.
	warn := strings.Replace(src, "budget_limit: 1.00", "budget_limit: 900", 1)
	c.change(marco, warn)
	c.wait()
	var rule string
	for _, d := range c.diagnostics(marco) {
		if d.Code == "budget-exceeds-manager" {
			rule = "budget-exceeds-manager"
			line = int(d.Range.Start.Line)
		}
	}
	if rule == "" {
		t.Fatalf("no budget-exceeds-manager finding:\n%s", messages(c.diagnostics(marco)))
	}
	as = actions(t, c, marco, line)
	var ignore *protocol.CodeAction
	for i := range as {
		if strings.HasPrefix(as[i].Title, "Ignore budget-exceeds-manager") {
			ignore = &as[i]
		}
	}
	if ignore == nil {
		t.Fatalf("no ignore action: %+v", as)
	}
	silenced := apply(warn, ignore.Edit.Changes[c.uri(marco)])
	c.change(marco, silenced)
	c.wait()
	if ds := c.diagnostics(marco); len(ds) != 0 {
		t.Errorf("the ignore comment silenced nothing:\n%s\n%s", messages(ds), silenced)
	}
}

func TestFormatting(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	src := c.read(marco)
	ugly := strings.Replace(src, "\tname:        \"Marco Bianchi\"", "\tname: \"Marco Bianchi\"", 1)
	c.open(marco, ugly)
	var edits []protocol.TextEdit
	c.call("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}}, &edits)
	want, _ := cuefmt.Source(marco, []byte(src))
	if got := apply(ugly, edits); got != string(want) {
		t.Errorf("formatted:\n%s", got)
	}
	c.change(marco, "package charter\nagents: {")
	c.call("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}}, &edits)
	if len(edits) != 0 {
		t.Errorf("a file that does not parse was formatted: %v", edits)
	}
}

// TestSyntaxError: a buffer that does not parse gives a diagnostic and
// the rest is still served from the last evaluation that validated.
func TestSyntaxError(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait()
	broken := strings.Replace(src, `name:        "Marco Bianchi"`, `name: "Marco Bianchi`, 1)
	c.change(marco, broken)
	c.wait()
	if got := messages(c.diagnostics(marco)); !strings.Contains(got, "syntax") && !strings.Contains(got, "string literal not terminated") {
		t.Errorf("got\n%s\nwant a syntax error", got)
	}
	if got := hoverText(t, c, marco, broken, `"concise"`, 2); !strings.Contains(got, "option of communication.verbosity") {
		t.Errorf("hover while the file does not parse: %q", got)
	}
}

// TestQuickEdits: an edit abandons the evaluation of the one before, and
// only the last edit's diagnostics are published.
func TestQuickEdits(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait()
	c.mu.Lock()
	c.all = nil
	c.mu.Unlock()
	// The first edit's evaluation is held as it starts until the second
	// edit has come in.
	running, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c.srv.mu.Lock()
	c.srv.started = func() {
		once.Do(func() {
			close(running)
			<-release
		})
	}
	c.srv.mu.Unlock()
	c.change(marco, strings.Replace(src, `verbosity: "concise"`, `verbosity: "first"`, 1))
	<-running
	c.change(marco, strings.Replace(src, `verbosity: "concise"`, `verbosity: "second"`, 1))
	var h *protocol.Hover // the server has read the second edit
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}}}, &h)
	close(release)
	c.wait()
	if n := c.srv.abandoned.Load(); n != 1 {
		t.Errorf("%d evaluations abandoned, want the first edit's", n)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.all {
		for _, d := range p.Diagnostics {
			if strings.Contains(d.Message, `"first"`) {
				t.Errorf("stale diagnostic published: %s", d.Message)
			}
		}
	}
	if !strings.Contains(messages(c.diags[c.uri(marco)]), `"second"`) {
		t.Errorf("got\n%s\nwant the second edit's", messages(c.diags[c.uri(marco)]))
	}
}

func TestOutsideRoot(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	out := filepath.Join(t.TempDir(), "x.cue")
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: pathURI(out), Version: 1, Text: "package charter\nagents: x: type: \"nope\"\n"}})
	var h *protocol.Hover
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(out)}, Position: protocol.Position{Line: 1, Character: 20}}}, &h)
	if h != nil {
		t.Errorf("hover outside the root: %v", h)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.diags[pathURI(out)]; ok {
		t.Errorf("diagnostics published for a file outside the root")
	}
}

func TestNotCharter(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k8s.cue"), []byte("package k8s\ndeployment: replicas: 2\n"), 0o644)
	c := start(t, dir)
	c.wait()
	c.open("k8s.cue", "package k8s\ndeployment: replicas: 3\n")
	c.wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.shown) != 1 || !strings.Contains(c.shown[0], "is not a charter repository") {
		t.Errorf("messages shown: %q, want one saying it is not a charter repository", c.shown)
	}
	for uri, ds := range c.diags {
		if len(ds) > 0 {
			t.Errorf("diagnostics for %s in a repository that is not charter's: %s", uri, messages(ds))
		}
	}
}

// TestMalformed: something that is not JSON-RPC ends Serve with
// ErrProtocol; a closed stream ends it cleanly.
func TestMalformed(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     error
	}{
		{"not json", "Content-Length: 5\r\n\r\n{{{{{", ErrProtocol},
		{"closed", "", nil},
		{"closed mid-message", "Content-Length: 50\r\n\r\n{\"jsonrpc\"", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{Root: t.TempDir()})
			err := s.Serve(context.Background(), rwc{strings.NewReader(tt.in), io.Discard})
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Serve: %v, want %v", err, tt.want)
			}
		})
	}
}

type rwc struct {
	io.Reader
	io.Writer
}

func (rwc) Close() error { return nil }

// TestHelpBeforeValid: hover and completion work in a session whose
// repository has not validated once, from the model decoded as far as it
// validated.
func TestHelpBeforeValid(t *testing.T) {
	root := copyDir(t, "../../../examples/dev-team")
	p := filepath.Join(root, marco)
	src, _ := os.ReadFile(p)
	bad := strings.Replace(string(src), `verbosity: "concise"`, `verbosity: "consise"`, 1)
	os.WriteFile(p, []byte(bad), 0o644)
	c := start(t, root)
	c.open(marco, bad)
	c.wait()
	if got := hoverText(t, c, marco, bad, `"every_step"`, 2); !strings.Contains(got, "option of communication.progress_updates") {
		t.Errorf("hover: %q", got)
	}
	if got := completionLabels(t, c, marco, bad, `"consise"`, 3); len(got) != 3 {
		t.Errorf("completion: %v", got)
	}
}

// TestHoverRulesAndTemplates: a rule's condition says the rule's text and
// action; a template's placeholder says what fills it, and completes.
func TestHoverRulesAndTemplates(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	prof := c.read("profiles.cue")
	c.open("profiles.cue", prof)
	types := c.read("types.cue")
	c.open("types.cue", types)
	c.wait()
	got := hoverText(t, c, "profiles.cue", prof, `substring: "migrations/"`, 13)
	for _, w := range []string{"**protect_migrations** — rule of profile team", "Never modify files under migrations/", "Action: block on edit"} {
		if !strings.Contains(got, w) {
			t.Errorf("hover on a condition: got\n%s\nwant %q", got, w)
		}
	}
	got = hoverText(t, c, "types.cue", types, `{task_description}`, 3)
	if !strings.Contains(got, "**{task_description}** — runtime variable of agent type planner") || !strings.Contains(got, "The task as the user stated it.") {
		t.Errorf("hover on a placeholder: %q", got)
	}
	if got := hoverText(t, c, "types.cue", types, `You are {agent.name}`, 10); !strings.Contains(got, "filled in when the bundle is built") {
		t.Errorf("hover on a compile-time placeholder: %q", got)
	}
	var l *protocol.Location
	c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("types.cue")}, Position: pos(t, types, `{task_description}`, 3)}}, &l)
	if want := pos(t, types, "task_description: {description", 0); l == nil || l.Range.Start != want {
		t.Errorf("definition of a placeholder: %+v, want types.cue at %v", l, want)
	}
	labels := completionLabels(t, c, "types.cue", types, `{task_description}`, 1)
	for _, w := range []string{"task_description", "language", "agent.name"} {
		if _, ok := labels[w]; !ok {
			t.Errorf("placeholder completion: no %q in %v", w, labels)
		}
	}
}

// TestBadParams: a request whose params do not fit is answered with an
// error, and the server goes on.
func TestBadParams(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	err := c.conn.Call(context.Background(), "textDocument/hover", "oops", new(any))
	var re *jsonrpc2.Error
	if !errors.As(err, &re) || re.Code != jsonrpc2.CodeInvalidParams {
		t.Errorf("hover with a string for params: %v, want invalid params", err)
	}
	var list protocol.CompletionList
	c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}}}, &list)
}

// TestFastPath: with the fast path on, an edit of one agent's file is
// published from an evaluation of the files it needs, with the CLI's
// messages, lint findings included; the full evaluation follows after the
// pause and publishes what the edit does to other files.
func TestFastPath(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"), func(o *Options) {
		o.FastAfter = -1
		o.FullDelay = 300 * time.Millisecond
	})
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait() // a buffer the full evaluation did not read: fast
	c.wait() // and the full one after the pause
	base := c.srv.fastRuns.Load()
	bad := strings.Replace(src, `verbosity: "concise"`, `verbosity: "consise"`, 1)
	bad = strings.Replace(bad, "budget_limit: 1.00", "budget_limit: 900", 1)
	c.change(marco, bad)
	c.wait()
	if n := c.srv.fastRuns.Load() - base; n != 1 {
		t.Fatalf("%d fast evaluations, want 1", n)
	}
	want := `unknown-option: agents.marco.behavior.communication.verbosity: "consise" is not an option; valid options: concise, detailed, minimal (did you mean "concise"?)`
	if got := messages(c.diagnostics(marco)); got != want {
		t.Errorf("fast: got\n%s\nwant\n%s", got, want)
	}
	c.wait() // the full evaluation, after the pause
	if got := messages(c.diagnostics(marco)); got != want {
		t.Errorf("full: got\n%s\nwant\n%s", got, want)
	}

	// Valid again: lint's finding about the manager's budget comes from
	// the fast evaluation too (sarah's file is in its scope).
	c.change(marco, strings.Replace(src, "budget_limit: 1.00", "budget_limit: 900", 1))
	c.wait()
	if n := c.srv.fastRuns.Load() - base; n != 2 {
		t.Fatalf("%d fast evaluations, want 2", n)
	}
	if got := messages(c.diagnostics(marco)); !strings.Contains(got, "budget-exceeds-manager: agents.marco.authority.budget_limit: budget_limit 900 exceeds sarah's budget_limit 5") {
		t.Errorf("fast lint: got\n%s", got)
	}
	c.wait()

	// Renaming sarah: her file first, the flow that names her once the
	// full evaluation ran.
	const sarah = "agents/sarah.cue"
	ssrc := c.read(sarah)
	c.change(marco, src)
	c.wait()
	c.wait()
	c.open(sarah, strings.Replace(ssrc, "agents: sarah:", "agents: sara:", 1))
	c.wait()
	c.wait()
	if got := messages(c.diagnostics("flows.cue")); !strings.Contains(got, `unknown agent "sarah"`) {
		t.Errorf("after the full evaluation, flows.cue: got\n%s\nwant a finding about sarah", got)
	}
}

// TestFastPathSameFindings: on the generated repository, the fast path
// publishes for the edited file exactly what the full evaluation then
// publishes.
func TestFastPathSameFindings(t *testing.T) {
	root := t.TempDir()
	if err := gen.Write(root, 60); err != nil {
		t.Fatal(err)
	}
	c := start(t, root, func(o *Options) { o.FastAfter, o.FullDelay = -1, 200*time.Millisecond })
	c.wait()
	for _, rel := range []string{"agents/a0001.cue", "agents/a0007.cue"} {
		src := c.read(rel)
		c.open(rel, strings.Replace(src, "budget_limit:", "budget_limit: 1000 +", 1))
		n := c.srv.fastRuns.Load()
		c.wait()
		if c.srv.fastRuns.Load() != n+1 {
			t.Fatalf("%s: no fast evaluation", rel)
		}
		fast := messages(c.diagnostics(rel))
		c.wait()
		full := messages(c.diagnostics(rel))
		if fast != full || fast == "" {
			t.Errorf("%s: fast path published\n%s\nthe full evaluation\n%s", rel, fast, full)
		}
	}
}

// TestNewBuffer: a buffer not saved yet, in a folder not on disk either,
// is part of the repository.
func TestNewBuffer(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	const rel = "agents/new/zoe.cue"
	c.open(rel, "package charter\n\nagents: zoe: {\n\tname: \"Zoe\"\n\ttype: \"coderr\"\n}\n")
	c.wait()
	want := `reference: agents.zoe.type: unknown agent type "coderr"; did you mean "coder"?`
	if got := messages(c.diagnostics(rel)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	as := actions(t, c, rel, 4)
	if len(as) != 1 || as[0].Edit.Changes[c.uri(rel)][0].NewText != `"coder"` {
		t.Errorf("actions: %+v", as)
	}
}

// TestCompleteEmptyValue: a value not begun completes with its quotes.
func TestCompleteEmptyValue(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := strings.Replace(c.read(marco), `reports_to:   "sarah"`, `reports_to: `, 1)
	c.open(marco, src)
	var list protocol.CompletionList
	c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(marco)}, Position: pos(t, src, `reports_to: `, len(`reports_to: `))}}, &list)
	var got []string
	for _, it := range list.Items {
		switch te := it.TextEdit.(type) {
		case protocol.TextEdit:
			got = append(got, te.NewText)
		case *protocol.TextEdit:
			got = append(got, te.NewText)
		}
	}
	if !slices.Contains(got, `"sarah"`) {
		t.Errorf("completions: %q, want \"sarah\" with its quotes", got)
	}
}

// TestLintRules: rule ids hover and complete in lint settings and in
// // charter:ignore comments.
func TestLintRules(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := strings.Replace(c.read("charter.cue"), "disable: []", `disable: ["unknown-model"]`, 1)
	src = strings.Replace(src, "lint: {", "// charter:ignore budget-exceeds-manager approved\nlint: {", 1)
	c.open("charter.cue", src)
	c.wait()
	if got := hoverText(t, c, "charter.cue", src, `"unknown-model"`, 3); !strings.HasPrefix(got, "**unknown-model** — lint rule (") {
		t.Errorf("hover in lint.disable: %q", got)
	}
	if got := hoverText(t, c, "charter.cue", src, `budget-exceeds-manager approved`, 3); !strings.HasPrefix(got, "**budget-exceeds-manager** — lint rule (warning)") {
		t.Errorf("hover in an ignore comment: %q", got)
	}
	for _, at := range []struct {
		marker string
		delta  int
	}{{`"unknown-model"`, 3}, {`budget-exceeds-manager approved`, 3}} {
		got := completionLabels(t, c, "charter.cue", src, at.marker, at.delta)
		if _, ok := got["unknown-model"]; !ok || len(got) < 20 {
			t.Errorf("completion at %s: %d items, want every rule", at.marker, len(got))
		}
	}
}

// TestNoCredential: what the server says about a file never repeats a
// credential in it (the editor holds the file; diagnostics are read,
// copied and pasted).
func TestNoCredential(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	const token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	bad := strings.Replace(src, `verbosity: "concise"`, `verbosity: "`+token+`"`, 1)
	c.open(marco, bad)
	c.wait()
	got := messages(c.diagnostics(marco))
	if !strings.Contains(got, "unknown-option") || !strings.Contains(got, "ghp_…") {
		t.Fatalf("got\n%s\nwant the unknown option, its value redacted", got)
	}
	if strings.Contains(got, token) {
		t.Errorf("a diagnostic prints the credential:\n%s", got)
	}
	if h := hoverText(t, c, marco, bad, token, 2); strings.Contains(h, token) {
		t.Errorf("hover prints the credential:\n%s", h)
	}
}

// A code action asked for after an edit and before that edit's evaluation
// publishes must not be computed from the previous evaluation's positions:
// its replacement would land on what the edit moved there and corrupt the
// buffer. The server offers no fix until the buffer is evaluated again.
func TestCodeActionsStale(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	src := c.read(marco)
	bad := strings.Replace(src, `verbosity: "concise"`, `verbosity: "consise"`, 1)
	c.open(marco, bad)
	c.wait()
	line := int(pos(t, bad, `"consise"`, 0).Line)
	if as := actions(t, c, marco, line); len(as) != 1 {
		t.Fatalf("got %d actions before the edit, want the replacement: %+v", len(as), as)
	}
	// The next evaluation is held until the code action is answered.
	release := make(chan struct{})
	var once sync.Once
	c.srv.mu.Lock()
	c.srv.started = func() { once.Do(func() { <-release }) }
	c.srv.mu.Unlock()
	moved := strings.Replace(bad, `{verbosity: "consise"`, `{  verbosity: "consise"`, 1)
	c.change(marco, moved)
	as := actions(t, c, marco, line)
	close(release)
	for _, a := range as {
		if a.Edit == nil {
			continue
		}
		got := apply(moved, a.Edit.Changes[c.uri(marco)])
		want := strings.Replace(moved, `"consise"`, `"concise"`, 1)
		if strings.HasPrefix(a.Title, "Replace") && got != want {
			t.Errorf("%q on the edited buffer gave\n%s", a.Title, got)
		}
	}
	c.wait()
	as = actions(t, c, marco, line)
	if len(as) != 1 {
		t.Fatalf("got %d actions once the edit is evaluated, want the replacement: %+v", len(as), as)
	}
	if got, want := apply(moved, as[0].Edit.Changes[c.uri(marco)]), strings.Replace(moved, `"consise"`, `"concise"`, 1); got != want {
		t.Errorf("replacement gave\n%s", got)
	}
}

// Completion says what each name is (an agent's name and role, an option's
// sentence): no credential among them.
func TestCompletionNoCredential(t *testing.T) {
	root := copyDir(t, "../../../examples/dev-team")
	const key = "AKIAQQAWSEXAMPLE1234"
	p := filepath.Join(root, "agents/sarah.cue")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"Senior Backend Developer"`, `"Lead `+key+`"`, 1)), 0o644)
	c := start(t, root)
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait()
	got := completionLabels(t, c, marco, src, `reports_to:   "sarah"`, len(`reports_to:   "`))
	if d, ok := got["sarah"]; !ok || !strings.Contains(d, "AKIA…[20 chars") || strings.Contains(d, key) {
		t.Errorf("completion of sarah: %q, want her role with the key redacted", d)
	}
}

// A workspace that is not charter's is served nothing, formatting
// included: an editor that starts charter lsp for every .cue file must not
// have charter's CUE version reformat another project's files.
func TestNotCharterNoFormatting(t *testing.T) {
	dir := t.TempDir()
	src := "package k8s\ndeployment:   replicas:    2\n"
	os.WriteFile(filepath.Join(dir, "k8s.cue"), []byte(src), 0o644)
	c := start(t, dir)
	c.wait()
	c.open("k8s.cue", src)
	c.wait()
	var edits []protocol.TextEdit
	c.call("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("k8s.cue")}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting in a workspace that is not charter's: %+v", edits)
	}
}

// TestNotInitialized: a request before initialize is answered with
// ServerNotInitialized (-32002), as LSP says, not an internal error; a
// notification is dropped.
func TestNotInitialized(t *testing.T) {
	a, b := net.Pipe()
	s := New(Options{Root: t.TempDir()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, a)
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
	defer conn.Close()
	if err := conn.Notify(ctx, "textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: "file:///x.cue", Text: "x"}}); err != nil {
		t.Fatal(err)
	}
	var h *protocol.Hover
	err := conn.Call(ctx, "textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///x.cue"}}}, &h)
	var re *jsonrpc2.Error
	if !errors.As(err, &re) || re.Code != -32002 {
		t.Errorf("hover before initialize: %v, want error -32002 (server not initialized)", err)
	}
	if len(s.docs) != 0 {
		t.Errorf("a didOpen before initialize was kept")
	}
}

// TestDocumentSizeCap: a document larger than the 4 MiB every file read
// is capped at is not held or evaluated: its diagnostics say so. A message
// too large for any document is read and dropped, never held whole; the
// server goes on.
func TestDocumentSizeCap(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"))
	c.wait()
	big := "package charter\n// " + strings.Repeat("x", 5<<20) + "\n"
	c.open("big.cue", big)
	c.wait()
	ds := c.diagnostics("big.cue")
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "file is 5.0 MiB, larger than the 4.0 MiB charter reads") {
		t.Errorf("diagnostics of a 5 MiB document: %+v", ds)
	}
	c.srv.mu.Lock()
	if d := c.srv.docs[c.uri("big.cue")]; d == nil || d.text != nil && len(d.text.src) > 0 {
		t.Errorf("the 5 MiB document is held")
	}
	c.srv.mu.Unlock()

	// A message larger than any document: the server reads past it,
	// holding none of it, and goes on (here, to the end of its input).
	frame := func(v any) []byte {
		b, _ := json.Marshal(v)
		return fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	root := t.TempDir()
	uri := pathURI(root)
	var in bytes.Buffer
	in.Write(frame(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": protocol.InitializeParams{RootURI: &uri}}))
	in.Write(frame(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri + "/huge.cue", Text: strings.Repeat("y", 64<<20)}}}))
	var out bytes.Buffer
	s := New(Options{Root: root})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := s.Serve(context.Background(), rwc{&in, &out}); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("a 64 MiB message cost the server %d MiB", n>>20)
	}
	if !strings.Contains(out.String(), "dropped a message of 64 MiB") {
		t.Errorf("no message says the 64 MiB message was dropped:\n%.2000s", out.String())
	}
}

// TestBackgroundYieldsToEdit: an edit that comes while the background full
// evaluation reads the files abandons it (it would take the processors
// from the edit's own evaluation); the base stays the last one, and the
// edit is answered.
func TestBackgroundYieldsToEdit(t *testing.T) {
	c := start(t, copyDir(t, "../../../examples/dev-team"), func(o *Options) {
		o.FastAfter, o.FullDelay = -1, 50*time.Millisecond
	})
	c.wait()
	src := c.read(marco)
	c.open(marco, src)
	c.wait() // fast
	c.wait() // the full evaluation after the pause
	c.srv.mu.Lock()
	base := c.srv.full
	var once sync.Once
	c.srv.started = func() {
		if c.srv.bgRunning.Load() {
			once.Do(func() {
				c.srv.mu.Lock()
				c.srv.opts.FullDelay = time.Hour // no other background evaluation in this test
				c.srv.mu.Unlock()
				c.change(marco, strings.Replace(src, "budget_limit: 1.00", "budget_limit: 900", 1))
			})
			// The edit reaches the server before the evaluation reads.
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) {
				c.srv.mu.Lock()
				edited := c.srv.lastEdited == marco && c.srv.docs[c.uri(marco)].version == version
				c.srv.mu.Unlock()
				if edited {
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
	abandoned := c.srv.abandoned.Load()
	c.srv.mu.Unlock()
	c.change(marco, strings.Replace(src, "budget_limit: 1.00", "budget_limit: 2", 1))
	c.wait() // fast; then the pause starts the background evaluation, which the edit abandons
	c.wait() // the edit's, fast
	if got := c.srv.abandoned.Load() - abandoned; got != 1 {
		t.Errorf("%d evaluations abandoned, want the background one", got)
	}
	// The base advanced with the edits' incremental evaluations, which
	// keep the full evaluation's time; another full one has its own.
	c.srv.mu.Lock()
	same := c.srv.full.took == base.took
	c.srv.mu.Unlock()
	if !same {
		t.Error("the abandoned background evaluation became the base")
	}
	if got := messages(c.diagnostics(marco)); !strings.Contains(got, "budget_limit 900 exceeds") {
		t.Errorf("the edit during the background evaluation: got\n%s", got)
	}
}

// TestAdaptiveDebounce: without a Debounce, the server waits half what the
// last evaluation took, within its bounds.
func TestAdaptiveDebounce(t *testing.T) {
	for _, tc := range []struct{ cost, want time.Duration }{
		{0, minDebounce},
		{10 * time.Millisecond, minDebounce},
		{80 * time.Millisecond, 40 * time.Millisecond},
		{15 * time.Second, maxDebounce},
	} {
		s := New(Options{})
		s.lastCost = tc.cost
		if got := s.debounce(); got != tc.want {
			t.Errorf("after an evaluation of %v: debounce %v, want %v", tc.cost, got, tc.want)
		}
	}
	if got := New(Options{Debounce: time.Second}).debounce(); got != time.Second {
		t.Errorf("Debounce set: %v, want 1s", got)
	}
}

// TestConvertCached: the diagnostics of a file that is not open are
// converted from its text once while they and the disk stay the same
// (they come back for thousands of files when the repository validates
// again); a change on disk converts them again.
func TestConvertCached(t *testing.T) {
	root := t.TempDir()
	const rel = "a.cue"
	path := filepath.Join(root, rel)
	if err := os.WriteFile(path, []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Options{})
	uri := pathURI(path)
	ds := []diag.Diagnostic{{File: rel, Line: 1, Column: 4, Severity: diag.Warning, Message: "m"}}
	first := s.convertCached(root, rel, uri, nil, ds)
	// Another text on disk, unannounced: the conversion is reused.
	if err := os.WriteFile(path, []byte("\u00e9\u00e9\u00e9: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := s.convertCached(root, rel, uri, nil, slices.Clone(ds)); &got[0] != &first[0] {
		t.Error("the same diagnostics were converted again")
	}
	s.disk++
	again := s.convertCached(root, rel, uri, nil, ds)
	if &again[0] == &first[0] {
		t.Error("a change on disk reused the old conversion")
	}
	if again[0].Range == first[0].Range {
		t.Errorf("not converted from the new text: %+v, as from the old", again[0].Range)
	}
}

// TestPublishOpenFirst: the diagnostics of the open documents are sent
// before those of the files that are not, however many.
func TestPublishOpenFirst(t *testing.T) {
	root := t.TempDir()
	s := New(Options{})
	snap := &snapshot{diags: map[string][]diag.Diagnostic{}}
	for i := range 200 {
		rel := fmt.Sprintf("agents/a%03d.cue", i)
		snap.diags[rel] = []diag.Diagnostic{{File: rel, Line: 1, Column: 1, Message: "m"}}
	}
	const open = "agents/a150.cue"
	uri := pathURI(filepath.Join(root, open))
	out := s.publishLocked(root, snap, map[string]*text{open: newText("x\n")}, map[string]*text{open: newText("x\n")}, map[string]protocol.UInteger{uri: 7}, nil)
	if len(out) != 200 || out[0].URI != uri || out[0].Version == nil || *out[0].Version != 7 {
		t.Fatalf("%d notifications, the first %s, want 200 with %s (version 7) first", len(out), out[0].URI, uri)
	}
}
