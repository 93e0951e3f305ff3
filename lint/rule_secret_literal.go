package lint

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
)

var secretLiteral = &Rule{
	ID:       "secret-literal",
	Severity: diag.Error,
	Summary:  "a literal credential (API key, token, password, private key) in the configuration",
	Doc: doc(`Configuration is committed, reviewed, built into bundles and shown in diffs; a credential in it leaks to everyone who can read any of those. This rule reads every string literal of the user's files and flags (1) a field whose name says it holds a credential (a name ending in api_key, token, secret, password, private_key, access_key, client_secret, credentials, ...; not token_pattern) holding a literal rather than a reference, and (2) anywhere, a value shaped like a known credential: OpenAI (sk-...), GitHub (ghp_..., github_pat_..., and gho_, ghu_, ghs_ as in GITHUB_TOKEN, ghr_), AWS access key ids (AKIA...), Slack (xoxb-/xoxp-...) tokens and PEM private keys. A value that looks like a reference is not flagged: an environment variable name (OPENAI_API_KEY), ${VAR} or {var}, env:, vault:, op:// or secret: references. The value is never printed. Read it at run time from the environment or a secret store, and rotate the credential: it is in Git history.`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "sk-proj-Tq3J9...."}]`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "env:SEARCH_API_KEY"}]`),
	Run: func(p *Pass) {
		named := map[string]bool{} // secret.NamedLike by label: labels repeat in every agent
		for _, f := range p.Files {
			// The loader collected the file's string literals as it
			// walked it; the labels around one are looked up only when
			// it is reported.
			for _, s := range f.Strings {
				like, ok := named[s.Label]
				if !ok {
					like = s.Label != "" && secret.NamedLike(s.Label)
					named[s.Label] = like
				}
				checkSecret(p, f, s.Label, like, s.Lit)
			}
		}
	},
}

// checkSecret reports a string literal that is, or is named like, a
// credential (package secret decides). It never puts the value in the
// message.
func checkSecret(p *Pass, f *load.File, label string, namedLike bool, lit *ast.BasicLit) {
	if !mayHoldSecret(lit.Value, namedLike) {
		return
	}
	s, err := literal.Unquote(lit.Value)
	if err != nil || len(s) < 6 {
		return
	}
	if k, ok := secret.Detect(s); ok {
		p.ReportPosf(lit.Pos(), labelsAround(f, lit), "a literal that looks like %s; never commit credentials: read it from the environment or a secret store at run time, and rotate it (it is in Git history)", k.What)
		return
	}
	if _, ok := secret.IsLiteral(label, s); ok {
		p.ReportPosf(lit.Pos(), labelsAround(f, lit), "field %s holds a literal credential; never commit credentials: reference it (e.g. \"env:NAME\") and read it at run time, and rotate it (it is in Git history)", label)
	}
}

// mayHoldSecret is a quick test on a literal's source text: false means
// checkSecret would report nothing (namedLike: its field is named like a
// credential). Most literals of a repository are
// prose and names; this spares unquoting them. Escapes could spell a
// prefix, so a literal with a backslash is always checked.
func mayHoldSecret(raw string, namedLike bool) bool {
	return namedLike || strings.Contains(raw, `\`) || secret.MayContain(raw)
}

// labelsAround returns the labels of the fields around lit in f.
func labelsAround(f *load.File, lit *ast.BasicLit) []string {
	var here []string
	stringLiterals(f.Syntax, func(path []string, _ string, l *ast.BasicLit) {
		if l == lit && here == nil {
			here = append([]string{}, path...)
		}
	})
	return here
}
