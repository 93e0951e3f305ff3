package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/rules"
)

// DecideRequest is the body of POST /v1/decide.
type DecideRequest struct {
	// Agent is the bundle agent's id.
	Agent string `json:"agent"`
	// Session names the run the call belongs to; the server keeps its
	// calls. Optional with History.
	Session string `json:"session,omitempty"`
	// Phase is "pre" (before the call runs) or "post" (after, with its
	// result; the call is recorded in the session).
	Phase string `json:"phase"`
	// Tool is the tool's name, Input its arguments.
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input,omitempty"`
	// Result is what the tool returned (phase post).
	Result any `json:"result,omitempty"`
	// History, for a caller that keeps its own session, is the calls
	// that ran before this one, oldest first; the server then keeps
	// nothing.
	History []HistoryCall `json:"history,omitempty"`
}

// HistoryCall is one earlier call a stateless caller sends.
type HistoryCall struct {
	Tool   string         `json:"tool"`
	Input  map[string]any `json:"input,omitempty"`
	Result any            `json:"result,omitempty"`
}

// Rule is one rule that fired.
type Rule = decisionlog.Rule

// DecideResponse is the answer of POST /v1/decide.
type DecideResponse struct {
	// Decision is allow, deny or ask (run only if the user approves).
	Decision string `json:"decision"`
	// Rules are the rules that fired, with their action and message.
	Rules []Rule `json:"rules"`
	// Warnings (phase pre) and Reminders (phase post) are the messages
	// to show the model.
	Warnings  []string `json:"warnings,omitempty"`
	Reminders []string `json:"reminders,omitempty"`
	// Errors are the rules that could not be evaluated on this call.
	Errors []rules.RuleError `json:"errors,omitempty"`
	// Notes say what the runtime should know of the judgement.
	Notes []string `json:"notes,omitempty"`
	// Agent and Bundle name what judged: the agent's version and content
	// hash, the bundle's revision (commit) and digest (when pulled).
	Agent      decisionlog.Agent  `json:"agent"`
	Bundle     decisionlog.Bundle `json:"bundle"`
	DecisionID string             `json:"decision_id"`
}

// badRequest is a request the server cannot read: 400.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func bad(format string, args ...any) error { return &badRequest{fmt.Sprintf(format, args...)} }

// readBody reads a request's JSON body into v, strictly (unknown fields
// refused) or not. The body is read as JSON whatever its Content-Type
// says (curl -d says a form).
func readBody(r *http.Request, v any, strict bool) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return readError(err)
	}
	return decodeBody(data, v, strict)
}

func readError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &tooLarge{mb.Limit}
	}
	return bad("reading the body: %v", err)
}

func decodeBody(data []byte, v any, strict bool) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return bad("the body is empty; want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return bad("the body is not the JSON charter expects: %v", err)
	}
	if dec.More() {
		return bad("the body holds more than one JSON value")
	}
	return checkMembers(data)
}

// buffers are the bodies and answers of /v1/decide, reused: a request
// costs no buffer growth once the server runs. Only a DecideRequest is
// read from one (its strings are copies; a json.RawMessage would not be).
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 64 << 10

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooled {
		b.Reset()
		buffers.Put(b)
	}
}

type tooLarge struct{ limit int64 }

func (e *tooLarge) Error() string {
	return fmt.Sprintf("the body is larger than %d bytes, the most charter reads (--max-body)", e.limit)
}

func writeError(w http.ResponseWriter, err error) {
	var tl *tooLarge
	if errors.As(err, &tl) {
		httpError(w, http.StatusRequestEntityTooLarge, err.Error())
		return
	}
	httpError(w, http.StatusBadRequest, err.Error())
}

