package shell

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates some text as code although no command of the line runs
// it: a value used in arithmetic is itself an arithmetic expression, and
// an array subscript in one is expanded, command substitutions included
// (x='a[$(cmd)]'; echo $((x)) runs cmd); a variable name given to a
// builtin may carry such a subscript (read 'a[$(cmd)]', printf -v, test
// -v, declare, unset); ${x@P} expands the value as a prompt; ${!x} uses
// the value as a name. The reader lists each place where text it cannot
// see may be evaluated so as an unknown command, unless the text is a
// number or a name whose every value the line itself makes a number.

// numbers are the facts about a code string's variables that decide
// whether arithmetic on them can run a command.
type numbers struct {
	// known are the variables every assignment of which, in the code
	// string, makes a number (i=0, i=$((i+1)), ((i++)), for i in 1 2).
	// false: some assignment may make something else.
	known map[string]bool
	// attr are the variables declared with an attribute that makes an
	// assignment evaluate its value: 'i' (integer: arithmetic) or 'n'
	// (name reference: a name, subscript included).
	attr map[string]byte
}

// alwaysNumbers are the parameters bash sets to numbers.
var alwaysNumbers = []string{"#", "?", "$", "!", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID", "EPOCHSECONDS"}

// scanNumbers collects the variables of the code string f.
func scanNumbers(f *syntax.File) numbers {
	n := numbers{known: map[string]bool{}, attr: map[string]byte{}}
	set := func(name string, number bool) {
		if prev, ok := n.known[name]; ok {
			number = number && prev
		}
		n.known[name] = number
	}
	var visit func(node syntax.Node) bool
	depth := 0
	visit = func(node syntax.Node) bool {
		switch x := node.(type) {
		case *syntax.DeclClause:
			attrs := ""
			for _, a := range x.Args {
				if a.Naked && a.Name == nil && a.Value != nil {
					if v, ok := literal(a.Value); ok && strings.HasPrefix(v, "-") {
						attrs += v[1:]
					}
				}
			}
			for _, a := range x.Args {
				if a.Name == nil {
					continue
				}
				for _, k := range []byte{'i', 'n'} {
					if strings.IndexByte(attrs, k) >= 0 {
						n.attr[a.Name.Value] = k
					}
				}
				if strings.IndexByte(attrs, 'n') >= 0 {
					set(a.Name.Value, false)
				}
			}
		case *syntax.Assign:
			if x.Name == nil || x.Naked && x.Value == nil {
				return true
			}
			set(x.Name.Value, !x.Append && x.Array == nil && x.Index == nil && numberWord(x.Value))
		case *syntax.BinaryArithm:
			if w, ok := x.X.(*syntax.Word); ok && isAssignOp(x.Op) {
				if name := w.Lit(); name != "" {
					set(name, true)
				}
			}
		case *syntax.UnaryArithm:
			if w, ok := x.X.(*syntax.Word); ok && (x.Op == syntax.Inc || x.Op == syntax.Dec) {
				if name := w.Lit(); name != "" {
					set(name, true)
				}
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok {
				number := it.InPos.IsValid()
				for _, w := range it.Items {
					if seqOfNumbers(w) {
						continue
					}
					split := *w
					syntax.SplitBraces(&split)
					if braceWords(split.Parts) > DefaultLimits.MaxBraceWords {
						number = false
						continue
					}
					fs, err := expandLiteral(w)
					number = number && err == nil && !slices.ContainsFunc(fs, func(s string) bool { return !isInteger(s) })
				}
				set(it.Name.Value, number)
			}
		case *syntax.CallExpr:
			// Code eval or trap runs in this same shell sets variables
			// too: x=1; eval 'read x'; echo $((x)).
			if code, ok := sameShellCode(x.Args); ok && depth < DefaultLimits.MaxDepth {
				if inner, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(code), ""); err == nil {
					depth++
					syntax.Walk(inner, visit)
					depth--
				}
			}
			// builtin declare -i n: the attribute, as a declaration's.
			if words := declWords(x.Args); len(words) > 0 {
				attrs := ""
				for _, w := range words {
					if strings.HasPrefix(w, "-") {
						attrs += w[1:]
					}
				}
				for _, w := range words {
					name, _, _ := strings.Cut(w, "=")
					name, _, _ = strings.Cut(name, "[")
					if strings.HasPrefix(w, "-") || !validName(name) {
						continue
					}
					for _, k := range []byte{'i', 'n'} {
						if strings.IndexByte(attrs, k) >= 0 {
							n.attr[name] = k
						}
					}
				}
			}
			// Builtins that set the variables their arguments name (read
			// x, printf -v x, mapfile x, getopts o x, wait -p x): what
			// they set is text.
			if !setsNamed(x.Args) {
				return true
			}
			for _, w := range x.Args {
				if v, ok := literal(w); ok {
					if name, _, _ := strings.Cut(v, "="); validName(name) {
						set(name, false)
					}
				}
			}
		}
		return true
	}
	syntax.Walk(f, visit)
	return n
}

// sameShellCode returns the literal code a command runs in the shell that
// runs it (eval CODE, trap CODE SIGNAL, mapfile -C CODE), behind builtin or
// command.
func sameShellCode(args []*syntax.Word) (string, bool) {
	var words []string
	for _, w := range args {
		v, ok := literal(w)
		if !ok {
			v = Dynamic
		}
		words = append(words, v)
	}
	for len(words) > 0 && (words[0] == "builtin" || words[0] == "command") {
		words = words[1:]
	}
	if len(words) < 2 {
		return "", false
	}
	switch words[0] {
	case "eval":
		return strings.Join(words[1:], " "), true
	case "trap":
		for _, w := range words[1:] {
			if w != "--" && !strings.HasPrefix(w, "-") {
				return w, true
			}
		}
	case "mapfile", "readarray":
		if code := clusterValues(words[1:], "dnOsuCc", 'C'); len(code) > 0 {
			return code[0], true
		}
	}
	return "", false
}

// seqOfNumbers reports whether the word is $(seq N [N [N]]): numbers
// (seq's options, -f and -s, print any text).
func seqOfNumbers(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) < 2 || len(call.Args) > 4 || call.Args[0].Lit() != "seq" {
		return false
	}
	for _, a := range call.Args[1:] {
		if !isInteger(a.Lit()) {
			return false
		}
	}
	return true
}

