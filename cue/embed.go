// Package cuefiles holds charter's schema and standard library as CUE
// source, embedded in the binary. The schema (schema/*.cue) declares
// definitions only; the standard library (stdlib/*.cue) declares concrete
// values that every repository starts from. Both use CUE package charter.
//
// The folder is cue/, as the design names it; the Go package is cuefiles so
// that it never collides with cuelang.org/go/cue in the files that use both.
package cuefiles

import "embed"

// FS holds schema/*.cue and stdlib/*.cue.
//
//go:embed schema/*.cue stdlib/*.cue
var FS embed.FS

// Package is the CUE package name of the embedded files, and the one charter
// suggests for user files.
const Package = "charter"
