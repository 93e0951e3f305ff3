// Package lsp is charter's Language Server Protocol server (charter lsp):
// it evaluates the config root as the editor sees it — the files on disk
// with the unsaved buffers over them — and answers with diagnostics from
// validate and lint, hover, completion, go to definition, code actions and
// formatting.
//
// Evaluation goes through package revision, as every command's does, and
// lint runs on top as charter lint runs it, so rule ids and messages are the
// CLI's. It runs in the background: an edit abandons the evaluation under
// way (it stops reading files at once and is never published), and only the
// evaluation of the latest edit publishes diagnostics. On a large
// repository an edit of agents' files is evaluated incrementally, with
// just the files it can change (incremental.go). Requests are answered
// from the last evaluation that validated, and from the buffer's own
// syntax, so they never wait for one.
package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
)

// Options configure a Server.
type Options struct {
	// Root is the config root used when the client names no workspace.
	Root string
	// Debounce is how long the server waits after an edit before it
	// evaluates; 0 means adaptive: half what the last evaluation took,
	// at least 20 ms and at most 150 ms (see debounce).
	Debounce time.Duration
	// StdlibDir is where the read-only copy of the standard library that
	// go to definition opens is written; empty means a folder in the
	// user's cache directory.
	StdlibDir string
	// FastAfter: when a full evaluation took longer than this, an edit of
	// files that declare only agents is evaluated incrementally
	// (incremental.go), and a full evaluation follows in the background
	// after FullDelay without edits. 0 means 250 ms; negative, always.
	FastAfter time.Duration
	// FullDelay is the pause in editing after which a full evaluation
	// follows an incremental one, or the time the last full evaluation
	// took if that is longer (unless FastAfter is negative); 0 means 1 s.
	FullDelay time.Duration
	// Version is what the server reports as its version.
	Version string
	// Log receives a line for what the server could not do; nil discards.
	Log io.Writer
}

// Server serves one client. Create it with New and run it with Serve.
type Server struct {
	opts    Options
	handler protocol.Handler
	// conn is the connection Serve made; a handler may run before Serve
	// has stored it, and stores it then.
	conn    atomic.Pointer[jsonrpc2.Conn]
	kick    chan struct{}
	evalled chan struct{} // receives after each published evaluation (tests)
	// abandoned counts the evaluations a newer edit abandoned; fastRuns
	// the fast evaluations published.
	abandoned, fastRuns atomic.Int64

	mu        sync.Mutex
	root      string // absolute config root; "" until initialized
	docs      map[string]*document
	snap      *snapshot                    // the last published evaluation
	full      *snapshot                    // the last full evaluation: the base of incremental ones
	good      *snapshot                    // the last evaluation that validated
	published map[string][]diag.Diagnostic // by URI, as last sent
	conv      map[string]converted         // by URI, the files not open (convertCached)
	gen       uint64                       // bumped by every change
	cancel    context.CancelFunc           // cancels the evaluation under way
	bgCancel  context.CancelFunc           // cancels the background full evaluation
	lastCost  time.Duration                // what the last evaluation of an edit took (debounce)
	said      map[string]bool              // messages shown once
	started   func()                       // called as an evaluation starts (tests)
	shutdown  bool
	ev        revision.Evaluator // used by the evaluation goroutine only
	bev       revision.Evaluator // used by the background full evaluation only
	bgRunning atomic.Bool        // a background full evaluation is running
	fullGen   uint64             // the edit count full evaluated
	// lastEdited is the file edited last: the incremental path checks it
	// even when its text is back to what the base read (an undo).
	lastEdited string
	disk       uint64 // bumped by every change of files on disk
	// dirty are the files whose published diagnostics differ from the
	// base's (full): the incremental path computes them again.
	dirty map[string]bool

	stdOnce sync.Once
	stdPath string
	stdErr  error
}

// document is an open buffer.
type document struct {
	uri     string
	rel     string // root-relative slash path, "" when outside the root
	version int32
	text    *text
	// large is the size of a text larger than load.MaxFileSize, which is
	// not held (text is empty): the evaluation reports the file too
	// large, as charter validate does. 0 for the others.
	large int64
}

// setText sets d's text, unless it is larger than every file charter
// reads: then only its size is kept.
func (d *document) setText(src string) {
	if len(src) > load.MaxFileSize {
		d.text, d.large = newText(""), int64(len(src))
		return
	}
	d.text, d.large = newText(src), 0
}

