package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The cases follow the examples of AuthZEN Authorization API 1.0
// (openid.net/specs/authorization-api-1_0.html) and its certification
// scenario, with charter's subjects (agents) and actions (tools) in
// place of the spec's users and documents.

type azResp struct {
	Decision    *bool           `json:"decision"`
	Context     map[string]any  `json:"context"`
	Evaluations []azRespSingle  `json:"evaluations"`
	Raw         json.RawMessage `json:"-"`
}

type azRespSingle struct {
	Decision bool           `json:"decision"`
	Context  map[string]any `json:"context"`
}

func authzen(t *testing.T, url, path, body string, header ...string) (int, azResp, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r azResp
	json.NewDecoder(resp.Body).Decode(&r)
	return resp.StatusCode, r, resp.Header
}

// §6 Access Evaluation API: a deny is 200 {"decision": false}, with the
// reason in the context; an allow {"decision": true}.
func TestAuthZENEvaluation(t *testing.T) {
	_, ts := start(t, Options{})
	code, r, _ := authzen(t, ts.URL, "/access/v1/evaluation",
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"write_file"},"resource":{"type":"tool","id":"write_file"},"context":{"session":"s1"}}`)
	if code != 200 || r.Decision == nil || *r.Decision || r.Context["reason_user"] == nil || r.Context["decision"] != "deny" {
		t.Errorf("write_file: %d %+v", code, r)
	}
	code, r, _ = authzen(t, ts.URL, "/access/v1/evaluation",
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash"},"context":{"input":{"command":"python x.py"}}}`)
	if code != 200 || r.Decision == nil || !*r.Decision {
		t.Errorf("python: %d %+v", code, r)
	}
	// The spec's own example (§6.1, a user reading an account): a valid
	// request charter cannot allow, since its subject is no agent.
	code, r, _ = authzen(t, ts.URL, "/access/v1/evaluation",
		`{"subject":{"type":"user","id":"alice@example.com"},"resource":{"type":"account","id":"123"},"action":{"name":"can_read","properties":{"method":"GET"}},"context":{"time":"1985-10-26T01:22-07:00"}}`)
	if code != 200 || r.Decision == nil || *r.Decision {
		t.Errorf("the spec's example: %d %+v", code, r)
	}
}

// §10.1.3: the PDP returns the PEP's X-Request-ID (spec examples 39/40).
func TestAuthZENRequestID(t *testing.T) {
	_, ts := start(t, Options{})
	_, _, h := authzen(t, ts.URL, "/access/v1/evaluation",
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}}`,
		"X-Request-ID", "bfe9eb29-ab87-4ca3-be83-a1d5d8305716")
	if got := h.Get("X-Request-ID"); got != "bfe9eb29-ab87-4ca3-be83-a1d5d8305716" {
		t.Errorf("X-Request-ID %q", got)
	}
}

// §12 and the certification's c.2.4: malformed requests are 400.
func TestAuthZENBadRequests(t *testing.T) {
	_, ts := start(t, Options{})
	for _, c := range []struct{ name, body, ct string }{
		{"no subject", `{"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}}`, ""},
		{"subject a string", `{"subject":"alice","action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}}`, ""},
		{"action name a number", `{"subject":{"type":"agent","id":"marco"},"action":{"name":123},"resource":{"type":"tool","id":"x"}}`, ""},
		{"no resource id", `{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"resource":{"type":"tool"}}`, ""},
		{"malformed", `{"subject":`, ""},
		{"empty", ``, ""},
		{"wrong content type", `{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}}`, "text/plain"},
	} {
		ct := c.ct
		if ct == "" {
			ct = "application/json"
		}
		code, _, _ := authzen(t, ts.URL, "/access/v1/evaluation", c.body, "Content-Type", ct)
		if code != 400 {
			t.Errorf("%s: %d, want 400", c.name, code)
		}
	}
	code, _, _ := authzen(t, ts.URL, "/access/v1/evaluations",
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"options":{"evaluations_semantic":"first_wins"},"evaluations":[{"resource":{"type":"tool","id":"read_file"}}]}`)
	if code != 400 {
		t.Errorf("an unknown semantic: %d, want 400", code)
	}
}

// §7.1.2.1's example: three evaluations under each semantic (spec
// examples 19 to 24): execute_all answers all three, deny_on_first_deny
// stops at the first false, permit_on_first_permit at the first true.
func TestAuthZENEvaluationsSemantics(t *testing.T) {
	_, ts := start(t, Options{})
	items := `"evaluations":[
		{"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}},
		{"action":{"name":"write_file"},"resource":{"type":"tool","id":"write_file"}},
		{"action":{"name":"list_files"},"resource":{"type":"tool","id":"list_files"}}]`
	for _, c := range []struct {
		semantic string
		want     []bool
	}{
		{"execute_all", []bool{true, false, true}},
		{"deny_on_first_deny", []bool{true, false}},
		{"permit_on_first_permit", []bool{true}},
	} {
		code, r, _ := authzen(t, ts.URL, "/access/v1/evaluations",
			`{"subject":{"type":"agent","id":"marco"},"options":{"evaluations_semantic":"`+c.semantic+`","another_option":"value"},`+items+`}`)
		var got []bool
		for _, e := range r.Evaluations {
			got = append(got, e.Decision)
		}
		if code != 200 || !cmp.Equal(got, c.want) {
			t.Errorf("%s: %d %v, want %v", c.semantic, code, got, c.want)
		}
	}
	// No evaluations: the single request and its single answer (c.3.4.2).
	code, r, _ := authzen(t, ts.URL, "/access/v1/evaluations",
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}}`)
	if code != 200 || r.Decision == nil || !*r.Decision || r.Evaluations != nil {
		t.Errorf("no evaluations: %d %+v", code, r)
	}
	// An item missing what no default gives: that item false, with the
	// error in its context; the batch 200 (c.3.4.1).
	code, r, _ = authzen(t, ts.URL, "/access/v1/evaluations",
		`{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"evaluations":[{"resource":{"type":"tool","id":"read_file"}},{}]}`)
	if code != 200 || len(r.Evaluations) != 2 || !r.Evaluations[0].Decision || r.Evaluations[1].Decision || r.Evaluations[1].Context["error"] == nil {
		t.Errorf("an item in error: %d %+v", code, r)
	}
}

