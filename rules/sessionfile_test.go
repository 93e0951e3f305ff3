package rules

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReadSessionFile(t *testing.T) {
	dir := t.TempDir()
	var s Session
	s.Record(Call{Tool: "Edit"})
	var buf bytes.Buffer
	if err := s.WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("{not json\n")
	name := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(name, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSessionFile(name)
	var ce *CorruptLinesError
	if !errors.As(err, &ce) || got == nil || got.Len() != 1 {
		t.Errorf("corrupt line: session %v, error %v; want the one good call and a CorruptLinesError", got, err)
	}
	if _, err := ReadSessionFile(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: error %v, want not exist", err)
	}
}
