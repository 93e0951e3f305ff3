// Package claudecode runs a rule profile as a Claude Code hook.
//
// Claude Code runs a hook command for each tool call, before it (PreToolUse)
// and after it (PostToolUse), with a JSON description of the call on
// standard input, and reads the hook's decision from standard output. Handle
// is that command's body: it judges the call with a rules.Engine, keeps the
// session in a state directory between calls (one file per Claude Code
// session, see rules.Store), and answers in Claude Code's hook protocol:
//
//   - PreToolUse, a block rule fired: permissionDecision "deny", with the
//     rules' messages as permissionDecisionReason (Claude Code shows it to
//     the model, which does not run the call);
//   - PreToolUse, only warn rules fired: additionalContext with their
//     messages, and no permissionDecision, so that Claude Code's own
//     permission rules and prompts still apply ("allow" would skip them);
//   - PostToolUse, remind rules fired: additionalContext with their messages;
//     the call is recorded in the session (a denied call never reaches
//     PostToolUse, so it is never recorded);
//   - a rule that could not be evaluated: systemMessage, shown to the user;
//   - nothing to say: no output at all.
//
// Register the command for both events with matcher "*" (every tool).
package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/charter-dev/charter/rules"
)

// The hook events Handle understands.
const (
	PreToolUse  = "PreToolUse"
	PostToolUse = "PostToolUse"
	// SessionEnd deletes the session's state (and state that sessions
	// which never ended left for longer than StaleAfter).
	SessionEnd = "SessionEnd"
)

// StaleAfter is how long a session's state is kept without a call.
const StaleAfter = 7 * 24 * time.Hour

// Input is what Claude Code writes on a PreToolUse or PostToolUse hook's
// standard input. Fields Handle does not use are kept for callers.
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
	// PermissionDecision is "deny" for a blocked call (PreToolUse only);
	// Handle never answers "allow" or "ask".
	PermissionDecision string `json:"permissionDecision,omitempty"`
	// PermissionDecisionReason tells the model why the call was denied.
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	// AdditionalContext is added to the model's context.
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// MaxInputBytes bounds the hook input Handle reads; Claude Code's inputs are
// far smaller, even for large files.
const MaxInputBytes = 64 << 20

// ReadInput reads and checks one hook input.
func ReadInput(r io.Reader) (*Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading hook input: %w", err)
	}
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("hook input is larger than %d MiB; charter reads one PreToolUse or PostToolUse event from Claude Code", MaxInputBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("hook input is empty; charter expects Claude Code's PreToolUse or PostToolUse JSON on standard input")
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, fmt.Errorf("hook input: %s is %s, not %s; charter expects Claude Code's PreToolUse or PostToolUse JSON", te.Field, te.Value, te.Type)
		}
		return nil, fmt.Errorf("hook input is not JSON (%w); charter expects Claude Code's PreToolUse or PostToolUse JSON on standard input", err)
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
		return nil, fmt.Errorf("hook event %q is not supported; register charter for PreToolUse, PostToolUse and SessionEnd hooks only", in.HookEventName)
	}
	if in.ToolName == "" && in.HookEventName != SessionEnd {
		return nil, errors.New("hook input has no tool_name; charter expects Claude Code's PreToolUse or PostToolUse JSON")
	}
	if in.SessionID == "" {
		return nil, errors.New("hook input has no session_id; charter needs it to keep the session between calls")
	}
	return &in, nil
}

// Respond judges one hook input with the engine, updating the session kept
// in the store, and returns the output to write; nil means no output.
func Respond(in *Input, e *rules.Engine, st *rules.Store) (*Output, error) {
	if in.HookEventName == SessionEnd {
		if err := st.Remove(in.SessionID); err != nil {
			return nil, err
		}
		_, err := st.Prune(StaleAfter)
		return nil, err
	}
	phase := rules.Pre
	call := rules.Call{Tool: in.ToolName, Args: in.ToolInput}
	if in.HookEventName == PostToolUse {
		phase = rules.Post
		call.Result = in.ToolResponse
	}
	var v rules.Verdict
	repaired, err := st.Update(in.SessionID, func(s *rules.Session) error {
		v = e.Evaluate(phase, call, s)
		if phase == rules.Post {
			s.Record(call)
		}
		return nil
	})
	var notes []string
	if err != nil {
		// What the agent may call needs no session: a call outside it
		// is denied even when the session cannot be kept. Anything else
		// is the hook's failure, and the call proceeds.
		if phase != rules.Pre {
			return nil, err
		}
		v = e.Evaluate(phase, call, &rules.Session{})
		if !gated(v) {
			return nil, err
		}
		v.Fired = slices.DeleteFunc(v.Fired, func(f rules.Firing) bool { return f.Rule != rules.GateRule })
		notes = append(notes, fmt.Sprintf("charter: the session could not be kept (%v); the call is denied by what the agent may call, which needs none", err))
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
		blocks, warns := lines(v, rules.Block), lines(v, rules.Warn)
		if len(blocks) > 0 {
			out.HookSpecificOutput = &HookSpecificOutput{
				HookEventName:            PreToolUse,
				PermissionDecision:       "deny",
				PermissionDecisionReason: strings.Join(append(blocks, warns...), "\n"),
			}
		} else if len(warns) > 0 {
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
// gated reports whether the agent's gate blocked the call.
func gated(v rules.Verdict) bool {
	return v.Decision == rules.Blocked && slices.ContainsFunc(v.Fired, func(f rules.Firing) bool { return f.Rule == rules.GateRule })
}

func lines(v rules.Verdict, a rules.Action) []string {
	var out []string
	for _, f := range v.Fired {
		if f.Action == a {
			out = append(out, fmt.Sprintf("%s (charter rule %s)", f.Message, f.Rule))
		}
	}
	return out
}

// Handle runs one hook call: it reads Claude Code's input from stdin, judges
// the call with the engine, keeps the session in stateDir, and writes the
// answer (or nothing) to stdout. The error says what was wrong with the
// input or the state directory; the caller prints it and exits non-zero
// (Claude Code then shows it and lets the call proceed).
func Handle(stdin io.Reader, stdout io.Writer, e *rules.Engine, stateDir string) error {
	return HandleStore(stdin, stdout, e, &rules.Store{Dir: stateDir})
}

// HandleStore is Handle with the session store given.
func HandleStore(stdin io.Reader, stdout io.Writer, e *rules.Engine, st *rules.Store) error {
	in, err := ReadInput(stdin)
	if err != nil {
		return err
	}
	out, err := Respond(in, e, st)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encoding hook output: %w", err)
	}
	if _, err := stdout.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing hook output: %w", err)
	}
	return nil
}