// AuthZEN evaluations read a session and never change it (c.2.6: the
// same request, the same decision).
func TestAuthZENIdempotent(t *testing.T) {
	_, ts := start(t, Options{})
	body := `{"subject":{"type":"agent","id":"marco"},"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash"},"context":{"session":"s9","input":{"command":"python x.py"}}}`
	var first []any
	for i := range 4 {
		_, r, _ := authzen(t, ts.URL, "/access/v1/evaluation", body)
		if i == 0 {
			first = r.Context["rules"].([]any)
		} else if !cmp.Equal(r.Context["rules"], first) {
			t.Errorf("evaluation %d: rules %v, the first %v", i, r.Context["rules"], first)
		}
	}
}

// §9: the discovery document.
func TestAuthZENDiscovery(t *testing.T) {
	_, ts := start(t, Options{PublicURL: "https://pdp.example.com"})
	code, b := get(t, ts.URL+"/.well-known/authzen-configuration")
	var got map[string]string
	json.Unmarshal(b, &got)
	want := map[string]string{
		"policy_decision_point":       "https://pdp.example.com",
		"access_evaluation_endpoint":  "https://pdp.example.com/access/v1/evaluation",
		"access_evaluations_endpoint": "https://pdp.example.com/access/v1/evaluations",
	}
	if code != 200 || !cmp.Equal(got, want) {
		t.Errorf("discovery: %d %s", code, cmp.Diff(want, got))
	}
}

// An AuthZEN request may carry what a call touches in places charter
// does not read its arguments from: action.properties, the resource's
// properties, a resource of another type (a file, by its path). Each was
// judged as the tool called without arguments, and so allowed: rm -rf /
// in action.properties past marco's whitelist, /etc/shadow as a file
// resource. charter reads the arguments from context.input alone, so
// each is now false with the reason; so are a context.session or
// context.input of the wrong type, which were read as none.
func TestAuthZENArgumentsElsewhere(t *testing.T) {
	_, ts := start(t, Options{})
	const subject = `"subject":{"type":"agent","id":"marco"},`
	for _, c := range []struct{ name, body, why string }{
		{"action.properties", subject + `"action":{"name":"run_bash","properties":{"command":"rm -rf /"}},"resource":{"type":"tool","id":"run_bash"}`, "action.properties"},
		{"resource.properties", subject + `"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash","properties":{"command":"rm -rf /"}}`, "resource.properties"},
		{"a file resource", subject + `"action":{"name":"read_file"},"resource":{"type":"file","id":"/etc/shadow"}`, "resource.type"},
		{"a session not a string", subject + `"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"},"context":{"session":7}`, "context.session"},
		{"a session id charter does not keep", subject + `"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"},"context":{"session":"a/b"}`, "session id"},
		{"input a string", subject + `"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash"},"context":{"input":"rm -rf /"}`, "context.input"},
	} {
		code, r, _ := authzen(t, ts.URL, "/access/v1/evaluation", "{"+c.body+"}")
		reason, _ := json.Marshal(r.Context)
		if code != 200 || r.Decision == nil || *r.Decision || !strings.Contains(string(reason), c.why) {
			t.Errorf("%s: %d decision %v %s, want false naming %s", c.name, code, r.Decision != nil && *r.Decision, reason, c.why)
		}
	}
	// Empty properties say nothing: the call is judged.
	code, r, _ := authzen(t, ts.URL, "/access/v1/evaluation",
		`{`+subject+`"action":{"name":"run_bash","properties":{}},"resource":{"type":"tool","id":"run_bash","properties":{}},"context":{"input":{"command":"python x.py"}}}`)
	if code != 200 || r.Decision == nil || !*r.Decision {
		t.Errorf("empty properties: %d %+v", code, r)
	}
}

// A batch is bounded: 200,000 evaluations of "{}" (600 KB, each taking
// the defaults) took 20 s of one core and a 45 MB answer held in memory,
// and --max-body's 8 MiB would take minutes and gigabytes: a few such
// requests starve every other decision. More than MaxEvaluations is a
// 400.
func TestAuthZENBatchBounded(t *testing.T) {
	_, ts := start(t, Options{})
	batch := func(n int) string {
		return `{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"},"evaluations":[` +
			strings.TrimSuffix(strings.Repeat("{},", n), ",") + `]}`
	}
	code, r, _ := authzen(t, ts.URL, "/access/v1/evaluations", batch(MaxEvaluations))
	if code != 200 || len(r.Evaluations) != MaxEvaluations {
		t.Errorf("%d evaluations: %d, %d answers", MaxEvaluations, code, len(r.Evaluations))
	}
	start := time.Now()
	code, b := post(t, ts.URL+"/access/v1/evaluations", batch(200000))
	if code != 400 || !strings.Contains(string(b), "evaluations") || time.Since(start) > 5*time.Second {
		t.Errorf("200,000 evaluations: %d %.200s after %v, want a 400 at once", code, b, time.Since(start))
	}
}
