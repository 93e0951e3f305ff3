// Package hook is the Claude Code hook command on a built bundle: the
// body of both `charter eval --protocol claude-code --bundle DIR` and
// `charter-hook --bundle DIR`, so that the two answer every call alike,
// byte for byte (docs/rules.md section 8). It opens the bundle (checked
// against its manifest, and against its signature with a verify key),
// sets up the one judge (internal/enforce/judge) and answers one hook
// call with rules/claudecode.
//
// It links nothing of CUE, the compiler, Git or the registries: the hook
// runs once per tool call, and a program that links only what judging a
// call needs answers it in about half charter's time (docs/performance.md).
// TestHookLinksLittle (cmd/charter-hook) holds it so. Since it is the
// body of two command lines with the same flags, its messages name those
// flags.
package hook

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/enforce/judge"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/rules"
	"github.com/charter-dev/charter/rules/claudecode"
)

// Runtime is the runtime whose tool names the hook reads calls in.
const Runtime = "claude-code"

// Options are the hook's command line.
type Options struct {
	// Bundle is the built bundle's folder (--bundle).
	Bundle string
	// VerifyKey, when set, is a PEM public key file whose signature
	// manifest.json must carry (--verify-key).
	VerifyKey string
	// Agent is the agent whose calls are judged (--agent); Profile, when
	// Agent is "", the profile every call meets (--profile).
	Agent, Profile string
	// StateDir keeps the sessions (--state-dir); "" for the user's cache.
	StateDir string
	// OnError is what a call the hook cannot judge gets (--on-error).
	OnError rules.OnError
}

// Check returns the error of a command line that names no agent and no
// profile, or both.
func (o Options) Check() error {
	if (o.Agent == "") == (o.Profile == "") {
		return errors.New("give exactly one of --agent ID and --profile NAME")
	}
	return nil
}

// BundleError is a bundle that cannot be opened or is not the signed
// one, with what to do about it.
type BundleError struct {
	Err  error
	Hint string
}

func (e *BundleError) Error() string { return e.Err.Error() }

func (e *BundleError) Unwrap() error { return e.Err }

// OpenBundle opens the bundle in dir (its manifest: every file read later
// is checked against it) and, with verifyKey, checks that manifest.json
// carries that key's signature, so that every file read is one the key
// vouched for. charter eval without a protocol opens its bundle here too.
func OpenBundle(dir, verifyKey string) (*bundlefile.Runtime, error) {
	r, err := bundlefile.OpenRuntime(dir)
	if err != nil {
		return nil, &BundleError{Err: err, Hint: "build the bundle with charter build, and deploy it whole"}
	}
	if verifyKey != "" {
		v, err := cardsign.ReadVerifier(verifyKey)
		if err != nil {
			return nil, fmt.Errorf("--verify-key %v", err)
		}
		if err := v.VerifyRuntime(r); err != nil {
			return nil, &BundleError{Err: fmt.Errorf("the bundle at %s: %v", dir, err), Hint: "deploy the bundle charter build --sign-key wrote, whole"}
		}
	}
	return r, nil
}

// Run answers the one hook call on stdin, on stdout, judged with the
// bundle o names. Every failure to judge the call is answered on stdout
// (a deny, or what o.OnError says): Run returns an error only when the
// answer could not be written.
func Run(o Options, stdin io.Reader, stdout io.Writer) error {
	return Handler(o, func() (*judge.Judge, error) {
		r, err := OpenBundle(o.Bundle, o.VerifyKey)
		if err != nil {
			return nil, err
		}
		j := judge.New(judge.Bundle{R: r}, o.OnError)
		// A hook judges one call per process, of a bundle charter build
		// checked: it compiles only the expressions of the rules the call
		// reaches (docs/design.md §8.2).
		j.DeferExpressions()
		return j, nil
	}).Handle(stdin, stdout)
}

// Handler returns the claudecode.Handler that answers a hook call with
// the judge open returns (charter eval without --bundle opens a
// repository built in memory), keeping sessions where o says. An error
// of open, or of the state folder, is the answer to every call.
func Handler(o Options, open func() (*judge.Judge, error)) *claudecode.Handler {
	dir, cacheErr := o.StateDir, error(nil)
	if dir == "" {
		var err error
		if dir, err = claudecode.DefaultStateDir(); err != nil {
			cacheErr = fmt.Errorf("no user cache directory to keep sessions in (%v): give --state-dir", err)
		}
	}
	j, err := open()
	var source func(agentType string) (*rules.Engine, string, error)
	if err == nil {
		source = j.Source(o.Agent, o.Profile, Runtime)
	} else {
		// What failed is said, not judged: no error type of a bundle or a
		// build is a decision of the handler's.
		err = errors.New(err.Error())
	}
	return &claudecode.Handler{Store: &rules.Store{Dir: dir, Unusable: cacheErr}, OnError: o.OnError,
		Engine: func(agentType string) (*rules.Engine, string, error) {
			if err != nil {
				return nil, "", err
			}
			return source(agentType)
		}}
}

// Failure answers, on stdout, a hook call that failed before Run could
// answer it (a command line that cannot be read, a panic): a deny with
// err, or with OnError allow a message that lets the call go on.
func Failure(stdout io.Writer, onError rules.OnError, err error) error {
	h := &claudecode.Handler{OnError: onError}
	return claudecode.Write(stdout, h.Failure("", err))
}

// OnErrorOf is the --on-error a command line asks for, read from its
// words: for a failure to parse the command line, which stops before the
// flag is set. Anything but allow is deny.
func OnErrorOf(args []string) rules.OnError {
	if FlagWord(args, "--on-error") == "allow" {
		return rules.OnErrorAllow
	}
	return rules.OnErrorDeny
}

// FlagWord is the value the words give flag (--flag=v or --flag v; the
// last, as a flag parser takes it), "" when none does.
func FlagWord(args []string, flag string) string {
	v := ""
	for i, a := range args {
		if val, ok := strings.CutPrefix(a, flag+"="); ok {
			v = val
		} else if a == flag && i+1 < len(args) {
			v = args[i+1]
		}
	}
	return v
}
