package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Claude Code's PowerShell tool is run_bash, and its commands are read
// with the bash parser: what PowerShell runs as code and bash reads as
// plain words is read here as code (Invoke-Expression's string,
// powershell -Command, a script block), or made an unknown command (cmd
// /c, powershell -EncodedCommand).

func readInvokeExpression(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	if len(args) > 0 && strings.HasPrefix(strings.ToLower(args[0]), "-c") { // -Command
		args = args[1:]
	}
	for _, a := range args {
		if a == Dynamic {
			return r.code(c, Dynamic, "Invoke-Expression", via, depth)
		}
	}
	return r.code(c, strings.Join(args, " "), "Invoke-Expression", via, depth)
}

// readPowerShell reads powershell and pwsh: -Command's code (the first
// operand is code for powershell, a script file for pwsh).
func readPowerShell(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i])
		if a == Dynamic {
			return r.code(c, Dynamic, c.Program+" -Command", via, depth)
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") {
			if c.Program == "powershell" {
				return r.code(c, strings.Join(args[i:], " "), c.Program+" -Command", via, depth)
			}
			break // pwsh FILE
		}
		name := strings.TrimLeft(a, "-/")
		name, inline, hasInline := strings.Cut(name, ":")
		switch {
		case name == "":
			// - : commands from standard input, as sh without -c.
		case name == "cwa" || isAbbrev(name, "commandwithargs", 8):
			// pwsh -CommandWithArgs CODE ARGS: the first is code.
			if i+1 >= len(args) {
				return r.unknown(c, c.Program+" -CommandWithArgs without code")
			}
			return r.code(c, args[i+1], c.Program+" -CommandWithArgs", via, depth)
		case isAbbrev(name, "command", 1) && hasInline && inline != "":
			// -Command:CODE: the code is in the word, and the words after.
			_, word, _ := strings.Cut(args[i], ":") // as written, not lower-cased
			code := append([]string{word}, args[i+1:]...)
			return r.code(c, strings.Join(code, " "), c.Program+" -Command", via, depth)
		case isAbbrev(name, "command", 1):
			if i+1 >= len(args) {
				return r.unknown(c, c.Program+" -Command without code")
			}
			if args[i+1] == "-" {
				break
			}
			return r.code(c, strings.Join(args[i+1:], " "), c.Program+" -Command", via, depth)
		case isAbbrev(name, "encodedcommand", 1) || name == "ec" || name == "enc":
			return r.unknown(c, c.Program+" -EncodedCommand runs code charter does not decode")
		case isAbbrev(name, "file", 1):
			i = len(args)
		case isAbbrev(name, "executionpolicy", 2) || name == "ep" || isAbbrev(name, "workingdirectory", 2) || name == "wd" ||
			isAbbrev(name, "windowstyle", 1) || isAbbrev(name, "version", 1) || isAbbrev(name, "configurationname", 2) ||
			isAbbrev(name, "custompipename", 2) || isAbbrev(name, "outputformat", 1) || isAbbrev(name, "inputformat", 2) ||
			name == "if" || isAbbrev(name, "settingsfile", 1) || isAbbrev(name, "psconsolefile", 2) || isAbbrev(name, "encodedarguments", 8):
			i++
		}
	}
	c.normalize()
	r.out = append(r.out, c)
	return nil
}

// isAbbrev reports whether s abbreviates name, in at least min letters.
func isAbbrev(s, name string, min int) bool {
	return len(s) >= min && strings.HasPrefix(name, s)
}

// readCmd reads Windows' cmd: a command line after /c or /k (written
// alone, or among other switches: /s/c, /q/c) is in cmd's syntax, which
// charter does not read, and without one cmd reads its commands from its
// input. Only cmd /? (its help) is known.
func readCmd(r *reader, c Command, via []string, depth int) error {
	if len(c.Args) == 1 && c.Args[0] == "/?" {
		c.normalize()
		r.out = append(r.out, c)
		return nil
	}
	for _, a := range c.Args {
		la := strings.ToLower(a)
		if a == Dynamic || strings.Contains(la, "/c") || strings.Contains(la, "/k") || strings.Contains(la, "/r") {
			return r.unknown(c, "cmd /c runs a command line in cmd's syntax, which charter does not read")
		}
	}
	return r.unknown(c, "cmd without /c runs the commands it reads from its input, in cmd's syntax")
}

