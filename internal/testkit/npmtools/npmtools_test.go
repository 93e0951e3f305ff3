package npmtools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageSaysHowToInstall: package.json's description gives the
// command that installs these tools, the one .ci/run and Missing give
// (npm ci refuses the lock file here: it lacks other platforms' optional
// packages).
func TestPackageSaysHowToInstall(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(Dir(), "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Description string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(pkg.Description, "Install with: "+InstallCommand) {
		t.Errorf("package.json's description does not end in %q:\n%s", "Install with: "+InstallCommand, pkg.Description)
	}
	if !strings.Contains(Missing("x"), InstallCommand) {
		t.Errorf("Missing does not give %q", InstallCommand)
	}
}
