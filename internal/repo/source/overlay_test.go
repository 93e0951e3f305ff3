package source

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestOverlay(t *testing.T) {
	base := fstest.MapFS{
		"a.cue":        {Data: []byte("old a")},
		"agents/b.cue": {Data: []byte("b")},
	}
	o := &Overlay{Base: base, Files: map[string]string{
		"a.cue":         "new a, longer",
		"agents/c.cue":  "c",
		"types/new.cue": "t",
	}}
	// fstest checks Open, Stat, ReadDir and ReadFile agree with each other.
	if err := fstest.TestFS(o, "a.cue", "agents/b.cue", "agents/c.cue", "types/new.cue"); err != nil {
		t.Fatal(err)
	}
	if b, _ := fs.ReadFile(o, "a.cue"); string(b) != "new a, longer" {
		t.Errorf("a.cue = %q, want the file laid over it", b)
	}

	empty := &Overlay{Files: map[string]string{"agents/x.cue": "x"}}
	if err := fstest.TestFS(empty, "agents/x.cue"); err != nil {
		t.Errorf("no base: %v", err)
	}
	if _, err := empty.Open("missing.cue"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no base, missing file: %v, want not exist", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stale := &Overlay{Ctx: ctx, Base: base}
	if _, err := stale.Open("a.cue"); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v, want canceled", err)
	}
}
