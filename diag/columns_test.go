package diag

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestCharColumns(t *testing.T) {
	fsys := fstest.MapFS{
		"a.cue":     {Data: []byte("x\n\tname: \"Zoë ☃\", openness: 1.5\r\n")},
		"bad.cue":   {Data: []byte("\xff\xfe: 1\n")},
		"plain.cue": {Data: []byte("abc: 1\n")},
	}
	in := []Diagnostic{
		// "openness" starts at byte 24, character 21 (ë is 2 bytes, ☃ 3).
		{File: "a.cue", Line: 2, Column: 24},
		{File: "a.cue", Line: 2, Column: 1},
		{File: "a.cue", Line: 2, Column: 99}, // past the end: bytes beyond count one each
		{File: "a.cue", Line: 9, Column: 5},  // no such line: kept
		{File: "bad.cue", Line: 1, Column: 3},
		{File: "plain.cue", Line: 1, Column: 6},
		{File: "gone.cue", Line: 1, Column: 6},
		{Message: "no file"},
	}
	got := CharColumns(in, fsys)
	var cols []int
	for _, d := range got {
		cols = append(cols, d.Column)
	}
	want := []int{21, 1, 96, 5, 3, 6, 6, 0}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if in[0].Column != 24 {
		t.Errorf("CharColumns changed its input")
	}
}

func TestRebase(t *testing.T) {
	ds := []Diagnostic{{File: "agents/x.cue"}, {Message: "no file"}}
	got := Rebase(ds, "config")
	if got[0].File != "config/agents/x.cue" || got[1].File != "" {
		t.Errorf("Rebase = %+v", got)
	}
	if got := Rebase(ds, "."); got[0].File != "agents/x.cue" {
		t.Errorf("Rebase(.) = %+v", got)
	}
	if got := Rebase(ds, "../cfg"); got[0].File != "../cfg/agents/x.cue" {
		t.Errorf("Rebase(../cfg) = %+v", got)
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		in        string
		keepLines bool
		want      string
	}{
		{"plain text, tab\tand \\ kept", false, "plain text, tab\tand \\ kept"},
		{"Zoë ☃", false, "Zoë ☃"},
		{"a\x1b[2Jb", false, `a\x1b[2Jb`},
		{"line\nnext\r", false, `line\nnext\r`},
		{"line\nnext\r", true, "line\nnext\r"},
		{"nul\x00 del\x7f c1\u0085", false, `nul\x00 del\x7f c1\u0085`},
		{"bidi \u202etxt.exe\u2066", false, `bidi \u202etxt.exe\u2066`},
		{"bad \xff utf8", false, `bad \xff utf8`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in, tt.keepLines); got != tt.want {
			t.Errorf("Escape(%q, %v) = %q, want %q", tt.in, tt.keepLines, got, tt.want)
		}
	}
}
