package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/serve"
	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/internal/release/oci"
	"github.com/charter-dev/charter/rules"
)

type serveOptions struct {
	bundle, pull, key     string
	plainHTTP             bool
	addr, publicURL       string
	sessions              string
	maxCalls, maxSess     int
	idle, poll, pullEvery time.Duration
	decisionLog           string
	logMax                int64
	logKeep               int
	failOpen              bool
	tokenFile             string
	tlsCert, tlsKey, ca   string
	maxBody               int64
}

func newServeCmd(g *globals) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve (--bundle DIR | --pull REF) [--addr HOST:PORT] [--sessions memory|redis://...] [--decision-log FILE]",
		Short: "Answer tool-call decisions over HTTP for any agent runtime",
		Long: `serve is one decision point that any agent runtime asks before and after
each tool call, judging with the engine charter eval and the Claude Code
hook use: the same bundle and calls get the same decision and rules.

Endpoints (docs/serve.md): POST /v1/decide (charter's API: allow, deny or
ask, the rules that fired, the agent's version and content hash, the
bundle's revision); POST /v1/hooks/claude-code[?agent=ID] (Claude Code's
HTTP hook, its JSON in and out); POST /access/v1/evaluation and
/access/v1/evaluations, GET /.well-known/authzen-configuration (AuthZEN
1.0); GET /health (add ?ready for readiness: 503 without a bundle, or
while the Redis of --sessions does not answer); GET /metrics (Prometheus).

The bundle comes from --bundle DIR (reloaded when its manifest.json
changes, checked every --poll, and on SIGHUP) or --pull REF (pulled and
verified as charter pull does; a tag is resolved again every
--pull-every and pulled when it moved, and on SIGHUP); --key also requires
manifest.json signed by that key (manifest.jws, as build --sign-key writes
it), every card's signature and, with --pull, the artifact's cosign
signature (as pull --verify-key does). A bundle that does not verify is not served: the
one serving goes on, and /health and the log say why. Decisions under way
finish on the bundle they started with.

Sessions are kept in memory (bounded by --max-calls, --max-sessions and
--idle; gone when the server stops) or with --sessions redis://HOST/DB
(or unix:///PATH) in Redis, shared by replicas and kept across restarts.

serve fails closed: no bundle, an unknown agent, a session store it
cannot reach, an internal error: the call is denied with the reason,
unless --fail-open. It listens on loopback unless given --token-file
(bearer tokens) or --tls-client-ca (client certificates).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runServe(cmd.Context(), g, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.bundle, "bundle", "", "serve the built bundle in this directory")
	f.StringVar(&o.pull, "pull", "", "serve the bundle pulled from this OCI reference (REGISTRY/REPO@sha256:... or :TAG)")
	f.DurationVar(&o.pullEvery, "pull-every", time.Minute, "with --pull of a tag: how often the tag is resolved again (a HEAD request), and pulled when it moved (0: only on SIGHUP)")
	f.BoolVar(&o.plainHTTP, "plain-http", false, "with --pull: speak HTTP to the registry (only on this machine)")
	f.StringVar(&o.key, "key", "", "also require the manifest's and every card's signature to verify with this PEM public key")
	f.StringVar(&o.addr, "addr", serve.DefaultAddr, "address to listen on (host:port; off loopback needs --token-file or --tls-client-ca)")
	f.StringVar(&o.publicURL, "public-url", "", "base URL AuthZEN's discovery document names (default: the one asked)")
	f.StringVar(&o.sessions, "sessions", "memory", "where sessions are kept: memory, or a Redis URL (redis://HOST:PORT/DB, unix:///PATH)")
	f.IntVar(&o.maxCalls, "max-calls", sessions.DefaultLimits.MaxCalls, "most calls one session holds (then its calls are denied)")
	f.IntVar(&o.maxSess, "max-sessions", sessions.DefaultLimits.MaxSessions, "most sessions kept in memory (the idlest goes first)")
	f.DurationVar(&o.idle, "idle", sessions.DefaultLimits.Idle, "how long a session is kept without a call")
	f.DurationVar(&o.poll, "poll", 2*time.Second, "how often --bundle is checked for a new bundle (0: only on SIGHUP)")
	f.StringVar(&o.decisionLog, "decision-log", "", "append a hash-chained JSON Lines record of every decision to this file")
	f.Int64Var(&o.logMax, "decision-log-max-bytes", 100<<20, "rotate the decision log past this size (0: never)")
	f.IntVar(&o.logKeep, "decision-log-keep", 5, "rotated decision logs kept (FILE.1 ... FILE.N)")
	f.BoolVar(&o.failOpen, "fail-open", false, "let a call through when charter cannot judge it (default: deny it)")
	f.StringVar(&o.tokenFile, "token-file", "", "require Authorization: Bearer with the token in this file")
	f.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate")
	f.StringVar(&o.tlsKey, "tls-key", "", "the PEM key of --tls-cert")
	f.StringVar(&o.ca, "tls-client-ca", "", "require client certificates signed by this PEM CA")
	f.Int64Var(&o.maxBody, "max-body", serve.DefaultMaxBody, "largest request body read, in bytes")
	return cmd
}

func runServe(ctx context.Context, g *globals, o *serveOptions) error {
	if (o.bundle == "") == (o.pull == "") {
		return usage("give exactly one of --bundle DIR and --pull REF")
	}
	if o.pull != "" {
		if _, err := oci.Check(o.pull, oci.Options{PlainHTTP: o.plainHTTP}); err != nil {
			return usage("%v", err)
		}
	}
	if o.maxCalls <= 0 || o.maxSess <= 0 || o.idle <= 0 || o.maxBody <= 0 {
		return usage("--max-calls, --max-sessions, --idle and --max-body must be positive")
	}
	token := ""
	if o.tokenFile != "" {
		b, err := os.ReadFile(o.tokenFile)
		if err != nil {
			return fmt.Errorf("--token-file: %v", err)
		}
		if token = strings.TrimSpace(string(b)); len(token) < 16 {
			return fmt.Errorf("--token-file %s holds a token of %d characters; use at least 16 random ones", o.tokenFile, len(token))
		}
	}
	if err := serve.CheckExposure(o.addr, token != "", o.ca != ""); err != nil {
		return usage("%v", err)
	}
	log := &startLog{w: g.stderr}
	opts := serve.Options{Bundle: o.bundle, Pull: o.pull, Token: token, MaxBody: o.maxBody, PublicURL: o.publicURL,
		Idle: o.idle, Logf: log.logf}
	opts.PullOptions = oci.Options{PlainHTTP: o.plainHTTP, HTTPClient: registryClient}
	opts.PullEvery = o.pullEvery
	if o.failOpen {
		opts.OnError = rules.OnErrorAllow
	}
	if o.key != "" {
		v, err := readVerifyKey("--key", o.key)
		if err != nil {
			return err
		}
		opts.Key = v
	}
	limits := sessions.Limits{MaxCalls: o.maxCalls, MaxSessions: o.maxSess, Idle: o.idle}
	if o.sessions == "memory" {
		opts.Sessions, opts.IdleSweep = sessions.NewMemory(limits), true
	} else {
		st, err := sessions.OpenRedis(o.sessions, limits, time.Second)
		if err != nil {
			return withHint(err, "start Redis, or check --sessions")
		}
		opts.Sessions = st
	}
	defer opts.Sessions.Close()
	if o.decisionLog != "" {
		l, err := decisionlog.Open(o.decisionLog, o.logMax, o.logKeep)
		if err != nil {
			return err
		}
		defer l.Close()
		opts.Log = l
	}
	s := serve.New(ctx, opts)
	return s.Run(ctx, serve.Listen{Addr: o.addr, TLSCert: o.tlsCert, TLSKey: o.tlsKey, ClientCA: o.ca, Poll: o.poll},
		log.listening)
}

// startLog holds the server's log lines until it listens: a server that
// cannot listen (the address in use, a bad certificate) never served a
// bundle, and must not say it did.
type startLog struct {
	w    io.Writer
	mu   sync.Mutex
	live bool
	held []heldLine
}

type heldLine struct {
	format string
	args   []any
}

func (l *startLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.live {
		l.held = append(l.held, heldLine{format, args})
		return
	}
	textf(l.w, format+"\n", args...)
}

// listening writes the lines held so far, then where the server listens.
func (l *startLog) listening(url string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, h := range l.held {
		textf(l.w, h.format+"\n", h.args...)
	}
	l.held, l.live = nil, true
	textf(l.w, "charter serve: listening on %s\n", url)
}

func newVerifyLogCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify-log FILE...",
		Short: "Check the hash chain of charter serve's decision log",
		Long: `verify-log checks that each record of a decision log (charter serve
--decision-log) holds the hash of the line before it and the next number:
a record edited, removed or put in between breaks the chain. Give rotated
files oldest first (FILE.2 FILE.1 FILE) to check across rotations. The
last records of a file can be removed without a trace in the chain: keep
the log where charter serve can append but not rewrite it, or ship it.
Exit 1 when the chain is broken.`,
		Args: takes(1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error { return runVerifyLog(g, args) },
	}
	return cmd
}

func runVerifyLog(g *globals, files []string) error {
	rep, err := decisionlog.Verify(files, decisionlog.OpenFile)
	if err != nil {
		return err
	}
	for _, p := range rep.Problems {
		textf(g.stdout, "%s\n", p.Error())
	}
	if len(rep.Problems) > 0 {
		textf(g.stdout, "the chain is broken: %s in %s\n", plural(len(rep.Problems), "problem"), plural(rep.Records, "record"))
		return findings()
	}
	textf(g.stdout, "ok: %d records, %d to %d, each chained to the one before\n", rep.Records, rep.First, rep.Last)
	return nil
}
