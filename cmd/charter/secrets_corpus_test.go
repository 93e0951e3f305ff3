package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// The credential corpus: one value of every shape the detector knows (test
// values, valid for nothing), each holding a marker, QQ and a name, that
// only the secret part of the value holds. No format of any command, and
// no file charter writes (the bundle, docs, site), may hold a marker.
var corpus = map[string]string{
	"github":    "ghp_QQgithub0123456789abcdefghijklmnopqr",
	"githubpat": "github_pat_QQgithubpat0123456789abcdefghij_0123456789abcdefghijklmnopqrstuvwxyz0123",
	"openai":    "sk-proj-QQopenai0123456789abcdefghij",
	"anthropic": "sk-ant-api03-QQanthropic0123456789abcdefghijklmnop",
	"awsid":     "AKIAQQAWSIDEXAMPLE12",
	"slack":     "xoxb-QQslack-1234567890-abcdefghij",
	"google":    "AIzaQQgoogle0123456789abcdefghijklmnopq",
	"stripe":    "sk_live_QQstripe0123456789abcdefghij",
	"stripeR":   "rk_live_QQstripeR0123456789abcdefghij",
	"jwt":       "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.QQjwt0123456789abcdefghijklmnopqrstuvwxyzAB",
	"url":       "postgres://app:QQurlPassw0rd9@db.example.com:5432/app",
	"awssecret": "wJalrXUtnFEMI/K7MDENG/QQawsSecretEXAMPLE",
}

// corpusPEM is a PEM private key whose body holds the marker.
const corpusPEM = `-----BEGIN RSA PRIVATE KEY-----
QQpemMIIEowIBAAKCAQEAx1y2z3w4v5u6t7s8r9q0pAbCdEfGhIjKlMn
Q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0xQQpemBody2Zz
-----END RSA PRIVATE KEY-----`

var corpusMarker = regexp.MustCompile(`QQ(github|githubpat|openai|anthropic|AWSID|slack|google|stripe|stripeR|jwt|urlPassw|awsSecret|pem|named|concat|interp|prompt)`)

// corpusConfig declares the corpus in the fields every output shows: the
// prompt (template, description, role, option text), skills, a behavior's
// parameter that only its name gives away, a tool's description, a rule's
// message and condition, a variable's description, a model id, and two credentials made by
// concatenation and interpolation, which no literal holds whole.
func corpusConfig() string {
	var b strings.Builder
	b.WriteString(`package charter

_prefix: "ghp_"
categories: tone: {title: "TONE", settings: style: {default: "warm", line: "- Tone: {text}", options: warm: text: "Be warm, ` + corpus["google"] + `"}}
behaviorTypes: SearchBehavior: {kind: "tools", params: api_key: {type: "string", default: ""},
	tools: search: {description: "Search with ` + corpus["stripe"] + `", parameters: {type: "object", properties: q: {type: "string"}}}}
profiles: guarded: {extends: "dev", rules: {
	no_rm: {rule: "no rm", trigger: "run_bash", condition: {type: "contains", field: "command", substring: "rm "}, action: "block", message: "Use ` + corpus["jwt"] + ` instead"}
	no_key: {rule: "no key", trigger: "run_bash", condition: {type: "contains", field: "command", substring: "` + corpus["awsid"] + `"}, action: "block", message: "No key."}
}}
agentTypes: helper: {name: "Helper", system_prompt: """
	You are {agent.name}, {agent.role}. {agent.description}
	Connect with ` + corpus["url"] + `.
	` + strings.ReplaceAll(corpusPEM, "\n", "\n\t") + `
	""",
	variables: v: {description: "a variable, ` + corpus["anthropic"] + `", required: false}}
agents: ann: {
	name: "Ann", type: "helper", profile: "guarded"
	role: "Support ` + corpus["awsid"] + `"
	description: "Helps with ` + corpus["github"] + " and " + corpus["awssecret"] + `, and " + "ghp_" + "QQconcat0123456789abcdefghijklmnop" + " and \(_prefix)QQinterp0123456789abcdefghijklmnop"
	personality: description: "Calm, ` + corpus["githubpat"] + `"
	skills: primary: [{id: "help", name: "Help", description: "Uses ` + corpus["slack"] + `", tags: ["support"], examples: ["` + corpus["openai"] + `"]}]
	behaviors: [{type: "SearchBehavior", params: api_key: "QQnamedHunter2Hunter2"}]
	tools: allowed: ["search", "run_bash"]
	authority: can_delegate_to: ["bob"]
	model: {provider: "anthropic", model_id: "claude-sonnet-4", fallback_model: "` + corpus["openai"] + `"}
}
agents: bob: {name: "Bob", type: "helper", role: "Lead", description: "Leads ` + corpus["stripeR"] + `"
	skills: primary: [{id: "help", name: "Help", description: "Helps.", tags: ["support"], examples: ["x"]}]}
tests: guarded_rm: {profile: "guarded", calls: [{tool: "run_bash", args: command: "rm -rf x"}], expect: [{call: 0, fires: [{rule: "no_rm", action: "warn"}]}]}
`)
	return b.String()
}

