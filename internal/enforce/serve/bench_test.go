package serve

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charter-dev/charter/rules"
)

// BenchmarkDecide is one decision in process (Server.Decide: the
// request checked, the engine, the session store, the response) for
// marco, whose profile extends coding, on a session of 1,000 calls.
// Target: median at most 10 µs (docs/performance.md).
func BenchmarkDecide(b *testing.B) {
	s := New(context.Background(), Options{Bundle: golden})
	for i := range 1000 {
		tool, input := "read_file", map[string]any{"path": fmt.Sprintf("src/f%d.py", i%50)}
		if i%3 == 0 {
			tool, input = "run_bash", map[string]any{"command": fmt.Sprintf("python -m pytest tests/t%d.py", i%7)}
		}
		if _, err := s.Decide(&DecideRequest{Agent: "marco", Session: "bench", Phase: "post", Tool: tool, Input: input, Result: "ok"}); err != nil {
			b.Fatal(err)
		}
	}
	reqs := []*DecideRequest{
		{Agent: "marco", Session: "bench", Phase: "pre", Tool: "run_bash", Input: map[string]any{"command": "python -m pytest -q"}},
		{Agent: "marco", Session: "bench", Phase: "pre", Tool: "read_file", Input: map[string]any{"path": "src/app.py"}},
		{Agent: "marco", Session: "bench", Phase: "pre", Tool: "create_file", Input: map[string]any{"path": "src/new.py", "content": "x = 1\n"}},
	}
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r, err := s.Decide(reqs[i%len(reqs)])
		times = append(times, time.Since(t0))
		if err != nil || r.Decision == "" {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
	st, _ := s.o.Sessions.View(rules.AgentKey("bench", "marco"))
	if st.Len() != 1000 {
		b.Fatalf("the session has %d calls", st.Len())
	}
}

// BenchmarkDecideHTTP is one decision through the HTTP handler, in
// process (no socket): the body read and decoded, the decision, the
// answer encoded; marco on a session of 1,000 calls, as BenchmarkDecide.
func BenchmarkDecideHTTP(b *testing.B) {
	s := New(context.Background(), Options{Bundle: golden})
	h := s.Handler()
	post := func(body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/decide", strings.NewReader(body)))
		return w
	}
	for i := range 1000 {
		body := fmt.Sprintf(`{"agent":"marco","session":"bench","phase":"post","tool":"read_file","input":{"path":"src/f%d.py"},"result":"ok"}`, i%50)
		if i%3 == 0 {
			body = fmt.Sprintf(`{"agent":"marco","session":"bench","phase":"post","tool":"run_bash","input":{"command":"python -m pytest tests/t%d.py"},"result":"ok"}`, i%7)
		}
		if w := post(body); w.Code != 200 {
			b.Fatal(w.Body.String())
		}
	}
	bodies := []string{
		`{"agent":"marco","session":"bench","phase":"pre","tool":"run_bash","input":{"command":"python -m pytest -q"}}`,
		`{"agent":"marco","session":"bench","phase":"pre","tool":"read_file","input":{"path":"src/app.py"}}`,
		`{"agent":"marco","session":"bench","phase":"pre","tool":"create_file","input":{"path":"src/new.py","content":"x = 1\n"}}`,
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w := post(bodies[i%len(bodies)])
		i++
		if w.Code != 200 {
			b.Fatal(w.Body.String())
		}
	}
}
