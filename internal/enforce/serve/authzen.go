package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/rules"
)

// AuthZEN Authorization API 1.0 (OpenID, January 2026), mapped onto
// charter: the subject is the agent ({"type":"agent","id":ID}), the
// action the tool ({"name":TOOL}), the resource the tool
// ({"type":"tool","id":TOOL}, optional in meaning: action.name decides),
// and the context holds what else the call carries: "session" (a session
// the server keeps, read but never changed: the spec wants the same
// request to get the same decision), "input" (the tool's arguments) and
// "history" (earlier calls, as in /v1/decide). Every evaluation is phase
// pre. decision is true only for allow; ask is false, with
// context.decision "ask".

type azEntity struct {
	Type       *string        `json:"type"`
	ID         *string        `json:"id"`
	Properties map[string]any `json:"properties,omitempty"`
}

type azAction struct {
	Name       *string        `json:"name"`
	Properties map[string]any `json:"properties,omitempty"`
}

type azRequest struct {
	Subject  *azEntity      `json:"subject"`
	Action   *azAction      `json:"action"`
	Resource *azEntity      `json:"resource"`
	Context  map[string]any `json:"context"`
}

type azBatch struct {
	azRequest
	Options     map[string]any    `json:"options"`
	Evaluations []json.RawMessage `json:"evaluations"`
}

type azResult struct {
	Decision bool           `json:"decision"`
	Context  map[string]any `json:"context,omitempty"`
}

// echoRequestID returns the PEP's X-Request-ID, as the spec says a PDP
// must.
func echoRequestID(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get("X-Request-ID"); id != "" {
		w.Header()["X-Request-ID"] = []string{id}
	}
}

func (s *Server) handleEvaluation(w http.ResponseWriter, r *http.Request) {
	echoRequestID(w, r)
	start := time.Now()
	var req azRequest
	if err := readAuthZEN(r, &req); err != nil {
		s.metrics.rejected("authzen")
		writeError(w, err)
		return
	}
	if err := req.check(""); err != nil {
		s.metrics.rejected("authzen")
		writeError(w, err)
		return
	}
	res := s.evaluate(&req)
	s.metrics.decided("authzen", authzenWord(res), time.Since(start))
	writeJSON(w, http.StatusOK, res)
}

func authzenWord(res azResult) string {
	if d, ok := res.Context["decision"].(string); ok {
		return d
	}
	if res.Decision {
		return "allow"
	}
	return "deny"
}

// readAuthZEN reads a body that must be one JSON object (Content-Type
// application/json); unknown members are ignored, as the spec says.
func readAuthZEN(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return bad("the body must be JSON with Content-Type: application/json (AuthZEN 1.0 §10.1), not %q", ct)
	}
	return readBody(r, v, false)
}

// check checks the members a request must have; where is "" at the top
// level, or "evaluations[i]".
func (req *azRequest) check(where string) error {
	at := func(f string) string {
		if where == "" {
			return f
		}
		return where + "." + f
	}
	switch {
	case req.Subject == nil:
		return bad("%s is missing", at("subject"))
	case req.Subject.Type == nil || req.Subject.ID == nil:
		return bad("%s needs type and id (strings)", at("subject"))
	case req.Action == nil:
		return bad("%s is missing", at("action"))
	case req.Action.Name == nil:
		return bad("%s needs name (a string)", at("action"))
	case req.Resource == nil:
		return bad("%s is missing", at("resource"))
	case req.Resource.Type == nil || req.Resource.ID == nil:
		return bad("%s needs type and id (strings)", at("resource"))
	}
	return nil
}

