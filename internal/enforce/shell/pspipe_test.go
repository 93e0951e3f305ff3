package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestPowerShellPipelineAndStartProcess: PowerShell's Remove-Item deletes
// what a pipeline gives it, so `gci -r | ri` deletes every file of a tree
// without -Recurse on Remove-Item; and Start-Process runs its -FilePath
// with an -ArgumentList PowerShell joins and splits by its own rules.
// Both were read as harmless: ri without operands, and start-process as
// a program of its own whose arguments were words. Now a removal cmdlet
// fed by a pipeline is destructive (its files are known only when it
// runs, as xargs rm), Start-Process runs its file as a command (via
// Start-Process), and one with an argument list is unknown.
func TestPowerShellPipelineAndStartProcess(t *testing.T) {
	for _, src := range []string{
		`gci -r | ri`, `Get-ChildItem -Recurse C:/data | Remove-Item`, `ls -r | del -Force`, `dir . -Recurse -File | rm`,
		`Get-ChildItem x | Where-Object { $_.Length -gt 0 } | Remove-Item -Force`,
		`Start-Process pwsh -ArgumentList '-c','Remove-Item -Recurse C:/x'`,
		`saps bash '-c','rm -rf /'`, `Start-Process -FilePath $p`, `start cmd -ArgumentList '/c del /s x'`,
	} {
		if destructive(t, src) == "" {
			t.Errorf("%s: not destructive", src)
		}
	}
	cs, err := shell.Parse(`Start-Process -FilePath git -Wait`)
	if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "git" && slices.Contains(c.Via, "Start-Process") }) {
		t.Errorf("Start-Process git: %+v, %v", cs, err)
	}
	for _, src := range []string{`gci -r | Select-Object Name`, `ri x.txt`, `Get-Content x | Set-Content y`, `echo x | rm -f a.txt`} {
		if why := destructive(t, src); why != "" {
			t.Errorf("%s: destructive: %s", src, why)
		}
	}
}
