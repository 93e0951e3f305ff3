// Command charter compiles and lints LLM agent configuration kept as CUE in
// Git. See the README and docs/commands.md.
package main

import (
	"os"

	_ "github.com/charter-dev/charter/internal/gcstart" // the GC setting for start-up, set during package initialisation (Go orders it among the others; the heap is under the first goal throughout)
)

func main() { os.Exit(Main()) }
