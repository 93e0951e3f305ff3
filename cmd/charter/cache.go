package main

import (
	"io"
	"os"

	"github.com/charter-dev/charter/internal/config/evalcache"
)

// cacheDir is the cache directory of the config root, "" with --no-cache
// or CHARTER_CACHE_DIR=off.
func cacheDir(g *globals, noCache bool) string {
	if noCache {
		return ""
	}
	dir, ok := evalcache.Dir(g.dir)
	if !ok {
		return ""
	}
	return dir
}

// cacheLog is where the cache says what it reused: standard error when
// CHARTER_DEBUG_INCREMENTAL is set (as for the editor), else nowhere.
func cacheLog(g *globals) io.Writer {
	if os.Getenv("CHARTER_DEBUG_INCREMENTAL") == "" {
		return nil
	}
	return g.stderr
}
