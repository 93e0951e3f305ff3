package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Action is what a rule does when it fires.
type Action string

// The four actions. Block, Ask and Warn apply before the call runs (phase
// Pre); Remind applies after it ran (phase Post).
const (
	// Block stops the call; the runtime does not run it.
	Block Action = "block"
	// Ask lets the call run only when the user approves it; the runtime
	// asks. A call that then runs (phase Post) records the approval: the
	// rule's firing, from which its cooldown counts.
	Ask Action = "ask"
	// Warn lets the call run and shows the model the rule's message.
	Warn Action = "warn"
	// Remind shows the model the rule's message after the call ran.
	Remind Action = "remind"
)

// Phase returns the phase in which rules with this action are evaluated:
// Pre for Block, Ask and Warn, Post for Remind, "" for an unknown action.
func (a Action) Phase() Phase {
	switch a {
	case Block, Ask, Warn:
		return Pre
	case Remind:
		return Post
	}
	return ""
}

// ConditionType says which kind of test a Condition is.
type ConditionType string

// The four condition types.
const (
	// Contains holds when the argument named by Field, as a string, contains
	// Substring.
	Contains ConditionType = "contains"
	// Matches holds when the argument named by Field, as a string, matches
	// the RE2 regular expression Pattern.
	Matches ConditionType = "matches"
	// NotIn holds when the argument named by Field, as a string, is none of
	// Values.
	NotIn ConditionType = "not_in"
	// Expr holds when the CEL expression Expr evaluates to true.
	Expr ConditionType = "expr"
)

// Profile is a compiled rule profile: what dist/profiles/<name>.json holds.
// It is flat: the compiler has already resolved extends, so Rules holds every
// rule, inherited or not, with every field set.
type Profile struct {
	// Name is the profile's name (the key under profiles in CUE).
	Name string `json:"name"`
	// Description says what the profile is for.
	Description string `json:"description,omitempty"`
	// Extends is the chain of profiles this one was built from, nearest
	// first (["coding", "dev"] for a profile that extends coding). It is
	// informational: Rules already holds the inherited rules.
	Extends []string `json:"extends,omitempty"`
	// ToolFamilies maps a family name (edit, read, bash, ...) to the tool
	// names it stands for, merged along the extends chain.
	ToolFamilies map[string][]string `json:"tool_families,omitempty"`
	// Rules holds every rule, sorted by ID.
	Rules []Rule `json:"rules"`
	// AllowProtectedWrites are the protected files (ProtectRule) the
	// profile's agents may change nonetheless: path patterns matched
	// against a file's last path elements (".envrc", ".git/hooks/*"),
	// "*" for every one. The operator's explicit choice; empty protects
	// them all.
	AllowProtectedWrites []string `json:"allow_protected_writes,omitempty"`
	// Classifier configures the optional turn classifier; the rules engine
	// does not use it.
	Classifier *Classifier `json:"classifier,omitempty"`
}

// Rule is one rule of a profile: when a call matches Trigger and Condition
// holds, the rule fires and the runtime takes Action with Message.
type Rule struct {
	// ID is the rule's key under rules in CUE; unique within a profile.
	ID string `json:"id"`
	// Text is the rule in plain words (CUE field rule).
	Text string `json:"rule,omitempty"`
	// Trigger is a tool name, a tool family (a key of
	// Profile.ToolFamilies) or "*" for every call.
	Trigger string `json:"trigger"`
	// Condition is what the rule checks; nil means the rule fires on every
	// call its trigger matches.
	Condition *Condition `json:"condition,omitempty"`
	// Action is block, ask, warn or remind.
	Action Action `json:"action"`
	// Message is what the model is told when the rule fires; when empty,
	// Text is used.
	Message string `json:"message,omitempty"`
	// Cooldown is how many calls the rule stays quiet after it fired (an
	// ask rule: after the user approved a call it asked about). A block
	// rule takes none: a cooldown would let the blocked call through.
	Cooldown int `json:"cooldown,omitempty"`
	// Enabled is false for a rule that never fires. The compiler always
	// writes it; when a JSON rule leaves it out, UnmarshalJSON sets it to
	// true. A Rule built in Go must set it.
	Enabled bool `json:"enabled"`
}

