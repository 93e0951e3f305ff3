// Package claudecode runs rule profiles as a Claude Code hook.
//
// Claude Code runs a hook command for each tool call, before it (PreToolUse)
// and after it (PostToolUse), with a JSON description of the call on
// standard input, and reads the hook's decision from standard output. A
// Handler is that command's body: it judges the call with a rules.Engine
// (the one of the agent the call is from: a subagent's calls carry its
// agent_type), keeps each agent's session in a state directory between
// calls (see rules.Store), and answers in Claude Code's hook protocol:
//
//   - PreToolUse, a block rule fired: permissionDecision "deny", with the
//     rules' messages as permissionDecisionReason (Claude Code shows it to
//     the model, which does not run the call);
//   - PreToolUse, an ask rule fired and no block rule: permissionDecision
//     "ask", so that Claude Code asks the user (claude -p, with no one to
//     ask, denies it); a PostToolUse for the call means the user approved,
//     and the approval is recorded in the session;
//   - PreToolUse, only warn rules fired: additionalContext with their
//     messages, and no permissionDecision, so that Claude Code's own
//     permission rules and prompts still apply ("allow" would skip them);
//   - PostToolUse, remind rules fired: additionalContext with their messages;
//     the call is recorded in the session (a denied call never reaches
//     PostToolUse, so it is never recorded);
//   - a rule that could not be evaluated, a note of the gate: systemMessage,
//     shown to the user;
//   - nothing to say: no output at all.
//
// The hook fails closed: input it cannot read, an agent it cannot find, a
// session it cannot keep, a rule that could block and errors: every such
// failure of a PreToolUse is answered "deny" with the reason, on exit 0
// (Claude Code lets a call through when a hook exits 1), unless the
// Handler's OnError says to let the call go on to Claude Code's own
// permission check. A failure on PostToolUse or SessionEnd, which decide
// nothing, is a systemMessage.
//
// Register the command for PreToolUse and PostToolUse with matcher "*"
// (every tool), and for SessionEnd; with "onFailure": "block" Claude Code
// also blocks the call when the hook cannot run at all.
package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charter-dev/charter/rules"
)

// The hook events a Handler understands.
const (
	PreToolUse  = "PreToolUse"
	PostToolUse = "PostToolUse"
	// SessionEnd deletes the session's state (and state that sessions
	// which never ended left for longer than StaleAfter).
	SessionEnd = "SessionEnd"
)

// StaleAfter is how long a session's state is kept without a call.
const StaleAfter = 7 * 24 * time.Hour

// Input is what Claude Code writes on a hook's standard input. Fields a
// Handler does not use are kept for callers.
type Input struct {
	SessionID      string         `json:"session_id"`
	TranscriptPath string         `json:"transcript_path,omitempty"`
	CWD            string         `json:"cwd,omitempty"`
	PermissionMode string         `json:"permission_mode,omitempty"`
	HookEventName  string         `json:"hook_event_name"`
	ToolName       string         `json:"tool_name"`
	ToolInput      map[string]any `json:"tool_input,omitempty"`
	// ToolResponse is set for PostToolUse only.
	ToolResponse any    `json:"tool_response,omitempty"`
	ToolUseID    string `json:"tool_use_id,omitempty"`
	// AgentID and AgentType are set when the call is a subagent's: its
	// instance and its name (the subagent file's name). AgentType alone is
	// set on the main thread of a session started with claude --agent.
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
}

// Output is what the hook writes on standard output.
type Output struct {
	HookSpecificOutput *HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
	// SystemMessage is shown to the user, not to the model.
	SystemMessage string `json:"systemMessage,omitempty"`
}

