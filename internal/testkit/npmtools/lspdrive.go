package npmtools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// LSPDriver returns node and the path of lspdrive.mjs, which drives
// `charter lsp` with VS Code's own client library
// (vscode-languageserver-protocol): random edits, the time from each
// didChange to its diagnostics, and the diagnostics compared with charter
// lint's at the end. scripts/bench-lsp.sh runs it on large repositories.
func LSPDriver(t testing.TB) (node, script string) {
	t.Helper()
	node = realtool.Need(t, "node", "nodejs")
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "vscode-languageserver-protocol", "package.json")); err != nil {
		need(t, "vscode-languageserver-protocol")
	}
	return node, filepath.Join(Dir(), "lspdrive.mjs")
}
