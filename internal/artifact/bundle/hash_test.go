package bundle

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

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