// evaluate judges one checked AuthZEN request, changing no session.
func (s *Server) evaluate(req *azRequest) azResult {
	tool := *req.Action.Name
	agent := *req.Subject.ID
	// deny refuses a request charter does not judge, and logs it as the
	// decisions are logged: a refusal is a decision too.
	deny := func(reason string) azResult {
		id := newID()
		session, _ := req.Context["session"].(string)
		var b decisionlog.Bundle
		if l := s.cur.Load(); l != nil {
			b = l.bundle
		}
		s.record(decisionlog.Record{DecisionID: id, Time: time.Now().UTC(), Endpoint: "authzen", Agent: decisionlog.Agent{ID: agent},
			Bundle: b, Session: session, Tool: tool, Phase: "pre", Decision: "deny", Rules: []decisionlog.Rule{}, Reason: reason})
		return azResult{Decision: false, Context: map[string]any{"decision": "deny", "reason_admin": map[string]string{"en": reason}, "decision_id": id}}
	}
	// The call's arguments are read from context.input alone: what else
	// names what the call touches (a file resource, properties of the
	// action or of the tool) would go unjudged, the call judged as made
	// without it, so it is a refusal.
	const where = "; charter reads a call's arguments from context.input only: send {\"resource\": {\"type\": \"tool\", \"id\": TOOL}, \"context\": {\"input\": {ARGUMENTS}}}"
	switch {
	case *req.Subject.Type != "agent":
		return deny(fmt.Sprintf("charter judges agents: subject.type is %q, not \"agent\"", cutStr(*req.Subject.Type)))
	case *req.Resource.Type != "tool":
		return deny(fmt.Sprintf("charter judges tool calls: resource.type %q is not \"tool\", and what it names would go unjudged%s", cutStr(*req.Resource.Type), where))
	case *req.Resource.ID != tool:
		return deny(fmt.Sprintf("resource.id %q is not the tool action.name calls (%q)", cutStr(*req.Resource.ID), cutStr(tool)))
	case len(req.Action.Properties) > 0:
		return deny("action.properties would go unjudged" + where)
	case len(req.Resource.Properties) > 0:
		return deny("resource.properties would go unjudged" + where)
	}
	input, _ := req.Context["input"].(map[string]any)
	if v, ok := req.Context["input"]; ok && input == nil && v != nil {
		return deny("context.input is not an object of the tool's arguments")
	}
	if v, ok := req.Context["session"]; ok && v != nil {
		if _, isString := v.(string); !isString {
			return deny("context.session is not a string: name the session whose calls the call is judged with")
		}
	}
	l, why := s.current()
	var v rules.Verdict
	var bundleInfo decisionlog.Bundle
	agentInfo := decisionlog.Agent{ID: agent}
	session, _ := req.Context["session"].(string)
	switch {
	case l == nil:
		v = s.failure(rules.Pre, why)
	case !model.IsSlug(agent) || !l.judge.HasAgent(agent):
		bundleInfo = l.bundle
		v = s.failure(rules.Pre, fmt.Sprintf("the bundle has no agent %q", cutStr(agent)))
	default:
		bundleInfo, agentInfo = l.bundle, l.agent(agent)
		v = s.evaluateOn(l, agent, tool, input, session, req.Context["history"])
	}
	res := azResult{Decision: v.Decision == rules.Allowed, Context: map[string]any{
		"decision":    decisionWord(v.Decision),
		"rules":       ruleList(v),
		"agent":       agentInfo,
		"bundle":      bundleInfo,
		"decision_id": newID(),
	}}
	if msgs := v.Messages(rules.Block); len(msgs) > 0 {
		res.Context["reason_user"] = map[string]string{"en": strings.Join(msgs, "\n")}
	} else if msgs := v.Messages(rules.Ask); len(msgs) > 0 {
		res.Context["reason_user"] = map[string]string{"en": strings.Join(msgs, "\n")}
	}
	if w := v.Messages(rules.Warn); len(w) > 0 {
		res.Context["warnings"] = w
	}
	s.record(decisionlog.Record{DecisionID: res.Context["decision_id"].(string), Time: time.Now().UTC(), Endpoint: "authzen",
		Agent: agentInfo, Bundle: bundleInfo, Session: session, Tool: tool, Phase: "pre",
		Decision: decisionWord(v.Decision), Rules: ruleList(v), Input: map[string]any(input)})
	return res
}

func (s *Server) evaluateOn(l *loaded, agent, tool string, input map[string]any, session string, history any) rules.Verdict {
	e, err := l.judge.Engine(agent, "", "")
	if err != nil {
		return s.failure(rules.Pre, err.Error())
	}
	call := rules.Call{Tool: tool, Args: input}
	var sess *rules.Session
	switch {
	case history != nil:
		b, _ := json.Marshal(history)
		var hs []HistoryCall
		if err := json.Unmarshal(b, &hs); err != nil {
			return s.failure(rules.Pre, "context.history is not a list of calls ({tool, input, result})")
		}
		calls := make([]rules.Call, len(hs))
		for i, h := range hs {
			calls[i] = rules.Call{Tool: h.Tool, Args: h.Input, Result: h.Result}
		}
		sess = sessions.FromHistory(calls)
	case session != "":
		if err := sessions.CheckID(session); err != nil {
			return s.failure(rules.Pre, err.Error())
		}
		if sess, err = s.o.Sessions.View(rules.AgentKey(session, agent)); err != nil {
			return s.failure(rules.Pre, err.Error())
		}
	}
	return e.Evaluate(rules.Pre, call, sess)
}

