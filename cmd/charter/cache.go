package main

import (
	"io"
	"os"

	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/output/diag"
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
// Its lines name files and repeat errors about their text: escaped, as
// every text output (esc).
func cacheLog(g *globals) io.Writer {
	if os.Getenv("CHARTER_DEBUG_INCREMENTAL") == "" {
		return nil
	}
	return escWriter{g.stderr}
}

// escWriter writes to w what is written to it escaped, line feeds kept:
// each Write is whole lines (one fmt.Fprintf of a log line).
type escWriter struct{ w io.Writer }

func (e escWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(e.w, diag.Escape(string(p), "\n")); err != nil {
		return 0, err
	}
	return len(p), nil
}
