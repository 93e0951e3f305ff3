package bundle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gowebpki/jcs"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

func TestRemoveMember(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1,"status":"x","z":[1,{"status":2}]}`, `{"a":1,"z":[1,{"status":2}]}`},
		{`{"status":"x","z":2}`, `{"z":2}`},
		{`{"a":{"b":","},"status":"x"}`, `{"a":{"b":","}}`},
		{`{"status":{"a":[1,2]}}`, `{}`},
		{`{"a":1}`, `{"a":1}`},
		{`{}`, `{}`},
	} {
		if got := string(removeMember([]byte(tc.in), "status")); got != tc.want {
			t.Errorf("removeMember(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if _, err := jcs.Transform([]byte(tc.want)); err != nil {
			t.Errorf("%s: %v", tc.want, err)
		}
	}
}

// TestStatusOutOfHash: status is runtime state: changing it keeps the
// content hash (and so the version), and agent.json still says it.
func TestStatusOutOfHash(t *testing.T) {
	hash := func(status string) (string, string) {
		tree, err := Build(testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": `package charter
agents: ann: {name: "Ann", type: "personal_assistant", status: "` + status + `"}
`})), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Status string
			Hash   string `json:"content_hash"`
		}
		agentJSON(t, tree, "ann", &doc)
		return doc.Status, doc.Hash
	}
	s1, h1 := hash("active")
	s2, h2 := hash("on_leave")
	if diff := cmp.Diff([]string{"active", "on_leave"}, []string{s1, s2}); diff != "" {
		t.Errorf("status in agent.json (-want +got):\n%s", diff)
	}
	if h1 != h2 {
		t.Errorf("content hash changed with status: %s, %s", h1, h2)
	}
}

// FuzzRemoveMember: on any canonical object, removeMember equals
// decoding, deleting the member and encoding again.
func FuzzRemoveMember(f *testing.F) {
	for _, s := range []string{`{"a":1,"status":"x"}`, `{"status":[1,"}",{"status":2}],"z":"\\""}`, `{}`, `[1]`, `{"st":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		canon, err := transform(nil, []byte(in))
		if err != nil {
			return
		}
		got := removeMember(canon, "status")
		g, err := decode(canon)
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := g.(map[string]any); ok {
			delete(m, "status")
			g = m
		}
		want, err := Canonical(g)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("removeMember(%s) = %s, want %s", canon, got, want)
		}
	})
}
