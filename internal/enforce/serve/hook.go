package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/rules"
	"github.com/charter-dev/charter/rules/claudecode"
)

// handleClaudeCode answers Claude Code's HTTP hook: the body is the hook
// input a command hook reads on stdin, the answer the JSON it would
// print (an empty object when it prints nothing), always with status 200
// when charter decided: Claude Code ignores the body of any other status
// (and, with "onFailure": "block", blocks the call).
func (s *Server) handleClaudeCode(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	agent := r.URL.Query().Get("agent")
	h := &claudecode.Handler{Store: s.o.Sessions, OnError: s.o.OnError}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			err = fmt.Errorf("the hook input is larger than %d bytes, the most charter serve reads (--max-body)", mb.Limit)
		}
		s.answerHook(w, h.Failure(claudecode.PreToolUse, err), "deny", start)
		return
	}
	// JSON that is not valid, Respond refuses with its own reason.
	if json.Valid(data) {
		if err := checkHookInput(data); err != nil {
			var ev struct {
				Event string `json:"hook_event_name"`
			}
			_ = json.Unmarshal(data, &ev)
			if checkMembers(data) != nil {
				// Claude Code never sends a member twice, and the event
				// may be one of them: which one a gateway in front
				// read is unknown, so the answer is PreToolUse's.
				ev.Event = ""
			}
			out := h.Failure(ev.Event, fmt.Errorf("the hook input is not what Claude Code sends: %v", err))
			if ev.Event == "" || ev.Event == claudecode.PreToolUse {
				// Logged as a call no engine judged; its ids, being
				// what was refused, are left out.
				var b decisionlog.Bundle
				if l := s.cur.Load(); l != nil {
					b = l.bundle
				}
				rec := decisionlog.Record{DecisionID: newID(), Time: time.Now().UTC(), Endpoint: "claude-code", Agent: decisionlog.Agent{ID: agent},
					Bundle: b, Phase: "pre", Decision: "allow", Rules: []decisionlog.Rule{}, Reason: err.Error()}
				if out.HookSpecificOutput != nil {
					rec.Decision = "deny"
					rec.Rules = append(rec.Rules, decisionlog.Rule{Rule: rules.FailClosedRule, Action: string(rules.Block), Message: out.HookSpecificOutput.PermissionDecisionReason})
					rec.Reason = ""
				}
				s.record(rec)
			}
			s.answerHook(w, out, "deny", start)
			return
		}
	}
	l, why := s.current()
	decision := "allow"
	// judged is set when an engine judged the call (Judged records it);
	// engineErr is why none could.
	judged, engineErr := false, error(nil)
	if l == nil {
		h.Engine = func(string) (*rules.Engine, string, error) {
			engineErr = errors.New(why)
			return nil, "", engineErr
		}
	} else {
		source := l.judge.Source(agent, "", "claude-code")
		h.Engine = func(agentType string) (e *rules.Engine, note string, err error) {
			defer func() { engineErr = err }()
			switch {
			case agent == "" && agentType != "":
				return nil, "", fmt.Errorf("the call comes from %s, and the hook's url names no agent (?agent=ID)", cutStr(agentType))
			case agent == "":
				return nil, "", errors.New("the hook's url names no agent: add ?agent=ID to it (or start claude with --agent naming a bundle agent)")
			case !model.IsSlug(agent) || !l.judge.HasAgent(agent):
				return nil, "", fmt.Errorf("the bundle has no agent %q", cutStr(agent))
			}
			return source(agentType)
		}
		h.Judged = func(in *claudecode.Input, v rules.Verdict) {
			judged = true
			id := l.judge.Resolve(agent, in.AgentType)
			decision = decisionWord(v.Decision)
			phase := "pre"
			if in.HookEventName == claudecode.PostToolUse {
				phase = "post"
			}
			s.record(decisionlog.Record{DecisionID: newID(), Time: time.Now().UTC(), Endpoint: "claude-code",
				Agent: l.agent(id), Bundle: l.bundle, Session: in.SessionID, Tool: in.ToolName, Phase: phase,
				Decision: decision, Rules: ruleList(v), Input: in.ToolInput})
		}
	}
	out := h.Respond(data)
	if out != nil && out.HookSpecificOutput != nil && out.HookSpecificOutput.PermissionDecision == "deny" {
		decision = "deny"
	}
	if !judged && engineErr != nil {
		s.recordUnjudged(l, agent, data, decision, out, engineErr)
	}
	s.answerHook(w, out, decision, start)
}

// checkHookInput refuses, in valid JSON, a member given twice
// (checkMembers) and a session_id or agent_id that is not an id
// sessions.CheckID admits, as /v1/decide's session is: the store keys
// sessions by the two (rules.AgentKey joins them with NUL, Redis within
// charter:sess:{ID}:AGENT), so an id holding NUL, braces or colons named
// another pair's session, and one of a megabyte was a key kept for a day.
// Claude Code's ids (a UUID; "a" and 16 hex digits) are such ids.
func checkHookInput(data []byte) error {
	if err := checkMembers(data); err != nil {
		return err
	}
	var ids struct {
		SessionID string `json:"session_id"`
		AgentID   string `json:"agent_id"`
	}
	_ = json.Unmarshal(data, &ids)
	if ids.SessionID != "" {
		if err := sessions.CheckID(ids.SessionID); err != nil {
			return fmt.Errorf("session_id: %v", err)
		}
	}
	if ids.AgentID != "" {
		if err := sessions.CheckID(ids.AgentID); err != nil {
			return fmt.Errorf("agent_id (an agent's id within the session): %v", err)
		}
	}
	return nil
}

// recordUnjudged logs a PreToolUse call no engine judged, as /v1/decide
// logs its failures: denied because the call comes from an agent the
// session's agent may not start (rule can_delegate_to), or because
// charter could not judge it (fail_closed; with --fail-open, allowed).
func (s *Server) recordUnjudged(l *loaded, agent string, data []byte, decision string, out *claudecode.Output, why error) {
	var in claudecode.Input
	if json.Unmarshal(data, &in) != nil || in.HookEventName != claudecode.PreToolUse {
		return
	}
	rec := decisionlog.Record{DecisionID: newID(), Time: time.Now().UTC(), Endpoint: "claude-code",
		Agent: decisionlog.Agent{ID: agent}, Session: in.SessionID, Tool: in.ToolName, Phase: "pre",
		Decision: decision, Rules: []decisionlog.Rule{}, Input: in.ToolInput}
	if l != nil {
		rec.Bundle = l.bundle
		if model.IsSlug(agent) && l.judge.HasAgent(agent) {
			rec.Agent = l.agent(agent)
		}
	}
	var nd *rules.NotDelegatedError
	switch {
	case errors.As(why, &nd):
		rec.Rules = append(rec.Rules, decisionlog.Rule{Rule: rules.DelegationRule, Action: string(rules.Block), Message: nd.Error()})
	case decision == "deny":
		rec.Rules = append(rec.Rules, decisionlog.Rule{Rule: rules.FailClosedRule, Action: string(rules.Block), Message: out.HookSpecificOutput.PermissionDecisionReason})
	default:
		rec.Reason = why.Error()
	}
	s.record(rec)
}

func (s *Server) answerHook(w http.ResponseWriter, out *claudecode.Output, decision string, start time.Time) {
	s.metrics.decided("claude-code", decision, time.Since(start))
	if out == nil {
		writeJSON(w, http.StatusOK, struct{}{})
		return
	}
	writeJSON(w, http.StatusOK, out)
}
