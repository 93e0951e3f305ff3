package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the whole command to the file
// CHARTER_CPUPROFILE names, when it is set (for performance work; see
// docs/performance.md). The returned function stops it.
func startProfile() func() {
	name := os.Getenv("CHARTER_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintf(os.Stderr, "charter: CHARTER_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "charter: CHARTER_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
