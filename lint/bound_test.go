package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/render"
)

// TestPromptBound checks that promptBound is an upper bound of the rendered
// prompt's length for every agent of every test repository (and the
// starter's), so prompt-over-budget never skips a prompt it should judge.
func TestPromptBound(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/lint/*")
	dirs = append(dirs, "../internal/repo/starter/files")
	checked := 0
	for _, dir := range dirs {
		rev, err := new(revision.Evaluator).EvaluateFS(os.DirFS(dir), dir)
		if err != nil {
			t.Fatal(err)
		}
		prog := rev.Program
		if prog == nil {
			continue
		}
		for _, a := range prog.Agents {
			p, err := render.Render(prog, a)
			if err != nil {
				continue
			}
			checked++
			if n, b := len(p.String()), promptBound(a); n > b {
				t.Errorf("%s: agent %s: prompt is %d bytes, above the bound %d", dir, a.ID, n, b)
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d prompts, want at least 20", checked)
	}
}
