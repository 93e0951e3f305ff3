// Package bundlefile is a built bundle's files as the programs that read
// one see them (docs/design.md §7, docs/bundle.md): the tree of files,
// the manifest that lists every file with its size and SHA-256
// (ParseManifest), the check of a bundle held in memory against its
// manifest (Verify), the delegation graph (ParseDelegation), and the
// Runtime, which reads the few files a runtime judges a call with, each
// checked against the manifest.
//
// Package bundle writes bundles (and reads a folder or an archive whole,
// for pull, verify and serve); this package links nothing of CUE or the
// compiler, so that the Claude Code hook (cmd/charter-hook) starts as a
// small program does.
package bundlefile

import (
	"maps"
	"slices"
	"time"
)

// SchemaVersion is the version of the bundle layout.
const SchemaVersion = "1"

// Source names the Git commit a bundle was built from.
type Source struct {
	Commit string    `json:"commit"`
	Tree   string    `json:"tree"`
	Time   time.Time `json:"time"`
	// Root is the config root the bundle was built from, relative to the
	// top of the repository ("." for the top itself).
	Root string `json:"root,omitempty"`
}

// Tree is a bundle in memory: slash-separated paths to contents.
type Tree map[string][]byte

// Paths returns the paths of t in sorted order.
func (t Tree) Paths() []string { return slices.Sorted(maps.Keys(t)) }

// SignatureFile is the bundle's signature of manifest.json: a detached
// JWS (RFC 7515 compact form, payload left out) over the file's bytes.
// It is the one file the manifest does not list.
const SignatureFile = "manifest.jws"

// Manifest is what manifest.json holds.
type Manifest struct {
	SchemaVersion  string  `json:"schema_version"`
	CharterVersion string  `json:"charter_version"`
	CUEVersion     string  `json:"cue_version"`
	Source         *Source `json:"source,omitempty"`
	Files          []File  `json:"files"`
}

// File is one entry of the manifest.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int    `json:"size"`
}
