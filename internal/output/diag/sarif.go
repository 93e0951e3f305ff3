package diag

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// ToolInfo describes charter to the readers of a SARIF log.
type ToolInfo struct {
	// Version is charter's version, e.g. "1.4.0"; left out when empty.
	Version string
	// InformationURI is charter's home page; DefaultInformationURI when
	// empty.
	InformationURI string
	// HelpURIBase, when set, gives every rule a helpUri: HelpURIBase followed
	// by the rule id, so "https://charter.dev/rules/" or ".../rules.html#"
	// both work.
	HelpURIBase string
	// RootURI, when set, is the absolute URI of the directory the results'
	// files are relative to, e.g. "file:///home/ci/repo/"; it becomes the
	// run's originalUriBaseIds entry for %SRCROOT%. A trailing slash is
	// added when missing, as SARIF requires. GitHub ignores it and resolves
	// every uri from the repository root, so the files must be relative to
	// that root (Rebase), and RootURI should name it.
	RootURI string
}

// DefaultInformationURI is the SARIF informationUri when ToolInfo gives none.
const DefaultInformationURI = "https://github.com/charter-dev/charter"

// SARIF constants.
const (
	sarifVersion = "2.1.0"
	// sarifSchemaURI is the $id of the official SARIF 2.1.0 schema (OASIS,
	// errata 01), the one the tests validate against.
	sarifSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// srcRoot is the uriBaseId every result's file is relative to.
	srcRoot = "%SRCROOT%"
	// columnKind: columns count Unicode code points (CharColumns), which is
	// SARIF's default; saying so keeps readers from guessing.
	columnKind = "unicodeCodePoints"
	// fingerprintKey names charter's partialFingerprints entry; the /v1 is
	// bumped if the hashed fields ever change, so GitHub does not match
	// alerts by an old scheme.
	fingerprintKey = "charterFinding/v1"
)

// WriteSARIF writes ds as a SARIF 2.1.0 log with one run of charter.
//
// tool.driver.rules lists every rule in rules, sorted by id, with its summary
// (shortDescription), the first paragraph of its doc (fullDescription), the
// whole doc (help, as text and Markdown), its default level and, when
// tool.HelpURIBase is set, a helpUri. A diagnostic whose rule is not in rules
// gets a rule entry that says only what is known (the id, and that charter
// reports it), with every field GitHub requires, so every result that names
// a rule also has a ruleIndex; a diagnostic with no rule has neither.
//
// Results keep the order of ds. Each has a level (error, warning, note), the
// message, the file as a relative URI under %SRCROOT% with the line and
// column (no region when the line is unknown, no location when there is no
// file), a partialFingerprints entry that stays the same while the finding
// does (rule, file, field path and message, not the line; see
// Fingerprints), and the CUE field path as properties.path. Columns are
// whatever ds holds: pass it through CharColumns first, as the run declares
// columnKind unicodeCodePoints. The run's one invocation says the
// execution succeeded. The output is indented JSON ending in a newline; the
// same input always gives the same bytes.
func WriteSARIF(w io.Writer, ds []Diagnostic, rules []RuleInfo, tool ToolInfo) error {
	descriptors, index := sarifRules(ds, rules, tool.HelpURIBase)
	run := newSARIFRun(tool, descriptors, true)
	fps := Fingerprints(ds)
	for i, d := range ds {
		res := sarifResultFor(d, index)
		res.PartialFingerprints = map[string]string{fingerprintKey: fps[i]}
		run.Results = append(run.Results, res)
	}
	return encodeSARIF(w, run)
}

// WriteSARIFFailure writes a SARIF 2.1.0 log for a run that could not
// judge the repository (a usage error, an unreadable revision): no results,
// and one invocation with executionSuccessful false and the error as a
// toolExecutionNotification. A CI job that uploads charter's SARIF then
// uploads a valid log that says what went wrong, not an empty file.
func WriteSARIFFailure(w io.Writer, message string, tool ToolInfo) error {
	run := newSARIFRun(tool, []sarifRule{}, false)
	run.Invocations[0].ToolExecutionNotifications = []sarifNotification{{Level: "error", Message: sarifMessage{Text: sarifPlainText(message)}}}
	return encodeSARIF(w, run)
}

func newSARIFRun(tool ToolInfo, rules []sarifRule, ok bool) sarifRun {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "charter",
			Version:        tool.Version,
			InformationURI: cmp.Or(tool.InformationURI, DefaultInformationURI),
			Rules:          rules,
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: ok}},
		ColumnKind:  columnKind,
		Results:     []sarifResult{},
	}
	if tool.RootURI != "" {
		root := tool.RootURI
		if !strings.HasSuffix(root, "/") {
			root += "/"
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: root}}
	}
	return run
}

func encodeSARIF(w io.Writer, run sarifRun) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sarifLog{Schema: sarifSchemaURI, Version: sarifVersion, Runs: []sarifRun{run}}); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(b.Bytes()))
	return err
}

// Fingerprints returns, for each diagnostic of ds, a fingerprint that
// stays the same while the finding does: a hash of its rule, file, field
// path and message (not its line, which moves when lines above it are
// added), followed by ":N" for the Nth diagnostic of ds with that hash, so
// two equal findings in one file stay two alerts. GitHub code scanning
// matches alerts across commits by it.
func Fingerprints(ds []Diagnostic) []string {
	out := make([]string, len(ds))
	seen := map[string]int{}
	for i, d := range ds {
		h := sha256.Sum256([]byte(d.Rule + "\x00" + d.File + "\x00" + d.Path + "\x00" + d.Message))
		key := hex.EncodeToString(h[:16])
		seen[key]++
		out[i] = key + ":" + strconv.Itoa(seen[key])
	}
	return out
}

