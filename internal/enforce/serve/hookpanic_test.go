package serve

import (
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/rules"
)

// panicky is a session store with a bug.
type panicky struct{ sessions.Store }

func (panicky) Update(string, func(*rules.Session) error) (*rules.CorruptLinesError, error) {
	panic("a bug")
}

// An internal error on the Claude Code endpoint answered 500, whose body
// Claude Code ignores: a hook without "onFailure": "block" then runs the
// call. The command hook answers its own bug with a deny; over HTTP it is
// the same deny, with status 200 (and with --fail-open, no decision).
func TestClaudeCodeInternalErrorDenies(t *testing.T) {
	in := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"python x.py"}}`
	_, ts := start(t, Options{Sessions: panicky{sessions.NewMemory(sessions.Limits{})}})
	code, b := post(t, ts.URL+"/v1/hooks/claude-code?agent=marco", in)
	if code != 200 || !strings.Contains(string(b), `"permissionDecision":"deny"`) || !strings.Contains(string(b), "internal error") {
		t.Errorf("a bug in the server: %d %s, want 200 and a deny", code, b)
	}
	_, open := start(t, Options{Sessions: panicky{sessions.NewMemory(sessions.Limits{})}, OnError: rules.OnErrorAllow})
	code, b = post(t, open.URL+"/v1/hooks/claude-code?agent=marco", in)
	if code != 200 || strings.Contains(string(b), "permissionDecision") || !strings.Contains(string(b), "internal error") {
		t.Errorf("a bug in the server, --fail-open: %d %s, want 200 and no decision", code, b)
	}
}
