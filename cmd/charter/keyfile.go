package main

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/charter-dev/charter/internal/release/cardsign"
)

// Hints for a key flag naming a file charter cannot read.
const (
	signKeyHint   = "give the PEM private key to sign with (make one: openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out release.pem)"
	verifyKeyHint = "give the PEM public key the bundle was signed with (openssl pkey -in release.pem -pubout -out release.pub writes it)"
)

// readVerifyKey reads the public key a key flag names, for verify, pull
// and eval.
func readVerifyKey(flag, file string) (*cardsign.Verifier, error) {
	v, err := cardsign.ReadVerifier(file)
	if err != nil {
		return nil, keyFileError(flag, err, verifyKeyHint)
	}
	return v, nil
}

// keyFileError is a key flag's error: a file that cannot be read says so
// in words (not as the system call that failed) with what to give
// instead; any other error (not a key, the wrong half) is cardsign's own.
func keyFileError(flag string, err error, hint string) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s %v", flag, err)
	}
	var why string
	switch {
	case errors.Is(pe.Err, fs.ErrNotExist):
		why = "no such file"
	case errors.Is(pe.Err, syscall.EISDIR):
		why = "is a directory, not a key file"
	case errors.Is(pe.Err, fs.ErrPermission):
		why = "cannot be read (permission denied)"
	default:
		why = "cannot be read: " + pe.Err.Error()
	}
	return withHint(fmt.Errorf("%s %s: %s", flag, pe.Path, why), hint)
}