// declWords returns the literal arguments of declare and its kin behind
// builtin or command (builtin declare -i n), which the parser reads as a
// command rather than a declaration; nil for any other command.
func declWords(args []*syntax.Word) []string {
	var words []string
	for _, w := range args {
		if v, ok := literal(w); ok {
			words = append(words, v)
		}
	}
	if len(words) == 0 || words[0] != "builtin" && words[0] != "command" {
		return nil
	}
	for len(words) > 0 && (words[0] == "builtin" || words[0] == "command") {
		words = words[1:]
	}
	if len(words) == 0 || !slices.Contains([]string{"declare", "typeset", "local", "export", "readonly"}, words[0]) {
		return nil
	}
	return words[1:]
}

// setsNamed reports whether the command is a builtin that sets the
// variables its arguments name (behind builtin or command too).
func setsNamed(args []*syntax.Word) bool {
	for _, w := range args {
		switch w.Lit() {
		case "builtin", "command":
			continue
		case "read", "printf", "mapfile", "readarray", "getopts", "wait", "declare", "typeset", "local", "export", "readonly":
			return true
		}
		return false
	}
	return false
}

// expandLiteral expands a word that holds no parameter or substitution.
func expandLiteral(w *syntax.Word) ([]string, error) {
	if dynamicWord(w) {
		return nil, fmt.Errorf("not literal")
	}
	return expand.Fields(&expand.Config{Env: homeOnly, NoUnset: true}, w)
}

// number reports whether the variable name holds a number wherever the
// code string reads it.
func (n numbers) number(name string) bool {
	if known, ok := n.known[name]; ok {
		return known
	}
	return slices.Contains(alwaysNumbers, name)
}

func isAssignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// numberWord reports whether the word is a number: a literal integer or
// an arithmetic expansion alone.
func numberWord(w *syntax.Word) bool {
	if w == nil {
		return true
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.ArithmExp:
			return true
		case *syntax.ParamExp:
			// ${#x}, $#, $?, $$: numbers.
			if p.Length && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Excl ||
				p.Param != nil && slices.Contains([]string{"#", "?", "$", "!"}, p.Param.Value) && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Excl && !p.Length {
				return true
			}
		}
	}
	v, ok := literal(w)
	return ok && isInteger(v)
}

func isInteger(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func validName(s string) bool {
	for i, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// evaluated returns why bash may evaluate text within the code string f
// as code charter does not read, or "".
func (r *reader) evaluated(f *syntax.File) string {
	why := ""
	syntax.Walk(f, func(node syntax.Node) bool {
		if why != "" {
			return false
		}
		switch x := node.(type) {
		case *syntax.ArithmExp:
			why = r.arithm(x.X)
		case *syntax.ArithmCmd:
			why = r.arithm(x.X)
		case *syntax.LetClause:
			for _, e := range x.Exprs {
				if why = r.arithm(e); why != "" {
					break
				}
			}
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{x.Init, x.Cond, x.Post} {
				if why = r.arithm(e); why != "" {
					break
				}
			}
		case *syntax.ParamExp:
			why = r.paramExp(x)
		case *syntax.Assign:
			why = r.arithm(x.Index)
			if why == "" && x.Name != nil && x.Value != nil {
				switch r.nums.attr[x.Name.Value] {
				case 'i':
					if !numberWord(x.Value) {
						why = r.arithmText(x.Value)
					}
				case 'n':
					why = r.nameText(x.Value)
				}
			}
			if why == "" && x.Naked && x.Name == nil && x.Value != nil {
				// declare 'a[...]=1': a name with its subscript.
				if v, ok := literal(x.Value); !ok || !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
					name, _, _ := strings.Cut(v, "=")
					why = r.name(name, ok)
				}
			}
		case *syntax.ArrayElem:
			why = r.arithm(x.Index)
		case *syntax.ForClause:
			// for n in WORDS: each word is stored in n.
			if it, ok := x.Loop.(*syntax.WordIter); ok && !r.nums.number(it.Name.Value) {
				if why = r.storedText(it.Name.Value); why != "" {
					why = "for " + why
				}
			}
		case *syntax.UnaryTest:
			if x.Op == syntax.TsVarSet {
				if w, ok := x.X.(*syntax.Word); ok {
					why = r.nameText(w)
				}
			}
		case *syntax.BinaryTest:
			switch x.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				for _, e := range []syntax.TestExpr{x.X, x.Y} {
					if w, ok := e.(*syntax.Word); ok && why == "" {
						why = r.arithmText(w)
					}
				}
			}
		}
		return why == ""
	})
	return why
}

const subscriptRuns = "and an array subscript in it runs the command substitutions it holds (a[$(cmd)])"

// arithm says why the arithmetic expression e may run code, or "".
func (r *reader) arithm(e syntax.ArithmExpr) string {
	switch x := e.(type) {
	case nil:
		return ""
	case *syntax.BinaryArithm:
		if why := r.arithm(x.X); why != "" {
			return why
		}
		return r.arithm(x.Y)
	case *syntax.UnaryArithm:
		return r.arithm(x.X)
	case *syntax.ParenArithm:
		return r.arithm(x.X)
	case *syntax.Word:
		return r.arithmText(x)
	}
	return "bash evaluates an arithmetic expression charter cannot read"
}

