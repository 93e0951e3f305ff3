// Package lint holds charter's lint rules and the driver that runs them over
// a compiled program.
//
// A rule is a plain value (see [Rule]): a stable kebab-case id, a default
// severity, a one-line summary, a Markdown doc with a bad and a good example,
// and a Run function that looks across the declarations of a
// [compiler.Program] and reports findings through a [Pass] at CUE paths. No
// rule evaluates CUE; each is linear in the size of the model. Positions are
// resolved only for findings.
//
// [Run] runs the enabled rules of the registry ([All]), applies the
// repository's settings (lint: {disable: [...], severity: {...}}) and the
// inline suppressions (// charter:ignore RULE reason), and returns sorted
// diagnostics. The registry is checked when the package is initialised: a
// malformed rule is a bug and panics at start-up, never later.
package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/charter-dev/charter/internal/output/diag"
)

// Rule is one lint rule.
type Rule struct {
	// ID is stable kebab-case, e.g. secret-literal.
	ID string
	// Severity is the default severity of the rule's findings.
	Severity diag.Severity
	// Summary is one line.
	Summary string
	// Doc is one paragraph and a bad and a good CUE example, in Markdown.
	Doc string
	// Off marks a rule that runs only when enabled (--enable).
	Off bool
	// Run reports the rule's findings. It is nil for the rules the driver
	// itself checks (suppression comments, settings) and for the rules the
	// compiler reports (see Kind).
	Run func(*Pass)
	// Kind says who reports the rule's findings.
	Kind Kind
}

// Kind says who reports a rule's findings.
type Kind int

const (
	// Analyzer is a rule lint checks: on the compiled program, or, for the
	// driver's own rules, on suppression comments and settings.
	Analyzer Kind = iota
	// CompilerReported is a rule whose findings the compiler reports as
	// errors (lint stops before its rules on any error). It is documented
	// here so that explain and SARIF know it; it cannot be disabled.
	CompilerReported
)

// Info returns the rule's metadata for output formats.
func (r *Rule) Info() diag.RuleInfo {
	return diag.RuleInfo{ID: r.ID, Severity: r.Severity, Summary: r.Summary, Doc: r.Doc}
}

// registry lists every rule, one per file (rule_<id>.go). TestRegistry
// checks it ([Check]): a malformed rule is a bug in charter. It is not
// checked at start-up, which every charter process would pay for.
var registry = []*Rule{
	// Suppression comments and settings, checked by the driver.
	ignoreWithoutReason, unusedIgnore, unknownRule,
	// Checked by the compiler.
	toolConflict,
	// Templates and text.
	unfilledPlaceholder, unusedVariable, instructionOverride, secretLiteral, promptOverBudget, invisibleCharacters,
	// Tools and profiles.
	triggerUnknown, triggerUnprovided, toolPermissionUnprovided, toolAllowedAndDenied,
	templateNamesDeniedTool, optionNamesDeniedTool, behaviorPlaceholderUnfilled, settingContradictsProfile, timeoutEventWithoutTimeout,
	blockInstructedTool, instructionNamesDeniedTool, runtimeToolUnknown, destructiveWithoutProfile, regexInvalid, multipleContextBehaviors,
	// Authority and team.
	reportingCycle, delegationCycle, delegationWidens, budgetExceedsManager, lowCompatibility,
	// Options, presets, types.
	unreachableOption, deprecatedInUse, unusedPreset, unusedAgentType, categoryLeftOut, optionCountMismatch,
	// Models and skills.
	unknownModel, fallbackSameModel, highTemperature, skillMissingDescription, modelRequirementUnmet, cardWithoutSkills, skillWithoutTags,
	// Flows.
	flowInputMissing, flowStepUnreachable,
}

// All returns every registered rule, sorted by id.
func All() []*Rule {
	out := slices.Clone(registry)
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Lookup returns the rule with the given id.
func Lookup(id string) (*Rule, bool) {
	for _, r := range registry {
		if r.ID == id {
			return r, true
		}
	}
	return nil, false
}

// IDs returns every rule id, sorted.
func IDs() []string {
	var ids []string
	for _, r := range All() {
		ids = append(ids, r.ID)
	}
	return ids
}

// Infos returns every rule's metadata, sorted by id, for SARIF and JUnit.
func Infos() []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range All() {
		out = append(out, r.Info())
	}
	return out
}

var kebab = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`) })

// Check reports every problem with a set of rules: ids that are not
// kebab-case or not unique, a missing summary, a summary longer than one
// line, a doc without a bad and a good example, a missing Run.
func Check(rules []*Rule) error {
	var errs []string
	seen := map[string]bool{}
	for _, r := range rules {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Sprintf("rule %q: ", r.ID)+fmt.Sprintf(format, args...))
		}
		if !kebab().MatchString(r.ID) {
			bad("id is not kebab-case")
		}
		if seen[r.ID] {
			bad("id registered twice")
		}
		seen[r.ID] = true
		switch {
		case strings.TrimSpace(r.Summary) == "":
			bad("no summary")
		case strings.Contains(r.Summary, "\n"):
			bad("summary is more than one line")
		}
		doc := r.Doc
		if strings.TrimSpace(doc) == "" || strings.HasPrefix(strings.TrimSpace(doc), "```") {
			bad("doc needs a paragraph before its examples")
		}
		if !strings.Contains(doc, "Bad:\n\n```cue\n") || !strings.Contains(doc, "Good:\n\n```cue\n") {
			bad("doc needs a bad and a good example (\"Bad:\" and \"Good:\" each followed by a ```cue block)")
		}
		if r.Run == nil && r.Kind != CompilerReported && !driverRules[r.ID] {
			bad("no Run function")
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("lint registry: %s", strings.Join(errs, "; "))
	}
	return nil
}