// New returns a server.
func New(opts Options) *Server {
	if opts.FastAfter == 0 {
		opts.FastAfter = 250 * time.Millisecond
	}
	if opts.FullDelay == 0 {
		opts.FullDelay = time.Second
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	s := &Server{opts: opts, docs: map[string]*document{}, published: map[string][]diag.Diagnostic{}, conv: map[string]converted{},
		said: map[string]bool{}, dirty: map[string]bool{}, kick: make(chan struct{}, 1)}
	s.handler = protocol.Handler{
		Initialize:                     s.initialize,
		Initialized:                    func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                       s.shutdownReq,
		Exit:                           func(*glsp.Context) error { return nil },
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		CancelRequest:                  func(*glsp.Context, *protocol.CancelParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidClose:           s.didClose,
		TextDocumentDidSave:            s.didSave,
		WorkspaceDidChangeWatchedFiles: s.didChangeWatched,
		TextDocumentHover:              s.hover,
		TextDocumentCompletion:         s.completion,
		TextDocumentDefinition:         s.definition,
		TextDocumentCodeAction:         s.codeAction,
		CodeActionResolve:              func(_ *glsp.Context, a *protocol.CodeAction) (*protocol.CodeAction, error) { return a, nil },
		TextDocumentFormatting:         s.formatting,
	}
	return s
}

// ErrProtocol wraps what made the server stop reading: a message that is
// not JSON-RPC.
var ErrProtocol = errors.New("malformed message from the client")

// Serve answers the client on rw until it sends exit, closes the stream
// or sends something that is not JSON-RPC (an error wrapping ErrProtocol).
// A client that closes the stream is a clean end: Serve returns nil.
func (s *Server) Serve(ctx context.Context, rw io.ReadWriteCloser) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	c := &codec{}
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rw, c), jsonrpc2.HandlerWithError(s.handle),
		// Serve reports why it stopped reading; the library's own log
		// would say it twice.
		jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	s.conn.Store(conn)
	go s.loop(ctx)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil && !errors.Is(c.err, io.EOF) && !errors.Is(c.err, io.ErrUnexpectedEOF) && !errors.Is(c.err, io.ErrClosedPipe) {
		return fmt.Errorf("%w: %v", ErrProtocol, c.err)
	}
	return nil
}

// codeServerNotInitialized is LSP's error for a request before
// initialize.
const codeServerNotInitialized = -32002

// maxMessage bounds the messages the server reads: a document of
// load.MaxFileSize, JSON-escaped at worst (\u0000 is six bytes a byte),
// and room for the rest. A larger message is read past and dropped, never
// held: its content could be no file charter reads.
var maxMessage int64 = 6*load.MaxFileSize + 1<<20

// droppedMethod is the notification a message too large to read stands
// for.
const droppedMethod = "$/charter/dropped"

// codec is the VS Code framing (Content-Length headers) that remembers why
// reading stopped, and drops a message larger than maxMessage.
type codec struct {
	jsonrpc2.VSCodeObjectCodec
	mu  sync.Mutex
	err error
}

func (c *codec) ReadObject(r *bufio.Reader, v any) error {
	err := c.readObject(r, v)
	if err != nil {
		c.mu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
	}
	return err
}

// readObject reads one message as jsonrpc2.VSCodeObjectCodec does:
// headers up to an empty line, then Content-Length bytes of JSON.
func (c *codec) readObject(r *bufio.Reader, v any) error {
	var n int64 = -1
	headers := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" && headers == 0 {
			continue // a blank line between messages, or before the end
		}
		if line == "" {
			break
		}
		headers++
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return fmt.Errorf("header line %q has no colon", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err = strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return fmt.Errorf("bad Content-Length %q", value)
			}
		}
	}
	if n < 0 {
		return errors.New("no Content-Length header")
	}
	if n > maxMessage {
		if _, err := io.CopyN(io.Discard, r, n); err != nil {
			return err
		}
		return json.Unmarshal(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":%q,"params":{"bytes":%d}}`, droppedMethod, n), v)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return err
	}
	return json.Unmarshal(body, v)
}

func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	s.conn.CompareAndSwap(nil, conn)
	gc := &glsp.Context{Method: req.Method, Notify: func(method string, params any) { s.notify(method, params) }}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	if req.Method == "exit" {
		go conn.Close()
		return nil, nil
	}
	if req.Method == droppedMethod {
		var p struct{ Bytes int64 }
		_ = json.Unmarshal(gc.Params, &p)
		s.say(protocol.MessageTypeWarning, fmt.Sprintf("charter lsp: dropped a message of %d MiB from the editor, larger than any file charter reads (%d MiB): a file that large is not checked", p.Bytes>>20, load.MaxFileSize>>20))
		return nil, nil
	}
	s.mu.Lock()
	initialized := s.root != ""
	s.mu.Unlock()
	if !initialized && req.Method != "initialize" {
		// LSP: before initialize, a request is answered with
		// ServerNotInitialized, and a notification is dropped.
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "server not initialized: send initialize first"}
	}
	r, validMethod, validParams, err := s.handle1(gc)
	switch {
	case !validMethod:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
	}
	return r, nil
}

// handle1 dispatches one message; a panic in a handler is an error
// answer, not the end of the server.
func (s *Server) handle1(gc *glsp.Context) (r any, validMethod, validParams bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, validMethod, validParams, err = nil, true, true, fmt.Errorf("internal error in charter lsp (a bug; please report it): %v", p)
			fmt.Fprintf(s.opts.Log, "charter lsp: %s: %v\n", gc.Method, p)
		}
	}()
	return s.handler.Handle(gc)
}

