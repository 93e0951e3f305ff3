package history_test

import (
	"errors"
	"testing"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/history"
)

func TestVersionsAtOutsideGit(t *testing.T) {
	dir := t.TempDir()
	if n, err := history.VersionsAt(dir, "HEAD:sub", nil); n != nil || err != nil {
		t.Errorf("REV:PATH: %v, %v; want no numbers and no error", n, err)
	}
	_, err := history.VersionsAt(dir, "HEAD", nil)
	var re *revision.Error
	if !errors.As(err, &re) {
		t.Errorf("outside Git: error %v, want a revision.Error", err)
	}
}
