package lint

import (
	"regexp"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/diag"
)

var secretLiteral = &Rule{
	ID:       "secret-literal",
	Severity: diag.Error,
	Summary:  "a literal credential (API key, token, password, private key) in the configuration",
	Doc: doc(`Configuration is committed, reviewed, built into bundles and shown in diffs; a credential in it leaks to everyone who can read any of those. This rule reads every string literal of the user's files and flags (1) a field whose name says it holds a credential (a name ending in api_key, token, secret, password, private_key, access_key, client_secret, credentials, ...; not token_pattern) holding a literal rather than a reference, and (2) anywhere, a value shaped like a known credential: OpenAI (sk-...), GitHub (ghp_..., github_pat_...), AWS access key ids (AKIA...), Slack (xoxb-/xoxp-...) tokens and PEM private keys. A value that looks like a reference is not flagged: an environment variable name (OPENAI_API_KEY), ${VAR} or {var}, env:, vault:, op:// or secret: references. The value is never printed. Read it at run time from the environment or a secret store, and rotate the credential: it is in Git history.`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "sk-proj-Tq3J9...."}]`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "env:SEARCH_API_KEY"}]`),
	Run: func(p *Pass) {
		for _, f := range p.Files {
			var path []string
			ast.Walk(f.Syntax, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Field:
					name, _, _ := ast.LabelName(n.Label)
					path = append(path, name)
					if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						checkSecret(p, path, name, lit)
						path = path[:len(path)-1] // after is not called
						return false
					}
				case *ast.BasicLit:
					if n.Kind == token.STRING {
						checkSecret(p, path, "", n)
					}
				}
				return true
			}, func(n ast.Node) {
				if _, ok := n.(*ast.Field); ok {
					path = path[:len(path)-1]
				}
			})
		}
	},
}

// checkSecret reports a string literal that is, or is named like, a
// credential. It never puts the value in the message.
func checkSecret(p *Pass, path []string, label string, lit *ast.BasicLit) {
	if !mayHoldSecret(lit.Value, label) {
		return
	}
	s, err := literal.Unquote(lit.Value)
	if err != nil || len(s) < 6 {
		return
	}
	here := append([]string(nil), path...)
	for _, k := range secretShapes {
		if strings.Contains(s, k.prefix) && k.re.MatchString(s) {
			p.ReportPosf(lit.Pos(), here, "a literal that looks like %s; never commit credentials: read it from the environment or a secret store at run time, and rotate it (it is in Git history)", k.what)
			return
		}
	}
	if label != "" && secretLabel(label) && !looksLikeReference(s) {
		p.ReportPosf(lit.Pos(), here, "field %s holds a literal credential; never commit credentials: reference it (e.g. \"env:NAME\") and read it at run time, and rotate it (it is in Git history)", label)
	}
}

// mayHoldSecret is a quick test on a literal's source text: false means
// checkSecret would report nothing. Most literals of a repository are
// prose and names; this spares unquoting them. Escapes could spell a
// prefix, so a literal with a backslash is always checked.
func mayHoldSecret(raw, label string) bool {
	if label != "" && secretLabel(label) || strings.Contains(raw, `\`) {
		return true
	}
	for _, k := range secretShapes {
		if strings.Contains(raw, k.prefix) {
			return true
		}
	}
	return false
}

// secretShapes are the shapes of well-known credentials.
var secretShapes = []struct {
	prefix string
	re     *regexp.Regexp
	what   string
}{
	{"sk-", regexp.MustCompile(`(^|[^A-Za-z0-9])sk-(proj-|ant-)?[A-Za-z0-9_-]{20,}`), "an OpenAI or Anthropic API key"},
	{"ghp_", regexp.MustCompile(`ghp_[A-Za-z0-9]{30,}`), "a GitHub personal access token"},
	{"github_pat_", regexp.MustCompile(`github_pat_[A-Za-z0-9_]{22,}`), "a GitHub fine-grained access token"},
	{"AKIA", regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), "an AWS access key id"},
	{"xox", regexp.MustCompile(`xox[bpas]-[A-Za-z0-9-]{10,}`), "a Slack token"},
	{"-----BEGIN", regexp.MustCompile(`-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----`), "a PEM private key"},
}

// secretName matches field names of credentials: names that end in a
// credential word, after _ or - (api_key, db_password; not token_pattern).
var secretName = regexp.MustCompile(`(^|[_-])(api[_-]?key|apikey|token|auth[_-]?token|access[_-]?token|refresh[_-]?token|bearer|secret|client[_-]?secret|password|passwd|passphrase|pwd|private[_-]?key|access[_-]?key|secret[_-]?key|credentials?)$`)

// secretLabel reports whether a field name names a credential.
func secretLabel(label string) bool {
	lower := strings.ToLower(label)
	for _, w := range []string{"key", "token", "bearer", "secret", "pass", "pwd", "credential"} {
		if strings.Contains(lower, w) {
			return secretName.MatchString(lower)
		}
	}
	return false
}

var envName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// looksLikeReference reports whether a value refers to a credential rather
// than being one.
func looksLikeReference(s string) bool {
	switch {
	case envName.MatchString(s),
		strings.Contains(s, "${"), strings.HasPrefix(s, "$"),
		strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"),
		strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">"):
		return true
	}
	for _, prefix := range []string{"env:", "vault:", "op://", "secret:", "secrets:", "ref:", "file:", "arn:aws:secretsmanager:", "projects/"} {
		if strings.HasPrefix(strings.ToLower(s), prefix) {
			return true
		}
	}
	return strings.ContainsAny(s, " \n") // prose (a description), not a credential
}
