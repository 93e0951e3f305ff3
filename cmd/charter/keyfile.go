package main

import (
	"fmt"

	"github.com/charter-dev/charter/internal/fileerr"
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
		return nil, fileFlagError(flag, err, "key file", verifyKeyHint)
	}
	return v, nil
}

// fileFlagError is the error of a flag that names a file (kind: "key
// file", ...): a file that cannot be read says so in words (not as the
// system call that failed) with what to give instead; any other error
// (not a key, the wrong half) is the reader's own.
func fileFlagError(flag string, err error, kind, hint string) error {
	path, why, ok := fileerr.Why(err, kind)
	if !ok {
		return fmt.Errorf("%s %v", flag, err)
	}
	return withHint(fmt.Errorf("%s %s: %s", flag, path, why), hint)
}
