package source

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReportBase(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(tmp, "repo")
	for _, d := range []string{".git", "config/agents", "../plain/sub"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(tmp, "plain"))
	tests := []struct{ dir, base, rel string }{
		{filepath.Join(repo, "config"), repo, "config"},
		{filepath.Join(repo, "config", "agents"), repo, "config/agents"},
		{repo, repo, "."},
		// Outside Git: relative to the current directory.
		{"sub", filepath.Join(tmp, "plain"), "sub"},
		{".", filepath.Join(tmp, "plain"), "."},
		{"..", filepath.Join(tmp, "plain"), ".."},
	}
	for _, tt := range tests {
		base, rel, err := ReportBase(tt.dir)
		if err != nil {
			t.Errorf("ReportBase(%q): %v", tt.dir, err)
			continue
		}
		if base != tt.base || rel != tt.rel {
			t.Errorf("ReportBase(%q) = %q, %q; want %q, %q", tt.dir, base, rel, tt.base, tt.rel)
		}
	}
}