// TestSecretCorpus runs every command in every format over the corpus,
// and builds, and reads every file charter writes: no marker anywhere.
func TestSecretCorpus(t *testing.T) {
	realtool.Long(t, "one of the long tests")
	r := sourcetest.New(t)
	dir := r.Dir
	r.Write("cue.mod/module.cue", "module: \"example.com/x\"\nlanguage: version: \"v0.17.0\"\n",
		"a.cue", "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\"}\nagents: bob: {name: \"Bob\", type: \"personal_assistant\"}\n")
	r.Git("add", "-A")
	r.Git("commit", "-qm", "clean")
	r.Write("a.cue", corpusConfig())
	call := filepath.Join(t.TempDir(), "call.json")
	if err := os.WriteFile(call, []byte(`{"tool": "run_bash", "args": {"command": "rm -rf /"}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	check := func(what, out string) {
		t.Helper()
		if m := corpusMarker.FindAllString(out, -1); len(m) > 0 {
			t.Errorf("%s prints %v", what, uniq(m))
		}
	}
	runAll := func(commands [][]string) {
		t.Helper()
		for _, args := range commands {
			code, stdout, stderr := runArgs(append([]string{"-C", dir}, args...)...)
			if code == exitError && !strings.Contains(stderr, "refusing") {
				t.Errorf("charter %s: exit 2: %s", strings.Join(args, " "), stderr)
			}
			check("charter "+strings.Join(args, " "), stdout+stderr)
		}
	}
	formats := func(cmd []string, fs ...string) [][]string {
		out := [][]string{cmd}
		for _, f := range fs {
			out = append(out, append(append([]string{}, cmd...), "--format", f))
		}
		return out
	}
	var commands [][]string
	for _, c := range [][][]string{
		formats([]string{"validate"}, "json"),
		formats([]string{"lint"}, "json", "sarif", "github", "junit"),
		{{"render", "ann"}, {"render", "ann", "--sources"}, {"render", "bob", "--sources"}},
		formats([]string{"why", "ann", "description"}, "json"),
		formats([]string{"why", "ann", "role"}, "json"),
		formats([]string{"why", "ann", "behavior.tone.style"}, "json"),
		formats([]string{"why", "ann", "tools.search"}, "json"),
		formats([]string{"diff"}, "json", "markdown"),
		formats([]string{"test"}, "json", "junit"),
		{{"export", "ann", "--to", "claude-code"}, {"export", "ann", "--to", "a2a"}, {"export", "ann", "--to", "a2a-v0.3"}},
		exports(filepath.Join(dir, "exported")),
		formats([]string{"show", "ann"}, "cue"),
		{{"show", "--repo"}},
		formats([]string{"team", "ann", "bob"}, "json"),
		formats([]string{"route", "--skill", "help"}, "json"),
		{{"schema"}, {"explain", "secret-literal"}},
	} {
		commands = append(commands, c...)
	}
	runAll(commands)
	// An export is copied to a runtime: refused, nothing written.
	checkTree(t, filepath.Join(dir, "exported"), check)

	// eval: a rule's message, in both protocols.
	hook := filepath.Join(t.TempDir(), "hook.json")
	if err := os.WriteFile(hook, []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"eval", "--agent", "ann"},
		{"eval", "--profile", "guarded"},
		{"eval", "--agent", "ann", "--protocol", "claude-code", "--state-dir", t.TempDir()},
	} {
		in := call
		if slices.Contains(args, "--protocol") {
			in = hook
		}
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		stdin := os.Stdin
		os.Stdin = f
		_, stdout, stderr := runArgs(append([]string{"-C", dir}, args...)...)
		os.Stdin = stdin
		f.Close()
		check("charter "+strings.Join(args, " "), stdout+stderr)
	}

	// import: a file of another system that holds the corpus (its notes
	// and its diagnostics name keys, never values).
	seed := filepath.Join(t.TempDir(), "agent.yaml")
	if err := os.WriteFile(seed, []byte("agent:\n  name: Imported\n  role: \"Uses "+corpus["google"]+"\"\n  personality:\n    description: \""+corpus["jwt"]+"\"\n  secret_sauce: \""+corpus["stripe"]+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"import", seed, "--out", t.TempDir()}, {"import", seed, "--out", t.TempDir(), "--force"}} {
		_, stdout, stderr := runArgs(append([]string{"-C", dir}, args...)...)
		check("charter "+strings.Join(args[:1], " "), stdout+stderr)
	}

	// Files charter writes for people: docs and site.
	for _, args := range [][]string{{"docs", "--out", filepath.Join(dir, "ref")}, {"site", "--out", filepath.Join(dir, "site")}} {
		code, stdout, stderr := runArgs(append([]string{"-C", dir}, args...)...)
		if code != 0 {
			t.Fatalf("charter %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		check("charter "+strings.Join(args, " "), stdout+stderr)
		checkTree(t, args[2], check)
	}

	// The bundle: build refuses, whatever lint's settings say.
	for _, settings := range []string{"", "lint: disable: [\"secret-literal\"]\n", "lint: severity: \"secret-literal\": \"info\"\n"} {
		r.Write("charter.cue", "package charter\n"+settings)
		code, stdout, stderr := runArgs("-C", dir, "build", "--out", filepath.Join(dir, "dist"))
		if code != exitFindings || !strings.Contains(stderr, "refusing to build") {
			t.Errorf("build with %q: exit %d, want 1 and a refusal:\n%s", settings, code, stderr)
		}
		check("charter build", stdout+stderr)
		checkTree(t, filepath.Join(dir, "dist"), check)
	}
	if err := os.Remove(filepath.Join(dir, "charter.cue")); err != nil {
		t.Fatal(err)
	}

	// Credentials no literal holds whole: lint finds them in the resolved
	// values, and build refuses them; one the prompt alone assembles (two
	// fields side by side) build finds in the bundle's prompt.md.
	for _, c := range []struct{ src, lint, build string }{
		{`agents: ann: {name: "Ann", type: "personal_assistant", description: "x " + "ghp_" + "QQconcat0123456789abcdefghijklmnop"}`,
			`a.cue:2:56: error: [secret-literal] agents.ann.description: the value looks like a GitHub personal access token, built from parts`, "a.cue:2:56: error: [secret-literal]"},
		{"_p: \"ghp_\"\nagents: ann: {name: \"Ann\", type: \"personal_assistant\", role: \"\\(_p)QQinterp0123456789abcdefghijklmnop\"}",
			`a.cue:3:56: error: [secret-literal] agents.ann.role: the value looks like`, "a.cue:3:56: error: [secret-literal]"},
		{"_k: \"QQnamedHunter2Hunter2\"\nbehaviorTypes: S: {kind: \"tools\", params: api_key: {type: \"string\", default: \"\"}, tools: s: description: \"S.\"}\nagents: ann: {name: \"Ann\", type: \"personal_assistant\", behaviors: [{type: \"S\", params: api_key: _k}]}",
			`error: [secret-literal] agents.ann.behaviors[0].params.api_key: field api_key holds a literal credential`, "[secret-literal]"},
		{"agentTypes: t: {name: \"T\", system_prompt: \"Use {agent.name}{agent.role}.\"}\nagents: ann: {name: \"ghp_\", type: \"t\", role: \"QQprompt0123456789abcdefghijklmnop\"}",
			"", "agents/ann/prompt.md: error: [secret-literal] a value that looks like a GitHub personal access token"},
	} {
		r.Write("a.cue", "package charter\n"+c.src+"\n")
		code, stdout, stderr := runArgs("-C", dir, "lint")
		if c.lint != "" && (code != exitFindings || !strings.Contains(stderr, c.lint)) {
			t.Errorf("lint of %s: exit %d, want 1 and %q:\n%s", c.src, code, c.lint, stderr)
		}
		check("charter lint", stdout+stderr)
		code, stdout, stderr = runArgs("-C", dir, "build", "--out", filepath.Join(dir, "dist"))
		if code != exitFindings || !strings.Contains(stderr, c.build) || !strings.Contains(stderr, "refusing to build") {
			t.Errorf("build of %s: exit %d, want 1 and %q:\n%s", c.src, code, c.build, stderr)
		}
		check("charter build", stdout+stderr)
		checkTree(t, filepath.Join(dir, "dist"), check)
	}
	r.Write("a.cue", corpusConfig())

	// What Git holds: log and show read commits.
	r.Git("add", "-A")
	r.Git("commit", "-qm", "with the corpus")
	runAll([][]string{{"log", "ann"}, {"log", "ann", "--format", "json"}, {"show", "ann@v2"}, {"show", "ann@HEAD", "--format", "cue"},
		{"diff", "HEAD~1", "HEAD"}, {"diff", "HEAD~1", "HEAD", "--format", "json"}, {"diff", "HEAD~1", "HEAD", "--format", "markdown"},
		{"build", "--rev", "HEAD", "--out", filepath.Join(dir, "dist")}})
	checkTree(t, filepath.Join(dir, "dist"), check)
}

// exports are export --all --out of every target, each into its own
// folder under dir.
func exports(dir string) [][]string {
	var out [][]string
	for _, to := range allTargets() {
		out = append(out, []string{"export", "--all", "--to", to, "--out", filepath.Join(dir, to)})
	}
	return out
}

// checkTree checks every file under dir, when it exists.
func checkTree(t *testing.T, dir string, check func(what, out string)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		check(p, string(b))
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

var _ = fmt.Sprint
