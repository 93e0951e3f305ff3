package main

import "github.com/charter-dev/charter/internal/artifact/bundle"

// writeDir writes a whole bundle (bundle.WriteDirState) and writeOver one
// over the previous bundle (bundle.WriteOver). They are variables so that
// the tests can make writing fail as a read-only directory does, whoever
// runs them: CI runs as root, whom chmod does not stop (faults_test.go,
// CHARTER_FAULTS). revision.OpenDir is the same seam for reading.
var (
	writeDir  = bundle.WriteDirState
	writeOver = bundle.WriteOver
)