// MaxEvaluations is the most evaluations one batch may hold: each is a
// judgement and a decision log record, and the answer is held whole, so
// an unbounded batch (three bytes an item) let one request take minutes
// of a core and gigabytes of memory.
const MaxEvaluations = 1000

// The three semantics of a batch (AuthZEN 1.0 §7.1.2.1).
const (
	executeAll          = "execute_all"
	denyOnFirstDeny     = "deny_on_first_deny"
	permitOnFirstPermit = "permit_on_first_permit"
)

func (s *Server) handleEvaluations(w http.ResponseWriter, r *http.Request) {
	echoRequestID(w, r)
	start := time.Now()
	var req azBatch
	if err := readAuthZEN(r, &req); err != nil {
		s.metrics.rejected("authzen")
		writeError(w, err)
		return
	}
	semantic := executeAll
	if v, ok := req.Options["evaluations_semantic"]; ok {
		str, _ := v.(string)
		switch str {
		case executeAll, denyOnFirstDeny, permitOnFirstPermit:
			semantic = str
		default:
			s.metrics.rejected("authzen")
			httpError(w, http.StatusBadRequest, fmt.Sprintf("options.evaluations_semantic %v is not one of execute_all, deny_on_first_deny, permit_on_first_permit", v))
			return
		}
	}
	if len(req.Evaluations) > MaxEvaluations {
		s.metrics.rejected("authzen")
		httpError(w, http.StatusBadRequest, fmt.Sprintf("the batch holds %d evaluations, more than the %d charter judges in one request: send it in parts", len(req.Evaluations), MaxEvaluations))
		return
	}
	if len(req.Evaluations) == 0 {
		// No evaluations: the single request, and its answer (§7.1).
		if err := req.azRequest.check(""); err != nil {
			s.metrics.rejected("authzen")
			writeError(w, err)
			return
		}
		res := s.evaluate(&req.azRequest)
		s.metrics.decided("authzen", authzenWord(res), time.Since(start))
		writeJSON(w, http.StatusOK, res)
		return
	}
	out := struct {
		Evaluations []azResult `json:"evaluations"`
	}{Evaluations: []azResult{}}
	for i, raw := range req.Evaluations {
		item, err := req.item(raw)
		var res azResult
		if err == nil {
			err = item.check(fmt.Sprintf("evaluations[%d]", i))
		}
		if err != nil {
			// An error in one item is its decision false (§7.2, §12).
			res = azResult{Decision: false, Context: map[string]any{"error": map[string]any{"status": 400, "message": err.Error()}}}
		} else {
			res = s.evaluate(item)
		}
		out.Evaluations = append(out.Evaluations, res)
		if (semantic == denyOnFirstDeny && !res.Decision) || (semantic == permitOnFirstPermit && res.Decision) {
			break
		}
	}
	s.metrics.decided("authzen", "batch", time.Since(start))
	writeJSON(w, http.StatusOK, out)
}

// item is one evaluation of a batch: its members, each missing one
// taken whole from the batch's defaults (no merging, §7.1.1).
func (b *azBatch) item(raw json.RawMessage) (*azRequest, error) {
	var it azRequest
	if err := json.Unmarshal(raw, &it); err != nil {
		return nil, bad("not an evaluation object: %v", err)
	}
	if it.Subject == nil {
		it.Subject = b.Subject
	}
	if it.Action == nil {
		it.Action = b.Action
	}
	if it.Resource == nil {
		it.Resource = b.Resource
	}
	if it.Context == nil {
		it.Context = b.Context
	}
	return &it, nil
}

// handleDiscovery serves the PDP metadata (§9).
func (s *Server) handleDiscovery(w http.ResponseWriter, r *http.Request) {
	base := strings.TrimSuffix(s.o.PublicURL, "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	writeJSON(w, http.StatusOK, map[string]string{
		"policy_decision_point":       base,
		"access_evaluation_endpoint":  base + "/access/v1/evaluation",
		"access_evaluations_endpoint": base + "/access/v1/evaluations",
	})
}
