package lint

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
)

var secretLiteral = &Rule{
	ID:       "secret-literal",
	Severity: diag.Error,
	Summary:  "a literal credential (API key, token, password, private key) in the configuration",
	Doc: doc(`Configuration is committed, reviewed, built into bundles and shown in diffs; a credential in it leaks to everyone who can read any of those. This rule reads every string literal of the user's files, and every resolved value (a credential built by concatenation, "ghp_" + "...", or interpolation, or reaching a field through a reference), and flags (1) a field whose name says it holds a credential (a name ending in api_key, token, secret, password, private_key, access_key, client_secret, credentials, ...; not token_pattern) holding a literal rather than a reference, and (2) anywhere, a value shaped like a known credential: OpenAI and Anthropic keys (sk-, sk-proj-, sk-ant-), GitHub tokens (ghp_, github_pat_, and gho_, ghu_, ghs_ as in GITHUB_TOKEN, ghr_), AWS access key ids (AKIA...) and secret access keys (40 characters of base64), Slack tokens (xoxb-, xoxp-, ...), Google API keys (AIza...), Stripe secret keys (sk_live_, rk_live_, sk_test_), JSON Web Tokens, passwords in URLs (https://user:password@host) and PEM private keys. A value that looks like a reference is not flagged: an environment variable name (OPENAI_API_KEY), ${VAR} or {var}, env:, vault:, op:// or secret: references. The value is never printed. Read it at run time from the environment or a secret store, and rotate the credential: it is in Git history.

charter build refuses a bundle that would carry a credential this rule finds, or one its files hold (a prompt that puts two values side by side), whatever lint.disable and lint.severity say: only an ignore comment with a reason at the value's line lets it through.`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "sk-proj-Tq3J9...."}]`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "env:SEARCH_API_KEY"}]`),
	Run: func(p *Pass) {
		named := map[string]bool{} // secret.NamedLike by label: labels repeat in every agent
		var flagged []string
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
				if v, ok := checkSecret(p, f, s.Label, like, s.Lit); ok {
					flagged = append(flagged, v)
				}
			}
		}
		checkResolved(p, flagged)
	},
}

// checkSecret reports a string literal that is, or is named like, a
// credential (package secret decides), and returns its value when it
// does. It never puts the value in the message.
func checkSecret(p *Pass, f *load.File, label string, namedLike bool, lit *ast.BasicLit) (string, bool) {
	if !mayHoldSecret(lit.Value, namedLike) {
		return "", false
	}
	s, err := literal.Unquote(lit.Value)
	if err != nil || len(s) < 6 {
		return "", false
	}
	if k, ok := secret.Detect(s); ok {
		p.reportSecret(lit.Pos(), labelsAround(f, lit), s, "a literal that looks like %s; never commit credentials: read it from the environment or a secret store at run time, and rotate it (it is in Git history)", k.What)
		return s, true
	}
	if _, ok := secret.IsLiteral(label, s); ok {
		p.reportSecret(lit.Pos(), labelsAround(f, lit), s, "field %s holds a literal credential; never commit credentials: reference it (e.g. \"env:NAME\") and read it at run time, and rotate it (it is in Git history)", label)
		return s, true
	}
	return "", false
}

// reportSecret reports a credential, keeping its value (never printed)
// for build's guard.
func (p *Pass) reportSecret(pos token.Pos, path []string, value, format string, args ...any) {
	*p.out = append(*p.out, finding{rule: p.Rule, path: path, pos: pos, msg: fmt.Sprintf(format, args...), value: value})
}

// checkResolved reports the credentials of the resolved configuration that
// no literal holds whole: a value built by concatenation ("ghp_" + "...")
// or interpolation ("\(prefix)..."), or a literal reaching a field named
// like a credential through a reference. What reaches the bundle is what
// is checked; flagged are the literals already reported.
func checkResolved(p *Pass, flagged []string) {
	covered := func(v string) bool {
		for _, f := range flagged {
			if strings.Contains(f, v) {
				return true
			}
		}
		return false
	}
	cfg := p.Config
	for _, kind := range []struct {
		name  string
		decls any
	}{
		{"categories", cfg.Categories}, {"agentTypes", cfg.AgentTypes}, {"presets", cfg.Presets},
		{"behaviorTypes", cfg.BehaviorTypes}, {"profiles", cfg.Profiles}, {"agents", cfg.Agents},
		{"tests", cfg.Tests}, {"models", cfg.Models}, {"runtimes", cfg.Runtimes}, {"flows", cfg.Flows},
	} {
		b, err := json.Marshal(kind.decls)
		if err != nil {
			continue
		}
		var decls map[string]any
		if json.Unmarshal(b, &decls) != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(decls)) {
			if cfg.Builtin[kind.name+"."+name] {
				continue
			}
			walkStrings([]string{kind.name, name}, "", decls[name], func(path []string, label, v string) {
				ms := secret.Find(v)
				for _, m := range ms {
					if !covered(v[m.Start:m.End]) {
						p.reportSecret(token.NoPos, slices.Clone(path), v, "the value looks like %s, built from parts that no literal holds whole; never commit credentials: read it from the environment or a secret store at run time, and rotate it (it is in Git history)", m.Shape.What)
						return
					}
				}
				if len(ms) == 0 && label != "" && secret.NamedLiteral(label, v) && !covered(v) {
					p.reportSecret(token.NoPos, slices.Clone(path), v, "field %s holds a literal credential; never commit credentials: reference it (e.g. \"env:NAME\") and read it at run time, and rotate it (it is in Git history)", label)
				}
			})
		}
	}
}

// walkStrings calls fn with every string of v (as encoding/json decodes
// it), its path and its field's label ("" for a list element).
func walkStrings(path []string, label string, v any, fn func(path []string, label, v string)) {
	switch x := v.(type) {
	case string:
		if len(x) >= 6 && (secret.MayContain(x) || label != "" && secret.NamedLike(label)) {
			fn(path, label, x)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkStrings(append(path, k), k, x[k], fn)
		}
	case []any:
		for i, e := range x {
			walkStrings(append(path, index(i)), "", e, fn)
		}
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
	w := literalWalk{indices: true, fn: func(path []string, _ string, l *ast.BasicLit) {
		if l == lit && here == nil {
			here = append([]string{}, path...)
		}
	}}
	for _, d := range f.Syntax.Decls {
		w.node(d)
	}
	return here
}
