// Package cue holds charter's schema and standard library as CUE source,
// embedded in the binary. The schema (schema/*.cue) declares definitions
// only; the standard library (stdlib/*.cue) declares concrete values that
// every repository starts from. Both use package charter.
package cue

import "embed"

// Files holds schema/*.cue and stdlib/*.cue.
//
//go:embed schema/*.cue stdlib/*.cue
var Files embed.FS

// Package is the CUE package name of the embedded files, and the one charter
// suggests for user files.
const Package = "charter"
