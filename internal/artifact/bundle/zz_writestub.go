package bundle

// TEMPORARY: stands in for the writer branch bwrite until it is merged.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
)

// State is what a write left in a bundle folder (stub).
type State struct{ Stub bool }

// ErrStale (stub).
var ErrStale = errors.New("the bundle folder does not hold the previous bundle")

// WriteOver (stub): materializes the tree and writes it whole.
func WriteOver(dir string, files []File, data Tree, known []*State) (*State, error) {
	t := Tree{}
	for _, f := range files {
		if b, ok := data[f.Path]; ok {
			t[f.Path] = b
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return nil, ErrStale
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			return nil, ErrStale
		}
		t[f.Path] = b
	}
	return &State{}, WriteDir(dir, t)
}

// WriteDirState (stub).
func WriteDirState(dir string, t Tree, known []*State) (*State, error) {
	return &State{}, WriteDir(dir, t)
}
