// Command charter compiles and lints LLM agent configuration kept as CUE in
// Git. See the README and docs/commands.md.
package main

import (
	"os"

	_ "github.com/charter-dev/charter/internal/gcstart" // the GC setting for start-up, before other packages initialise
)

func main() { os.Exit(Main()) }