// arithmText says why a word bash evaluates as an arithmetic expression
// may run code, or "".
func (r *reader) arithmText(w *syntax.Word) string {
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if x.Value == "" || x.Value[0] >= '0' && x.Value[0] <= '9' {
				continue // a number (10, 0x1f, 2#101)
			}
			if validName(x.Value) && !r.nums.number(x.Value) {
				return fmt.Sprintf("bash evaluates the value of %s as an arithmetic expression, which charter does not see the command line make a number, %s", x.Value, subscriptRuns)
			}
			if !validName(x.Value) {
				return fmt.Sprintf("bash evaluates %q as an arithmetic expression, %s", x.Value, subscriptRuns)
			}
		case *syntax.ParamExp:
			if why := r.paramExp(x); why != "" {
				return why
			}
			if x.Length {
				continue // ${#x}: a number
			}
			if x.Param == nil || x.Excl || x.Names != 0 || x.Slice != nil || x.Repl != nil || x.Exp != nil && !numberWord(x.Exp.Word) || len(x.Modifiers) > 0 || !r.nums.number(x.Param.Value) {
				return fmt.Sprintf("bash evaluates the value of $%s as an arithmetic expression, which charter does not see the command line make a number, %s", paramName(x), subscriptRuns)
			}
		case *syntax.ArithmExp:
			// Its value is a number; its own expression is read where
			// the walk reaches it.
		case *syntax.CmdSubst:
			return "bash evaluates the output of a command substitution as an arithmetic expression, " + subscriptRuns
		default:
			v, ok := literal(&syntax.Word{Parts: []syntax.WordPart{p}})
			if !ok || !isInteger(strings.TrimSpace(v)) {
				return "bash evaluates text as an arithmetic expression that charter cannot read, " + subscriptRuns
			}
		}
	}
	return ""
}

func paramName(x *syntax.ParamExp) string {
	if x.Param == nil {
		return "?"
	}
	return x.Param.Value
}

// paramExp says why a parameter expansion may run code, or "".
func (r *reader) paramExp(x *syntax.ParamExp) string {
	if x.Exp != nil && x.Exp.Op == syntax.OtherParamOps && x.Exp.Word != nil && x.Exp.Word.Lit() == "P" {
		return fmt.Sprintf("${%s@P} expands the value as a prompt, which runs the command substitutions in it", paramName(x))
	}
	if x.Excl && x.Names == 0 && !allElements(x.Index) {
		return fmt.Sprintf("${!%s} reads the variable whose name is the value of %s, %s", paramName(x), paramName(x), subscriptRuns)
	}
	if !allElements(x.Index) {
		if why := r.arithm(x.Index); why != "" {
			return why
		}
	}
	if x.Slice != nil {
		if why := r.arithm(x.Slice.Offset); why != "" {
			return why
		}
		return r.arithm(x.Slice.Length)
	}
	return ""
}

