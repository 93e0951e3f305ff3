//go:build gen

// Command gen writes a generated charter repository for benchmarks:
//
//	go run -tags gen ./internal/gen/cmd/gen -n 2000 -o DIR
//
// The build tag keeps it out of `go install ./...`, which is how
// pre-commit installs the hooks of .pre-commit-hooks.yaml: that must build
// charter only.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/charter-dev/charter/internal/testkit/gen"
)

func main() {
	n := flag.Int("n", 2000, "number of agents")
	out := flag.String("o", "", "directory to write the repository into (required)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen [-n N] -o DIR")
		os.Exit(2)
	}
	if err := gen.Write(*out, *n); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}
