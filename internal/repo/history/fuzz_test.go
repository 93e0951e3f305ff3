package history_test

import (
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/repo/history"
)

// FuzzParseTrailers checks that no message makes the trailer parser panic
// and that every key it returns is a git trailer key.
func FuzzParseTrailers(f *testing.F) {
	f.Add("Subject\n\nReviewed-by: Rae\n  more\nApproved-by: Abe\n")
	f.Add("Subject\n\n \n\t\nSigned-off-by: x\nprose\n")
	f.Add("\n\n\n")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, tr := range history.ParseTrailers(msg) {
			if tr.Key == "" || strings.ContainsAny(tr.Key, " \t:\n") {
				t.Fatalf("bad key %q", tr.Key)
			}
		}
	})
}
