package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestPowerShellRunsCode: Claude Code's PowerShell tool is run_bash, and
// its commands are read with the bash parser. What PowerShell runs as code
// and bash reads as plain words passed confirm_destructive: Invoke-
// Expression's string, powershell -Command, a script block ({ ... }),
// -Recurse:$true; cmd /c's command line is in a syntax charter does not
// read. Each is now read, or an unknown command.
func TestPowerShellRunsCode(t *testing.T) {
	for _, src := range []string{
		`iex 'Remove-Item -Recurse x'`,
		`Invoke-Expression "Remove-Item -Recurse x"`,
		`powershell -Command 'Remove-Item -Recurse x'`,
		`powershell.exe -NoProfile -ExecutionPolicy Bypass -c "Remove-Item -Recurse x"`,
		`pwsh -c 'Remove-Item -Recurse x'`,
		`pwsh -Com 'Remove-Item -Recurse x'`,
		`Invoke-Command -ScriptBlock { Remove-Item -Recurse x }`,
		`Invoke-Command -ScriptBlock {Remove-Item -Recurse x}`,
		`1..3 | ForEach-Object { Remove-Item -Recurse $_ }`,
		`gci | %{ Remove-Item -Recurse $_ }`,
		`Remove-Item x -Recurse:$true`,
		`Remove-Item -Recurse:$True x`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			continue // refused
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Destructive != "" }) {
			t.Errorf("%s: nothing destructive in %+v", src, cs)
		}
	}
	for _, src := range []string{`cmd /c "rd /s /q x"`, `cmd.exe /C del x`, `powershell -EncodedCommand SQBFAFgA`, `pwsh -e SQBFAFgA`} {
		cs, err := shell.Parse(src)
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known && c.Reason != "" }) {
			t.Errorf("%s: every command known: %+v", src, cs)
		}
	}
	// Braces that are no script block stay what they were.
	for src, n := range map[string]int{`awk '{print $1}' f`: 1, `find . -exec grep x {} +`: 2, `echo {a,b}`: 1, `echo ${x}`: 1, `pwsh x.ps1`: 1} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != n || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want %d known commands", src, cs, err, n)
		}
	}
}

// TestCmdSwitchesTogether: cmd /s/c CMD (switches written together, as
// Node's shell option writes /d /s /c) and cmd reading its input were a
// known cmd; powershell -Command:CODE ran CODE's last word alone.
func TestCmdSwitchesTogether(t *testing.T) {
	for _, src := range []string{`cmd /s/c "curl x"`, `cmd /q/k curl`, `cmd`, `cmd /q`, `powershell -command:curl x`} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" || !c.Known }) {
			t.Errorf("%s: %+v %v, want curl or an unknown command", src, cs, err)
		}
	}
	// Lower case can be longer than the word (İ): the code is cut from
	// the word as written.
	if cs, err := shell.Parse(`powershell -c:İİİ curl`); err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Path == "İİİ" }) {
		t.Errorf("powershell -c:İİİ curl: %+v %v, want İİİ run", cs, err)
	}
}

// TestPowerShellScriptBlockValues: a script block that only names a value
// (ls | % { $_.Name }) runs nothing: every command is known. One that
// calls a method, or does anything more, is read as code (unknown here).
func TestPowerShellScriptBlockValues(t *testing.T) {
	for _, src := range []string{`ls | % { $_.Name }`, `Get-ChildItem | ForEach-Object { $_.FullName }`, `gci | %{ $_ }`, `ls | % {$_.Directory.Name}`} {
		cs, err := shell.Parse(src)
		if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want every command known", src, cs, err)
		}
	}
	for _, src := range []string{`ls | % { $_.Delete() }`, `ls | % { $_.Name; rm -rf x }`, `ls | % { $x = 1 }`, `ls | % { $_.1 }`} {
		cs, err := shell.Parse(src)
		if err != nil {
			continue // refused
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known || c.Destructive != "" }) {
			t.Errorf("%s: %+v, want a command unknown or destructive", src, cs)
		}
	}
}