// sarifRules builds tool.driver.rules and the index of each rule id in it.
func sarifRules(ds []Diagnostic, rules []RuleInfo, helpBase string) ([]sarifRule, map[string]int) {
	// A nil entry is a rule known only by the id a diagnostic gave.
	byID := make(map[string]*RuleInfo, len(rules))
	for i, r := range rules {
		if _, dup := byID[r.ID]; !dup {
			byID[r.ID] = &rules[i]
		}
	}
	for _, d := range ds {
		if _, seen := byID[d.Rule]; d.Rule != "" && !seen {
			byID[d.Rule] = nil
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)

	out := make([]sarifRule, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
		if r := byID[id]; r != nil {
			out[i] = sarifRuleFor(*r, helpBase)
		} else {
			out[i] = sarifUnknownRule(id)
		}
	}
	return out, index
}

// sarifRuleFor describes one rule.
func sarifRuleFor(r RuleInfo, helpBase string) sarifRule {
	out := sarifRule{
		ID:                   r.ID,
		DefaultConfiguration: &sarifConfiguration{Level: sarifLevel(r.Severity)},
	}
	if r.Summary != "" {
		out.ShortDescription = &sarifMultiformat{Text: r.Summary}
	}
	if full := cmp.Or(firstParagraph(r.Doc), r.Summary); full != "" {
		out.FullDescription = &sarifMultiformat{Text: full}
	}
	if doc := strings.TrimSpace(r.Doc); doc != "" {
		out.Help = &sarifMultiformat{Text: doc, Markdown: doc}
	}
	if helpBase != "" {
		out.HelpURI = helpBase + r.ID
	}
	return out
}

// sarifUnknownRule describes a rule known only by its id, saying nothing
// that would be made up: GitHub (and the SARIF multitool's GH2012) requires
// shortDescription, fullDescription and help on every rule.
func sarifUnknownRule(id string) sarifRule {
	text := "charter reports " + id + " findings; the message of each result says what is wrong and how to fix it."
	return sarifRule{
		ID:               id,
		ShortDescription: &sarifMultiformat{Text: "charter check " + id},
		FullDescription:  &sarifMultiformat{Text: text},
		Help:             &sarifMultiformat{Text: text, Markdown: text},
	}
}

// sarifPlainText escapes s for a SARIF plain text message: SARIF reads
// [text](target) there as an embedded link (§3.11.6; GitHub's code
// scanning links related locations so), and a message carries values
// from the configuration. Brackets and backslashes are escaped with a
// backslash, as CodeQL writes its messages and SARIF viewers unescape
// them.
var sarifPlainText = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace

func sarifResultFor(d Diagnostic, index map[string]int) sarifResult {
	res := sarifResult{
		RuleID:  d.Rule,
		Level:   sarifLevel(d.Severity),
		Message: sarifMessage{Text: sarifPlainText(d.Message)},
	}
	if i, ok := index[d.Rule]; ok {
		res.RuleIndex = &i
	}
	if d.File != "" {
		loc := sarifLocation{PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: sarifArtifactLocation{URI: artifactURI(d.File), URIBaseID: srcRoot},
		}}
		if d.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: max(d.Column, 0)}
		}
		res.Locations = []sarifLocation{loc}
	}
	if d.Path != "" {
		res.Properties = &sarifResultProperties{Path: d.Path}
	}
	return res
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "note"
	}
}

// artifactURI turns a slash-separated relative file path into a relative URI
// reference: spaces, %, ?, # and non-ASCII bytes are percent-encoded, and a
// first segment holding a colon gets "./" so it cannot read as a scheme.
func artifactURI(file string) string {
	return (&url.URL{Path: file}).String()
}

// firstParagraph returns the text of doc up to its first blank line.
func firstParagraph(doc string) string {
	doc = strings.TrimSpace(strings.ReplaceAll(doc, "\r\n", "\n"))
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	return strings.TrimSpace(doc)
}

// The subset of the SARIF 2.1.0 object model charter writes. Field order is
// output order.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                        `json:"tool"`
		Invocations        []sarifInvocation                `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
		ColumnKind         string                           `json:"columnKind"`
		Results            []sarifResult                    `json:"results"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string              `json:"id"`
		ShortDescription     *sarifMultiformat   `json:"shortDescription,omitempty"`
		FullDescription      *sarifMultiformat   `json:"fullDescription,omitempty"`
		Help                 *sarifMultiformat   `json:"help,omitempty"`
		HelpURI              string              `json:"helpUri,omitempty"`
		DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
	}
	sarifMultiformat struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifResult struct {
		RuleID              string                 `json:"ruleId,omitempty"`
		RuleIndex           *int                   `json:"ruleIndex,omitempty"`
		Level               string                 `json:"level"`
		Message             sarifMessage           `json:"message"`
		Locations           []sarifLocation        `json:"locations,omitempty"`
		PartialFingerprints map[string]string      `json:"partialFingerprints,omitempty"`
		Properties          *sarifResultProperties `json:"properties,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           *sarifRegion          `json:"region,omitempty"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	sarifResultProperties struct {
		Path string `json:"path"`
	}
)