// HookSpecificOutput is the event-specific part of Output.
type HookSpecificOutput struct {
	HookEventName string `json:"hookEventName"`
	// PermissionDecision is "deny" for a blocked call and "ask" for a call
	// the user must approve (PreToolUse only); a Handler never answers
	// "allow", which would skip Claude Code's own permission checks.
	PermissionDecision string `json:"permissionDecision,omitempty"`
	// PermissionDecisionReason tells the model (deny) or the user (ask)
	// why.
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	// AdditionalContext is added to the model's context.
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// MaxInputBytes bounds the hook input a Handler reads; Claude Code's inputs
// are far smaller, even for large files. A larger input is denied.
const MaxInputBytes = 64 << 20

// ReadInput reads and checks one hook input.
func ReadInput(r io.Reader) (*Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading hook input: %w", err)
	}
	return parseInput(data)
}

func parseInput(data []byte) (*Input, error) {
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("hook input is larger than %d MiB, more than charter judges", MaxInputBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("hook input is empty; charter expects Claude Code's PreToolUse, PostToolUse or SessionEnd JSON on standard input")
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, fmt.Errorf("hook input: %s is %s, not %s; charter expects Claude Code's PreToolUse, PostToolUse or SessionEnd JSON", te.Field, te.Value, te.Type)
		}
		return nil, fmt.Errorf("hook input is not JSON charter can read (%w); charter expects Claude Code's PreToolUse, PostToolUse or SessionEnd JSON on standard input", err)
	}
	// encoding/json decodes null into a nil map without a word; null is
	// not the object of arguments Claude Code sends.
	var raw struct {
		ToolInput json.RawMessage `json:"tool_input"`
	}
	if json.Unmarshal(data, &raw) == nil && string(bytes.TrimSpace(raw.ToolInput)) == "null" {
		return nil, errors.New("hook input: tool_input is null, not an object; charter expects Claude Code's PreToolUse or PostToolUse JSON")
	}
	switch in.HookEventName {
	case PreToolUse, PostToolUse, SessionEnd:
	case "":
		return nil, errors.New("hook input has no hook_event_name; register charter for PreToolUse, PostToolUse and SessionEnd hooks only")
	default:
		return nil, &eventError{in.HookEventName}
	}
	if in.ToolName == "" && in.HookEventName != SessionEnd {
		return nil, errors.New("hook input has no tool_name; charter expects Claude Code's PreToolUse or PostToolUse JSON")
	}
	if in.SessionID == "" {
		return nil, errors.New("hook input has no session_id; charter needs it to keep the session between calls")
	}
	return &in, nil
}

// eventError is a hook event charter does not judge.
type eventError struct{ event string }

func (e *eventError) Error() string {
	return fmt.Sprintf("hook event %q is not one charter judges; register charter for PreToolUse, PostToolUse and SessionEnd hooks only", e.event)
}

// Handler answers Claude Code's hook calls.
type Handler struct {
	// Engine returns the engine that judges the calls of agentType, the
	// hook input's agent_type ("" on the main thread), with the gate of
	// the agent it stands for; note, when not empty, says something the
	// user should know (such as a subagent judged as another agent). An
	// error denies the call; a rules.NotDelegatedError (rules.Team.For:
	// an agent the session's agent may not start) denies it whatever
	// OnError says.
	Engine func(agentType string) (e *rules.Engine, note string, err error)
	// Store keeps the sessions: one per Claude Code session, and one per
	// subagent within it (rules.AgentKey).
	Store Sessions
	// OnError is what a PreToolUse gets that cannot be judged:
	// rules.OnErrorDeny (the default) denies it; rules.OnErrorAllow lets it
	// go on to Claude Code's own permission check, and says why on
	// systemMessage. Set the engines' OnError to match.
	OnError rules.OnError
	// Judged, when set, is told of every call judged: the input and the
	// verdict (for a decision log).
	Judged func(in *Input, v rules.Verdict)
}

// Sessions keeps the sessions a Handler judges calls in; *rules.Store
// (files, for a hook process per call) is one, charter serve's stores
// (memory, Redis) are others.
type Sessions interface {
	// Update runs fn on the session under key, and keeps what it left;
	// repaired says what of a damaged session was dropped.
	Update(key string, fn func(s *rules.Session) error) (repaired *rules.CorruptLinesError, err error)
	// Remove deletes the sessions of a Claude Code session.
	Remove(session string) error
	// Prune deletes the sessions idle for longer than age.
	Prune(age time.Duration) (int, error)
}