func (s *Server) notify(method string, params any) {
	conn := s.conn.Load()
	if conn == nil {
		return
	}
	if err := conn.Notify(context.Background(), method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		fmt.Fprintf(s.opts.Log, "charter lsp: %s: %v\n", method, err)
	}
}

// say shows a message to the user once per session.
func (s *Server) say(typ protocol.MessageType, msg string) {
	msg = diag.Escape(secret.Redact(msg), "") // an error may quote a value
	s.mu.Lock()
	seen := s.said[msg]
	s.said[msg] = true
	s.mu.Unlock()
	if !seen {
		s.notify(string(protocol.ServerWindowShowMessage), &protocol.ShowMessageParams{Type: typ, Message: msg})
	}
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	root := s.opts.Root
	switch {
	case p.RootURI != nil && *p.RootURI != "":
		if dir, ok := uriPath(*p.RootURI); ok {
			root = dir
		}
	case len(p.WorkspaceFolders) > 0:
		if dir, ok := uriPath(p.WorkspaceFolders[0].URI); ok {
			root = dir
		}
	case p.RootPath != nil && *p.RootPath != "":
		root = *p.RootPath
	}
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve the workspace folder %s: %v", root, err)
	}
	s.mu.Lock()
	s.root = abs
	s.mu.Unlock()
	s.request()

	caps := s.handler.CreateServerCapabilities()
	full := protocol.TextDocumentSyncKindIncremental
	tr := true
	caps.TextDocumentSync = &protocol.TextDocumentSyncOptions{OpenClose: &tr, Change: &full, Save: &protocol.SaveOptions{IncludeText: &tr}}
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{"\"", "{", ".", " "}}
	caps.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}
	version := s.opts.Version
	return protocol.InitializeResult{Capabilities: caps,
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "charter", Version: &version}}, nil
}

func (s *Server) shutdownReq(*glsp.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	return nil
}

// uriPath returns the file system path of a file: URI.
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	return filepath.FromSlash(u.Path), true
}

// pathURI returns the file: URI of an absolute path.
func pathURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// rel returns the root-relative slash path of uri, or "" when the file is
// not a .cue file charter reads below the config root.
func (s *Server) rel(uri string) string {
	p, ok := uriPath(uri)
	if !ok || s.root == "" {
		return ""
	}
	r, err := filepath.Rel(s.root, p)
	if err != nil || r == "." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || r == ".." {
		return ""
	}
	r = filepath.ToSlash(r)
	if !strings.HasSuffix(r, ".cue") {
		return ""
	}
	for _, part := range strings.Split(r, "/") {
		if strings.HasPrefix(part, ".") || strings.HasPrefix(part, "_") || part == "cue.mod" {
			return ""
		}
	}
	return r
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.mu.Lock()
	d := &document{uri: p.TextDocument.URI, rel: s.rel(p.TextDocument.URI), version: p.TextDocument.Version}
	d.setText(p.TextDocument.Text)
	s.docs[d.uri] = d
	outside := d.rel == "" && strings.HasSuffix(d.uri, ".cue")
	root := s.root
	s.mu.Unlock()
	if outside {
		fmt.Fprintf(s.opts.Log, "charter lsp: %s is outside the config root %s; not checked\n", d.uri, root)
		return nil
	}
	if d.rel != "" {
		s.changed()
	}
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("%s is not open: the client sent didChange without didOpen", p.TextDocument.URI)
	}
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			d.setText(c.Text)
		case protocol.TextDocumentContentChangeEvent:
			if d.large > 0 {
				// The text is not held: an edit of it stays too large
				// until the client sends it whole again.
				continue
			}
			start, end := d.text.offset(c.Range.Start), d.text.offset(c.Range.End)
			if end < start {
				start, end = end, start
			}
			d.setText(d.text.src[:start] + c.Text + d.text.src[end:])
		}
	}
	d.version = p.TextDocument.Version
	if d.rel != "" {
		s.lastEdited = d.rel
	}
	s.mu.Unlock()
	if d.rel != "" {
		s.changed()
	}
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if ok && d.rel != "" {
		s.changed() // the file on disk counts again
	}
	return nil
}

func (s *Server) didSave(*glsp.Context, *protocol.DidSaveTextDocumentParams) error {
	return nil // the buffer already counted
}

func (s *Server) didChangeWatched(*glsp.Context, *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	s.disk++
	s.mu.Unlock()
	s.changed()
	return nil
}

// changed records an edit: the evaluation under way is abandoned and a
// new one is requested.
func (s *Server) changed() {
	s.mu.Lock()
	s.gen++
	if s.cancel != nil {
		s.cancel()
	}
	if s.bgCancel != nil {
		// The edit comes first: the background evaluation would take
		// the processors from it. It starts again after the next pause.
		s.bgCancel()
	}
	s.mu.Unlock()
	s.request()
}

func (s *Server) request() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}