// scriptBlock returns the code of a PowerShell script block among a
// command's words ({ ... }, %{ ... }): an unquoted word that opens a brace
// it does not close, to the word that closes it. Bash reads these as
// words; PowerShell runs them.
func scriptBlock(src string, words []*syntax.Word) (code string, ok bool) {
	start := -1
	for _, w := range words {
		if len(w.Parts) == 0 {
			continue
		}
		if start < 0 {
			lit, isLit := w.Parts[0].(*syntax.Lit)
			if !isLit {
				continue
			}
			v := lit.Value
			whole := len(w.Parts) == 1
			switch {
			case whole && (v == "{" || strings.HasSuffix(v, "{") && !strings.Contains(v, "}")):
				start = int(lit.End().Offset())
			case strings.HasPrefix(v, "{") && !(whole && strings.HasSuffix(v, "}")) && !strings.Contains(v, ","):
				start = int(lit.Pos().Offset()) + 1
			}
			if start >= 0 && whole && strings.HasSuffix(v, "}") && len(v) > 1 && v[0] == '{' {
				start = -1
			}
			continue
		}
		last, isLit := w.Parts[len(w.Parts)-1].(*syntax.Lit)
		if isLit && strings.HasSuffix(last.Value, "}") {
			end := int(last.End().Offset()) - 1
			if start <= end && end <= len(src) {
				return src[start:end], true
			}
			return "", false
		}
	}
	return "", false
}

// powerShellBool is the text of a -Switch:$true word (PowerShell's
// boolean variables), which bash reads as a parameter expansion.
func powerShellBool(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 2 {
		return "", false
	}
	lit, ok1 := w.Parts[0].(*syntax.Lit)
	pe, ok2 := w.Parts[1].(*syntax.ParamExp)
	if !ok1 || !ok2 || !strings.HasPrefix(lit.Value, "-") || !strings.HasSuffix(lit.Value, ":") || !pe.Short || pe.Param == nil {
		return "", false
	}
	switch strings.ToLower(pe.Param.Value) {
	case "true", "false":
		return lit.Value + "$" + strings.ToLower(pe.Param.Value), true
	}
	return "", false
}

// powerShellValue reports whether a script block's code only outputs a
// value: a variable and its properties ($_.Name, $_.Length), with no call
// (parentheses) and nothing else, as `ls | % { $_.Name }` gives. It runs
// nothing, where bash would read $_.Name as a program named by a
// variable.
func powerShellValue(code string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(code), "$")
	if !ok {
		return false
	}
	for _, name := range strings.Split(rest, ".") {
		if name == "" || '0' <= name[0] && name[0] <= '9' {
			return false
		}
		for _, c := range name {
			if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				return false
			}
		}
	}
	return true
}

// readStartProcess reads PowerShell's Start-Process (start, saps): it
// runs its -FilePath (or first operand), as a command via Start-Process.
// An -ArgumentList (or second operand) is an array PowerShell joins and
// the program splits by their own rules, which charter does not read:
// such a command is unknown.
func readStartProcess(r *reader, c Command, via []string, depth int) error {
	var operands []string
	file, hasArgs := "", false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		la := strings.ToLower(a)
		if a == Dynamic || !strings.HasPrefix(la, "-") {
			operands = append(operands, a)
			continue
		}
		name, inline, hasInline := strings.Cut(strings.TrimLeft(la, "-"), ":")
		value := ""
		takesValue := isAbbrev(name, "filepath", 1) || name == "path" || isAbbrev(name, "argumentlist", 1) || name == "args" ||
			isAbbrev(name, "workingdirectory", 2) || isAbbrev(name, "verb", 1) || isAbbrev(name, "credential", 1) ||
			isAbbrev(name, "windowstyle", 3) || isAbbrev(name, "redirectstandardinput", 9) || isAbbrev(name, "redirectstandardoutput", 9) ||
			isAbbrev(name, "redirectstandarderror", 9) || isAbbrev(name, "environment", 1)
		if !takesValue {
			switch {
			case isAbbrev(name, "wait", 2), isAbbrev(name, "nonewwindow", 3), isAbbrev(name, "passthru", 2), isAbbrev(name, "usenewenvironment", 2),
				isAbbrev(name, "loaduserprofile", 2), isAbbrev(name, "whatif", 2), isAbbrev(name, "confirm", 2), isAbbrev(name, "verbose", 2):
			default:
				// No parameter of Start-Process: a quoted argument
				// ('-c','rm -rf /'), whose quotes bash took away.
				operands = append(operands, a)
			}
			continue
		}
		if hasInline {
			value = c.Args[i][len(c.Args[i])-len(inline):]
		} else if i+1 < len(c.Args) {
			i++
			value = c.Args[i]
		}
		switch {
		case isAbbrev(name, "filepath", 1) || name == "path":
			file = value
		case isAbbrev(name, "argumentlist", 1) || name == "args":
			hasArgs = true
		}
	}
	if file == "" && len(operands) > 0 {
		file, operands = operands[0], operands[1:]
	}
	if len(operands) > 0 {
		hasArgs = true
	}
	switch {
	case file == "":
		return r.unknown(c, "Start-Process without a file to run")
	case hasArgs:
		return r.unknown(c, "Start-Process runs "+strings.ReplaceAll(file, Dynamic, "$...")+" with an argument list PowerShell joins and the program splits by their own rules, which charter does not read")
	}
	return r.then(c, []string{file}, "Start-Process", via, depth)
}