// Handle runs one hook call: it reads Claude Code's input from stdin,
// judges the call, keeps the session, and writes the answer (or nothing)
// to stdout. Every failure to judge is an answer (see the package doc);
// the error is only that of writing it.
func (h *Handler) Handle(stdin io.Reader, stdout io.Writer) error {
	data, err := io.ReadAll(io.LimitReader(stdin, MaxInputBytes+1))
	var out *Output
	if err != nil {
		out = h.Failure("", fmt.Errorf("reading hook input: %w", err))
	} else {
		out = h.Respond(data)
	}
	return Write(stdout, out)
}

// Respond judges one hook input and returns the answer to write; nil means
// no output. A panic within (a bug, in charter or in what the handler
// calls) is a failure to judge, answered as one: the hook answers even
// its own bug, and a runtime serving it over HTTP answers 200 with the
// deny, not a status whose body Claude Code ignores.
func (h *Handler) Respond(data []byte) (out *Output) {
	defer func() {
		if v := recover(); v != nil {
			out = h.Failure(sniffEvent(data), fmt.Errorf("internal error: %v", v))
		}
	}()
	in, err := parseInput(data)
	if err != nil {
		var ee *eventError
		if errors.As(err, &ee) {
			return &Output{SystemMessage: "charter: " + err.Error()}
		}
		return h.Failure(sniffEvent(data), err)
	}
	out, err = h.respond(in)
	var nd *rules.NotDelegatedError
	switch {
	case errors.As(err, &nd) && in.HookEventName == PreToolUse:
		// A verdict, not a failure: no on-error setting lets it through.
		return &Output{HookSpecificOutput: &HookSpecificOutput{
			HookEventName:            PreToolUse,
			PermissionDecision:       "deny",
			PermissionDecisionReason: "charter denies this call: " + nd.Error(),
		}}
	case err != nil:
		return h.Failure(in.HookEventName, err)
	}
	return out
}

