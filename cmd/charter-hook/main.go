// Command charter-hook is the Claude Code hook on a built bundle, as a
// program of its own: it answers one PreToolUse, PostToolUse or
// SessionEnd call exactly as `charter eval --protocol claude-code
// --bundle DIR` does (the same package, internal/enforce/hook), and
// links only what judging a call needs, so that it starts in a few
// milliseconds where charter, which links CUE, Git and the registries,
// takes twice that on every tool call (docs/performance.md).
//
//	charter-hook --bundle DIR (--agent ID | --profile NAME) [--state-dir DIR] [--verify-key FILE] [--on-error deny|allow]
//
// Every failure, a command line it cannot read among them, is answered
// on standard output (a deny, or with --on-error allow a message that
// lets the call go on) with exit status 0, as Claude Code needs. See
// docs/rules.md, section 8.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/charter-dev/charter/internal/buildinfo"
	"github.com/charter-dev/charter/internal/enforce/hook"
	_ "github.com/charter-dev/charter/internal/gcstart" // charter's GC setting for start-up, as charter has it
	"github.com/charter-dev/charter/internal/output/checked"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/rules"
)

const usageText = `charter-hook answers one Claude Code hook call (PreToolUse, PostToolUse,
SessionEnd) on standard input with the rules of a built bundle, exactly as
charter eval --protocol claude-code --bundle DIR does, and starts faster.

Usage:
  charter-hook --bundle DIR (--agent ID | --profile NAME) [flags]

Flags:
`

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is charter-hook with args, its exit status: 0 whenever the call
// was answered, 2 when the answer could not be written.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// As charter's: every byte passes the credential detector, and the
	// first write error of each file is kept.
	cout, cerr := &checked.Writer{W: stdout}, &checked.Writer{W: stderr}
	rout, rerr := secret.NewWriter(cout), secret.NewWriter(cerr)
	defer func() {
		rout.Flush()
		rerr.Flush()
		if cout.Err() != nil && code != 2 {
			fmt.Fprintf(cerr, "charter: writing standard output: %v\n", cout.Err())
			code = 2
		}
		if cerr.Err() != nil {
			code = 2
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(rerr, "charter: internal error: %v\n%s\nThis is a bug in charter; please report it with the input that caused it.\n", r, debug.Stack())
			// The hook answers even its own bug: a deny.
			_ = hook.Failure(rout, hook.OnErrorOf(args), fmt.Errorf("internal error: %v", r))
			code = 0
		}
	}()
	o, err := parse(args, rout)
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if err == nil {
		err = hook.Run(o, stdin, rout)
	}
	if rout.Flush(); cout.Err() != nil && (err == nil || errors.Is(err, cout.Err())) {
		err = fmt.Errorf("writing standard output: %w", cout.Err())
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(rerr, "charter: %s\n", diag.Escape(err.Error(), ""))
	// Claude Code lets a call through when a hook exits 1 and reads
	// nothing but stderr on exit 2: the hook's own failure is an answer
	// on stdout, on exit 0.
	_ = hook.Failure(rout, hook.OnErrorOf(args), err)
	return 0
}

// parse reads the command line; with --help it prints the usage to w
// and returns pflag.ErrHelp, with --version the version.
func parse(args []string, w io.Writer) (hook.Options, error) {
	var o hook.Options
	fs := pflag.NewFlagSet("charter-hook", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVar(&o.Bundle, "bundle", "", "the built bundle (charter build --out DIR) whose rules judge the call: required")
	fs.StringVar(&o.Agent, "agent", "", "judge with this agent's profile and tools")
	fs.StringVar(&o.Profile, "profile", "", "judge with this profile")
	fs.StringVar(&o.StateDir, "state-dir", "", "where sessions are kept (default: charter/sessions under the user's cache directory)")
	fs.StringVar(&o.VerifyKey, "verify-key", "", "require manifest.json signed by this PEM public key")
	protocol := choice{value: "claude-code", noun: "protocol", values: []string{"claude-code"}}
	fs.Var(&protocol, "protocol", "the runtime's hook protocol: claude-code, the only one")
	onError := choice{value: "deny", noun: "on-error", values: []string{"deny", "allow"}}
	fs.Var(&onError, "on-error", "what a call gets that charter cannot judge: deny or allow")
	version := fs.Bool("version", false, "print the version and exit")
	help := fs.BoolP("help", "h", false, "print this help and exit")
	if err := fs.Parse(args); err != nil {
		var ce *choiceError
		if errors.As(err, &ce) {
			return o, ce
		}
		return o, fmt.Errorf("%v (see 'charter-hook --help')", err)
	}
	switch {
	case *help:
		fmt.Fprint(w, usageText+fs.FlagUsages())
		return o, pflag.ErrHelp
	case *version:
		fmt.Fprintf(w, "charter-hook %s\n", buildinfo.Read().Version)
		return o, pflag.ErrHelp
	case fs.NArg() > 0:
		return o, fmt.Errorf("charter-hook takes no arguments; got %q (see 'charter-hook --help')", fs.Arg(0))
	case o.Bundle == "":
		return o, errors.New("give --bundle DIR: charter-hook judges calls with a built bundle (charter build --out DIR writes one); charter eval --protocol claude-code builds the repository instead")
	}
	if onError.value == "allow" {
		o.OnError = rules.OnErrorAllow
	}
	return o, o.Check()
}

// choice is a flag whose value is one of a fixed set, as charter's
// --protocol and --on-error are.
type choice struct {
	value  string
	noun   string
	values []string
}

func (c *choice) String() string { return c.value }
func (c *choice) Type() string   { return "string" }

func (c *choice) Set(s string) error {
	if !slices.Contains(c.values, s) {
		return &choiceError{fmt.Sprintf("unknown %s %q; valid %ss: %s", c.noun, s, c.noun, strings.Join(c.values, ", "))}
	}
	c.value = s
	return nil
}

type choiceError struct{ msg string }

func (e *choiceError) Error() string { return e.msg }