func (s *Server) handleDecide(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	buf := buffers.Get().(*bytes.Buffer)
	defer putBuffer(buf)
	var req DecideRequest
	_, err := buf.ReadFrom(r.Body)
	if err != nil {
		err = readError(err)
	} else {
		err = decodeBody(buf.Bytes(), &req, true)
	}
	if err != nil {
		s.metrics.rejected("decide")
		writeError(w, err)
		return
	}
	resp, err := s.Decide(&req)
	if err != nil {
		s.metrics.rejected("decide")
		writeError(w, err)
		return
	}
	s.metrics.decided("decide", resp.Decision, time.Since(start))
	// The body was decoded into copies: its buffer takes the answer.
	buf.Reset()
	out := appendDecide(buf.AvailableBuffer(), resp)
	w.Header()["Content-Type"] = jsonType
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

var jsonType = []string{"application/json"}

// check checks a request's fields; the errors are a 400.
func (req *DecideRequest) check() error {
	switch {
	case req.Phase != "pre" && req.Phase != "post":
		return bad("phase %q is not one charter knows: use \"pre\" before the call runs, \"post\" after", cutStr(req.Phase))
	case req.Agent == "":
		return bad("agent is missing: name the bundle's agent whose call this is")
	case req.Tool == "":
		return bad("tool is missing: name the tool the agent calls")
	case req.Session == "" && req.History == nil:
		return bad("session is missing: name the session (the server keeps its calls), or send history (the calls so far) to keep it yourself")
	case req.Phase == "pre" && req.Result != nil:
		return bad("result is set on a pre call: the tool has not run yet; send it with phase post")
	}
	if req.Session != "" {
		if err := sessions.CheckID(req.Session); err != nil {
			return bad("%v", err)
		}
	}
	for i, h := range req.History {
		if h.Tool == "" {
			return bad("history[%d] has no tool", i)
		}
	}
	return nil
}

// Decide judges one call: the verdict, or a *badRequest for a request
// charter cannot read.
func (s *Server) Decide(req *DecideRequest) (*DecideResponse, error) {
	if err := req.check(); err != nil {
		return nil, err
	}
	phase := rules.Phase(req.Phase)
	call := rules.Call{Tool: req.Tool, Args: req.Input, Result: req.Result}
	resp := &DecideResponse{DecisionID: newID(), Agent: decisionlog.Agent{ID: req.Agent}}
	l, why := s.current()
	var v rules.Verdict
	switch {
	case l == nil:
		v = s.failure(phase, why)
	default:
		resp.Bundle = l.bundle
		v = s.judge(l, req, phase, call)
		resp.Agent = l.agent(req.Agent)
	}
	resp.Decision = decisionWord(v.Decision)
	resp.Rules = ruleList(v)
	resp.Warnings, resp.Reminders = v.Messages(rules.Warn), v.Messages(rules.Remind)
	resp.Errors, resp.Notes = v.Errors, v.Notes
	s.record(decisionlog.Record{DecisionID: resp.DecisionID, Time: time.Now().UTC(), Endpoint: "decide",
		Agent: resp.Agent, Bundle: resp.Bundle, Session: req.Session, Tool: req.Tool, Phase: req.Phase,
		Decision: resp.Decision, Rules: resp.Rules, Input: map[string]any(req.Input)})
	return resp, nil
}

// judge runs the engine on a checked request.
func (s *Server) judge(l *loaded, req *DecideRequest, phase rules.Phase, call rules.Call) rules.Verdict {
	if !model.IsSlug(req.Agent) || !l.judge.HasAgent(req.Agent) {
		return s.failure(phase, fmt.Sprintf("the bundle has no agent %q", cutStr(req.Agent)))
	}
	e, err := l.judge.Engine(req.Agent, "", "")
	if err != nil {
		return s.failure(phase, err.Error())
	}
	if req.History != nil {
		calls := make([]rules.Call, len(req.History))
		for i, h := range req.History {
			calls[i] = rules.Call{Tool: h.Tool, Args: h.Input, Result: h.Result}
		}
		return e.Evaluate(phase, call, sessions.FromHistory(calls))
	}
	var v rules.Verdict
	_, err = s.o.Sessions.Update(rules.AgentKey(req.Session, req.Agent), func(sess *rules.Session) error {
		v = e.Evaluate(phase, call, sess)
		if phase == rules.Post {
			sess.Record(call)
		}
		return nil
	})
	if err != nil {
		if s.o.OnError == rules.OnErrorAllow && phase == rules.Pre {
			v = e.Evaluate(phase, call, &rules.Session{})
			v.Notes = append(v.Notes, fmt.Sprintf("charter: the session could not be kept (%v); the call was judged without its history, as --fail-open says", err))
			return v
		}
		return s.failure(phase, err.Error())
	}
	return v
}

func cutStr(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		code = http.StatusInternalServerError
		b.Reset()
		b.WriteString(`{"error":"encoding the answer failed"}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

var _ = bundlefile.MaxSize
