// Command charter compiles and lints LLM agent configuration kept as CUE in
// Git. See the README and docs/commands.md.
package main

import "os"

func main() { os.Exit(Main()) }