var eventField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"hook_event_name"\s*:\s*"(\w+)"`) })

// sniffEvent finds the event of an input that does not decode.
func sniffEvent(data []byte) string {
	if m := eventField().FindSubmatch(data[:min(len(data), 1<<20)]); m != nil {
		return string(m[1])
	}
	return ""
}

// Failure is the answer to an input of event that could not be judged:
// for PreToolUse (or an input whose event is unknown) a deny, or with
// OnErrorAllow a systemMessage that lets the call go on; for other events,
// which decide nothing, a systemMessage.
func (h *Handler) Failure(event string, err error) *Output {
	msg := strings.TrimSuffix(err.Error(), ".")
	switch {
	case event != "" && event != PreToolUse:
		return &Output{SystemMessage: fmt.Sprintf("charter: %s", msg)}
	case h.OnError == rules.OnErrorAllow:
		return &Output{SystemMessage: fmt.Sprintf("charter could not judge this call (%s); it goes on to Claude Code's own permission check, as the hook's on-error setting (allow) says", msg)}
	}
	return &Output{HookSpecificOutput: &HookSpecificOutput{
		HookEventName:            PreToolUse,
		PermissionDecision:       "deny",
		PermissionDecisionReason: fmt.Sprintf("charter could not judge this call, so it is denied: %s", msg),
	}}
}

// respond judges a checked input.
func (h *Handler) respond(in *Input) (*Output, error) {
	if in.HookEventName == SessionEnd {
		err := h.Store.Remove(in.SessionID)
		if _, perr := h.Store.Prune(StaleAfter); err == nil {
			err = perr
		}
		if err != nil {
			return nil, fmt.Errorf("the session's state could not be deleted: %w", err)
		}
		return nil, nil
	}
	e, note, err := h.Engine(in.AgentType)
	if err != nil {
		return nil, err
	}
	phase := rules.Pre
	call := rules.Call{Tool: in.ToolName, Args: in.ToolInput, ID: in.ToolUseID}
	if in.HookEventName == PostToolUse {
		phase = rules.Post
		call.Result = in.ToolResponse
	}
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	var v rules.Verdict
	repaired, err := h.Store.Update(rules.AgentKey(in.SessionID, in.AgentID), func(s *rules.Session) error {
		v = e.Evaluate(phase, call, s)
		if phase == rules.Post {
			s.Record(call)
		}
		return nil
	})
	if err != nil {
		if phase != rules.Pre || h.OnError != rules.OnErrorAllow {
			return nil, fmt.Errorf("the session could not be kept: %w", err)
		}
		v = e.Evaluate(phase, call, &rules.Session{})
		notes = append(notes, fmt.Sprintf("charter: the session could not be kept (%v); the call was judged without its history, as the hook's on-error setting (allow) says", err))
	}

	if h.Judged != nil {
		h.Judged(in, v)
	}
	out := &Output{}
	notes = append(notes, v.Notes...)
	for _, re := range v.Errors {
		notes = append(notes, fmt.Sprintf("charter: rule %s could not be evaluated on this %s call, so it did not fire: %s", re.Rule, in.ToolName, re.Error))
	}
	if repaired != nil {
		notes = append(notes, fmt.Sprintf("charter: the saved session was damaged and has been repaired; %v", repaired))
	}
	out.SystemMessage = strings.Join(notes, "\n")

	switch phase {
	case rules.Pre:
		blocks, asks, warns := lines(v, rules.Block), lines(v, rules.Ask), lines(v, rules.Warn)
		switch {
		case v.Decision == rules.Blocked:
			out.HookSpecificOutput = &HookSpecificOutput{
				HookEventName:            PreToolUse,
				PermissionDecision:       "deny",
				PermissionDecisionReason: strings.Join(slices.Concat(blocks, asks, warns), "\n"),
			}
		case v.Decision == rules.Asked:
			out.HookSpecificOutput = &HookSpecificOutput{
				HookEventName:            PreToolUse,
				PermissionDecision:       "ask",
				PermissionDecisionReason: strings.Join(slices.Concat(asks, warns), "\n"),
			}
		case len(warns) > 0:
			out.HookSpecificOutput = &HookSpecificOutput{
				HookEventName:     PreToolUse,
				AdditionalContext: strings.Join(warns, "\n"),
			}
		}
	case rules.Post:
		if reminds := lines(v, rules.Remind); len(reminds) > 0 {
			out.HookSpecificOutput = &HookSpecificOutput{
				HookEventName:     PostToolUse,
				AdditionalContext: strings.Join(reminds, "\n"),
			}
		}
	}
	if out.HookSpecificOutput == nil && out.SystemMessage == "" {
		return nil, nil
	}
	return out, nil
}

// lines returns the messages of the fired rules with an action, each marked
// with its rule.
func lines(v rules.Verdict, a rules.Action) []string {
	var out []string
	for _, f := range v.Fired {
		if f.Action == a {
			out = append(out, fmt.Sprintf("%s (charter rule %s)", f.Message, f.Rule))
		}
	}
	return out
}

// Write writes an answer as one line of JSON; nil writes nothing.
func Write(w io.Writer, out *Output) error {
	if out == nil {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encoding hook output: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing hook output: %w", err)
	}
	return nil
}

// Handle runs one hook call with one engine for every agent, keeping
// sessions in stateDir: Handler.Handle with that engine.
func Handle(stdin io.Reader, stdout io.Writer, e *rules.Engine, stateDir string) error {
	return HandleStore(stdin, stdout, e, &rules.Store{Dir: stateDir})
}

// HandleStore is Handle with the session store given.
func HandleStore(stdin io.Reader, stdout io.Writer, e *rules.Engine, st *rules.Store) error {
	h := &Handler{Engine: func(string) (*rules.Engine, string, error) { return e, "", nil }, Store: st}
	return h.Handle(stdin, stdout)
}