// allElements reports whether an index is [@] or [*].
func allElements(e syntax.ArithmExpr) bool {
	w, ok := e.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

// nameText says why a word bash takes as a variable name may run code.
func (r *reader) nameText(w *syntax.Word) string {
	v, ok := literal(w)
	return r.name(v, ok)
}

// name says why bash taking s as a variable name (literal: known before
// it runs) may run code, or "".
func (r *reader) name(s string, known bool) string {
	if !known || s == Dynamic {
		return "bash takes a value known only when the command runs as a variable name, " + subscriptRuns
	}
	i := strings.IndexByte(s, '[')
	if i < 0 || !strings.HasSuffix(s, "]") {
		return ""
	}
	sub := s[i+1 : len(s)-1]
	if sub == "@" || sub == "*" || isInteger(sub) {
		return ""
	}
	e, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Arithmetic(strings.NewReader(sub))
	if err != nil {
		return fmt.Sprintf("bash takes %q as a variable name, %s", s, subscriptRuns)
	}
	if why := r.arithm(e); why != "" {
		return why
	}
	// The subscript is expanded before it is evaluated.
	if strings.ContainsAny(sub, "$`") {
		return fmt.Sprintf("bash takes %q as a variable name, %s", s, subscriptRuns)
	}
	return ""
}

// builtinNames says why a builtin's arguments that bash takes as variable
// names (read x, printf -v x, test -v x, unset x, declare x=1, getopts o
// x, wait -p x, mapfile a) or as arithmetic (let) may run code, or "".
func (r *reader) builtinNames(c *Command) string {
	args := c.Args
	var names []string
	switch c.Program {
	case "read":
		names = operandsAfter(args, "adinNptu", "a")
	case "printf", "wait":
		names = optionValues(args, "v", "p")
	case "mapfile", "readarray":
		names = operandsAfter(args, "dnOsuCc", "")
	case "getopts":
		if len(args) >= 2 {
			names = args[1:2]
		}
	case "test", "[":
		for i, a := range args {
			if a == "-v" && i+1 < len(args) {
				names = append(names, args[i+1])
			}
		}
	case "unset":
		names = operandsAfter(args, "", "")
	case "declare", "typeset", "local", "export", "readonly":
		for _, a := range operandsAfter(args, "", "") {
			name, _, _ := strings.Cut(a, "=")
			names = append(names, strings.TrimSuffix(name, "+"))
		}
	case "let":
		for _, a := range args {
			if a == Dynamic {
				return "let evaluates text known only when the command runs, " + subscriptRuns
			}
			e, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Arithmetic(strings.NewReader(a))
			if err != nil {
				return fmt.Sprintf("let evaluates %q, which charter cannot read, %s", a, subscriptRuns)
			}
			if why := r.arithm(e); why != "" {
				return why
			}
		}
	}
	for _, n := range names {
		if why := r.name(n, n != Dynamic); why != "" {
			return why
		}
	}
	// A builtin that stores text it reads in a variable declared -i
	// evaluates the text as arithmetic, and in one declared -n takes it
	// as the name a later use reads: declare -i n; read n ran the
	// substitution in a[$(cmd)].
	switch c.Program {
	case "read", "printf", "wait", "mapfile", "readarray", "getopts":
		if len(names) == 0 {
			names = []string{map[string]string{"read": "REPLY", "mapfile": "MAPFILE", "readarray": "MAPFILE"}[c.Program]}
		}
		for _, n := range names {
			base, _, _ := strings.Cut(n, "[")
			if why := r.storedText(base); why != "" {
				return fmt.Sprintf("%s %s", c.Program, why)
			}
		}
	}
	return ""
}

// storedText says why storing text the line does not show in the
// variable name may run code (its declared attribute), or "".
func (r *reader) storedText(name string) string {
	switch r.nums.attr[name] {
	case 'i':
		return fmt.Sprintf("stores text in %s, declared -i, and bash evaluates it as an arithmetic expression, %s", name, subscriptRuns)
	case 'n':
		return fmt.Sprintf("stores text in %s, declared -n, and bash takes it as a variable name, %s", name, subscriptRuns)
	}
	return ""
}

// operandsAfter returns the arguments that are not options, the options
// being clustered letters of which those in withValue take the next word
// (or the rest of the cluster) as their value; the values of the options
// in nameValue are returned too, since they are names.
func operandsAfter(args []string, withValue, nameValue string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' || a == Dynamic {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte(withValue, a[j]) < 0 {
				continue
			}
			value := a[j+1:]
			if value == "" && i+1 < len(args) {
				i++
				value = args[i]
			}
			if strings.IndexByte(nameValue, a[j]) >= 0 {
				out = append(out, value)
			}
			break
		}
	}
	return out
}

// clusterValues returns the values of the short option letter among
// args, whose options cluster (-tC CODE, -tCCODE) and of which those in
// withValue take the rest of the word or the next one, up to "--" or the
// first operand.
func clusterValues(args []string, withValue string, letter byte) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' || a == Dynamic {
			break
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte(withValue, a[j]) < 0 {
				continue
			}
			v := a[j+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if a[j] == letter {
				out = append(out, v)
			}
			break
		}
	}
	return out
}

// optionValues returns the values of the short options letters (-v x,
// -vx).
func optionValues(args []string, letters ...string) []string {
	var out []string
	for i, a := range args {
		for _, l := range letters {
			if v, ok := strings.CutPrefix(a, "-"+l); ok && a != Dynamic {
				if v == "" && i+1 < len(args) {
					v = args[i+1]
				}
				out = append(out, v)
			}
		}
	}
	return out
}