// UnmarshalJSON decodes a rule, taking a missing "enabled" as true.
func (r *Rule) UnmarshalJSON(b []byte) error {
	type plain Rule
	v := plain{Enabled: true}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Rule(v)
	return nil
}

// Condition says what a rule looks at. Type picks which other fields apply:
// contains (Field, Substring), matches (Field, Pattern), not_in (Field,
// Values) or expr (Expr); the others must be empty.
type Condition struct {
	// Type is contains, matches, not_in or expr.
	Type ConditionType `json:"type"`
	// Field names the call argument a contains, matches or not_in condition
	// reads: a key of the call's arguments, or a dotted path into nested
	// arguments (edits.0.new_string). The name "path" falls back to
	// file_path and notebook_path when the call has no path argument.
	Field string `json:"field,omitempty"`
	// Substring is what a contains condition looks for.
	Substring string `json:"substring,omitempty"`
	// Pattern is the RE2 regular expression of a matches condition.
	Pattern string `json:"pattern,omitempty"`
	// Values are the values a not_in condition excludes.
	Values []string `json:"values,omitempty"`
	// Expr is the CEL expression of an expr condition; see docs/rules.md
	// for the variables and functions it may use.
	Expr string `json:"expr,omitempty"`
}

// Classifier is the optional small model that picks an approach per turn.
// The rules engine carries it in the profile for runtimes; it does not use
// it.
type Classifier struct {
	// Frequency is every_turn, first_turn or manual.
	Frequency string `json:"frequency"`
	// Approaches are the approaches the classifier picks from.
	Approaches []string `json:"approaches,omitempty"`
	// Timeout is in seconds.
	Timeout float64 `json:"timeout,omitempty"`
	// Model names the model the classifier runs on.
	Model string `json:"model,omitempty"`
	// Hints are the texts prepended to the system prompt for the turn, by
	// approach.
	Hints map[string]string `json:"hints,omitempty"`
}

// DecodeProfile reads one compiled profile in JSON. Unknown fields, in the
// profile or in any rule, are an error, so that a misspelt key does not
// silently drop a setting. (Plain json.Unmarshal into a Profile ignores them.)
func DecodeProfile(r io.Reader) (Profile, error) {
	var raw struct {
		Name         string              `json:"name"`
		Description  string              `json:"description,omitempty"`
		Extends      []string            `json:"extends,omitempty"`
		ToolFamilies map[string][]string `json:"tool_families,omitempty"`
		Rules        []strictRule        `json:"rules"`
		Classifier   *Classifier         `json:"classifier,omitempty"`
		Allow        []string            `json:"allow_protected_writes,omitempty"`
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Profile{}, fmt.Errorf("decoding profile: %w", err)
	}
	if dec.More() {
		return Profile{}, fmt.Errorf("decoding profile: more than one JSON value; a profile file holds exactly one object")
	}
	p := Profile{
		Name:         raw.Name,
		Description:  raw.Description,
		Extends:      raw.Extends,
		ToolFamilies: raw.ToolFamilies,
		Classifier:   raw.Classifier,

		AllowProtectedWrites: raw.Allow,
	}
	if raw.Rules != nil {
		p.Rules = make([]Rule, len(raw.Rules))
		for i, r := range raw.Rules {
			p.Rules[i] = Rule(r)
		}
	}
	return p, nil
}

// strictRule decodes a Rule like Rule.UnmarshalJSON, but rejects unknown
// fields.
type strictRule Rule

func (r *strictRule) UnmarshalJSON(b []byte) error {
	type plain Rule
	v := plain{Enabled: true}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*r = strictRule(v)
	return nil
}

// MarshalProfile encodes a profile as indented JSON with a final newline, the
// form of dist/profiles/<name>.json. Map keys come out sorted, so the same
// profile always gives the same bytes.
func MarshalProfile(p Profile) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
