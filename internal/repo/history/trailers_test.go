package history_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

func TestParseTrailers(t *testing.T) {
	tr := func(kv ...string) []history.Trailer {
		var out []history.Trailer
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, history.Trailer{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name string
		msg  string
		want []history.Trailer
	}{
		{"subject only", "Reviewed-by: X", nil},
		{"no trailers", "Subject\n\nBody text.\n", nil},
		{"simple", "Subject\n\nBody.\n\nReviewed-by: Rae <r@x>\nApproved-by: Abe\n",
			tr("Reviewed-by", "Rae <r@x>", "Approved-by", "Abe")},
		{"no body", "Subject\n\nReviewed-by: Rae\n", tr("Reviewed-by", "Rae")},
		{"space before colon", "Subject\n\nReviewed-by : Rae\n", tr("Reviewed-by", "Rae")},
		{"continuation", "Subject\n\nReviewed-by: Rae\n  and Ria\nApproved-by: Abe\n",
			tr("Reviewed-by", "Rae and Ria", "Approved-by", "Abe")},
		{"not the last paragraph", "Subject\n\nReviewed-by: Rae\n\nMore text.\n", nil},
		{"mixed without a git trailer", "Subject\n\nReviewed-by: Rae\nsome prose here\n", nil},
		{"mixed with Signed-off-by", "Subject\n\nReviewed-by: Rae\nsome prose\nSigned-off-by: Ada <a@x>\n",
			tr("Reviewed-by", "Rae", "Signed-off-by", "Ada <a@x>")},
		{"too much prose", "Subject\n\nSigned-off-by: Ada\nprose one\nprose two\nprose three\nprose four\n", nil},
		{"key with space", "Subject\n\nReviewed by: Rae\n", nil},
		{"CRLF", "Subject\r\n\r\nReviewed-by: Rae\r\n", tr("Reviewed-by", "Rae")},
		{"trailing blank lines", "Subject\n\nApproved-by: Abe\n\n\n", tr("Approved-by", "Abe")},
		{"empty", "", nil},
	}
	hasGit := sourcetest.HasGit()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := history.ParseTrailers(tt.msg)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ParseTrailers (-want +got):\n%s", d)
			}
			if !hasGit || strings.Contains(tt.msg, "\r") {
				return
			}
			// git interpret-trailers --parse is the reference.
			cmd := exec.Command("git", "interpret-trailers", "--parse")
			cmd.Env = sourcetest.Env(sourcetest.Epoch)
			cmd.Stdin = strings.NewReader(tt.msg)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			var fromGit []history.Trailer
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if k, v, ok := strings.Cut(l, ": "); ok {
					fromGit = append(fromGit, history.Trailer{Key: k, Value: v})
				}
			}
			if d := cmp.Diff(fromGit, got); d != "" {
				t.Errorf("ParseTrailers differs from git interpret-trailers --parse (-git +got):\n%s", d)
			}
		})
	}
}
