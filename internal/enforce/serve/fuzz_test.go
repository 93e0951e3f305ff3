package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequests sends arbitrary bodies to every POST endpoint: no panic,
// and every answer is a decision (200) or a refusal (400, 413).
func FuzzRequests(f *testing.F) {
	for _, seed := range []string{
		`{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"rm -rf /"}}`,
		`{"agent":"marco","phase":"post","tool":"read_file","result":1,"history":[{"tool":"read_file"}]}`,
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"x"},"resource":{"type":"tool","id":"x"},"evaluations":[{},{"action":null}]}`,
		`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`[]`, `null`, `{"phase":1}`,
	} {
		f.Add(seed)
	}
	s := New(context.Background(), Options{Bundle: golden, MaxBody: 1 << 16})
	h := s.Handler()
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/v1/decide", "/access/v1/evaluation", "/access/v1/evaluations", "/v1/hooks/claude-code?agent=marco"} {
			req := httptest.NewRequest("POST", path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			switch w.Code {
			case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			default:
				t.Errorf("%s %q: status %d %s", path, body, w.Code, w.Body.Bytes())
			}
		}
	})
}
