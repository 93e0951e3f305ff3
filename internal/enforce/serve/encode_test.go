package serve

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/rules"
)

// appendDecide writes what encoding/json writes, for any strings (quotes,
// control characters, invalid UTF-8, U+2028, HTML) and any shape (empty
// and nil lists, a zero version, no bundle).
func FuzzAppendDecide(f *testing.F) {
	f.Add("allow", "rm -rf \"x\"\n\t<b>&", "\x00\x1f\x7f\xff\u2028\u2029é", 0, "", true)
	f.Add("deny", "", "\b\f\\", 7, "sha256:ab", false)
	f.Add("ask", "\xe2\x80", "\ufffd", -3, "\x01", true)
	f.Fuzz(func(t *testing.T, decision, msg, other string, version int, digest string, many bool) {
		r := &DecideResponse{Decision: decision, Rules: []Rule{}, Agent: decisionlog.Agent{ID: other, Version: version, ContentHash: msg},
			Bundle: decisionlog.Bundle{Revision: other, Digest: digest}, DecisionID: msg + other}
		if many {
			r.Rules = []Rule{{Rule: msg, Action: other, Message: msg + other}, {Rule: "", Action: "block", Message: other}}
			r.Warnings, r.Reminders, r.Notes = []string{msg, other}, []string{other}, []string{""}
			r.Errors = []rules.RuleError{{Rule: msg, Error: other}, {}}
		} else if version < 0 {
			r.Rules = nil
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		if got := appendDecide(nil, r); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("appendDecide:\n%s\nencoding/json:\n%s", got, want.Bytes())
		}
	})
}

// The answers of /v1/decide decode as the response they encode.
func TestDecideAnswerDecodes(t *testing.T) {
	s := New(t.Context(), Options{Bundle: golden})
	for _, body := range []string{
		`{"agent":"marco","session":"enc","phase":"pre","tool":"run_bash","input":{"command":"sudo rm -rf / # \u2028 <x>"}}`,
		`{"agent":"nobody","session":"enc","phase":"pre","tool":"run_bash"}`,
		`{"agent":"marco","session":"enc","phase":"post","tool":"create_file","input":{"path":"a.py"},"result":"ok"}`,
	} {
		var req DecideRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		resp, err := s.Decide(&req)
		if err != nil {
			t.Fatal(err)
		}
		var back DecideResponse
		dec := json.NewDecoder(strings.NewReader(string(appendDecide(nil, resp))))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&back); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(resp)
		got, _ := json.Marshal(&back)
		if !bytes.Equal(want, got) {
			t.Errorf("%s:\n got %s\nwant %s", body, got, want)
		}
	}
}
