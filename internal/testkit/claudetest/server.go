// Package claudetest runs the real Claude Code binary in tests, offline: a
// scripted Anthropic Messages API on loopback plays the model, one
// scripted turn per request, and Run starts `claude -p ... --output-format
// stream-json --verbose` in a temporary HOME and project with the settings,
// subagents and files a test gives, and returns its events.
//
// The binary is the one @anthropic-ai/claude-agent-sdk installs (pinned in
// internal/testkit/npmtools/package.json; npm install --no-save --prefix
// internal/testkit/npmtools). A test that needs it and does not find it
// skips, except in CI, where it fails (realtool).
package claudetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Script is what the scripted model does: each request of Claude Code
// takes the next step meant for it, and a request with no step left gets
// DefaultText (the end of the turn).
type Script struct {
	Steps []Step `json:"steps"`
	// DefaultText ends a turn with no step left ("Done." when empty).
	DefaultText string `json:"default_text,omitempty"`
}

// Step is one model turn: text, then tool calls (several run in parallel).
type Step struct {
	// When, when set, is a marker that the request's system prompt or
	// first message holds: a subagent's step (put the marker in the
	// subagent's prompt). Steps without one are the main thread's, which
	// a request holding any step's marker never takes.
	When    string    `json:"when,omitempty"`
	Text    string    `json:"text,omitempty"`
	ToolUse []ToolUse `json:"tool_use,omitempty"`
}

// ToolUse is one tool call of a step.
type ToolUse struct {
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// Request is what the server received, for assertions.
type Request struct {
	// Key is the system prompt and the first message's text, as the
	// step's When markers are matched against.
	Key string
	// Tools are the names of the tools offered.
	Tools []string
	// Step is the index of the step the request took, -1 for none.
	Step int
}

// Server is a scripted Messages API on loopback.
type Server struct {
	// URL is the server's base URL (ANTHROPIC_BASE_URL).
	URL string

	script   Script
	mu       sync.Mutex
	next     int // requests served, for unique ids
	used     []bool
	requests []Request
	srv      *http.Server
	ln       net.Listener
}

// NewServer starts a scripted server on 127.0.0.1; Close stops it.
func NewServer(s Script) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	sv := &Server{URL: "http://" + ln.Addr().String(), script: s, used: make([]bool, len(s.Steps)), ln: ln}
	sv.srv = &http.Server{Handler: http.HandlerFunc(sv.serve)}
	go sv.srv.Serve(ln)
	return sv, nil
}

// Close stops the server.
func (sv *Server) Close() error { return sv.srv.Close() }

// Requests returns the requests received so far.
func (sv *Server) Requests() []Request {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return append([]Request(nil), sv.requests...)
}

// messagesRequest is the part of a Messages API request the server reads.
type messagesRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	System   json.RawMessage   `json:"system"`
	Messages []json.RawMessage `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

func (sv *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"the scripted model serves POST /v1/messages only"}}`, http.StatusNotFound)
		return
	}
	var req messagesRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<20)).Decode(&req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"not JSON"}}`, http.StatusBadRequest)
		return
	}
	key := string(req.System)
	if len(req.Messages) > 0 {
		key += string(req.Messages[0])
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
	}

	sv.mu.Lock()
	sv.next++
	n := sv.next
	step := -1
	if len(tools) > 0 {
		step = sv.pick(key)
	}
	sv.requests = append(sv.requests, Request{Key: key, Tools: tools, Step: step})
	var st Step
	if step >= 0 {
		st = sv.script.Steps[step]
	} else {
		st.Text = sv.script.DefaultText
		if st.Text == "" {
			st.Text = "Done."
		}
	}
	sv.mu.Unlock()

	model := req.Model
	if model == "" {
		model = "claude-scripted"
	}
	if req.Stream {
		writeStream(w, n, model, st)
	} else {
		writeMessage(w, n, model, st)
	}
}

// pick takes the next unused step meant for a request with key: a
// subagent's (its marker in the key) or the main thread's.
func (sv *Server) pick(key string) int {
	marked := false
	for _, s := range sv.script.Steps {
		if s.When != "" && strings.Contains(key, s.When) {
			marked = true
		}
	}
	for i, s := range sv.script.Steps {
		if sv.used[i] {
			continue
		}
		if marked && s.When != "" && strings.Contains(key, s.When) || !marked && s.When == "" {
			sv.used[i] = true
			return i
		}
	}
	return -1
}

// content is a step as content blocks, with unique tool_use ids.
func content(n int, st Step) []map[string]any {
	var out []map[string]any
	if st.Text != "" || len(st.ToolUse) == 0 {
		text := st.Text
		if text == "" {
			text = "Done."
		}
		out = append(out, map[string]any{"type": "text", "text": text})
	}
	for i, tu := range st.ToolUse {
		input := tu.Input
		if input == nil {
			input = map[string]any{}
		}
		out = append(out, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_scripted_%d_%d", n, i), "name": tu.Name, "input": input})
	}
	return out
}

func stopReason(st Step) string {
	if len(st.ToolUse) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

var usage = map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

// writeMessage answers a request that does not stream.
func writeMessage(w http.ResponseWriter, n int, model string, st Step) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprintf("msg_scripted_%d", n), "type": "message", "role": "assistant", "model": model,
		"content": content(n, st), "stop_reason": stopReason(st), "stop_sequence": nil, "usage": usage,
	})
}

// writeStream answers a streaming request with the server-sent events of
// the Messages API.
func writeStream(w http.ResponseWriter, n int, model string, st Step) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	bw := bufio.NewWriter(w)
	event := func(name string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_scripted_%d", n), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	for i, block := range content(n, st) {
		switch block["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		case "tool_use":
			input, _ := json.Marshal(block["input"])
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason(st), "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	event("message_stop", map[string]any{"type": "message_stop"})
	bw.Flush()
}
