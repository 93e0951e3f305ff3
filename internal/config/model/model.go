// Package model holds a charter repository as plain Go values, decoded from
// CUE after validation. Every stage after loading (compile, lint, diff)
// works on these types, never on raw CUE.
//
// Maps are keyed by declaration name; the Names fields hold the order in
// which names are iterated wherever order shows in output (sorted, unless a
// declaration says otherwise).
package model

import (
	"strings"
)

// Config is a whole repository: the standard library with the user's
// declarations unified into it.
type Config struct {
	Categories    map[string]*Category     `json:"categories"`
	AgentTypes    map[string]*AgentType    `json:"agentTypes"`
	Presets       map[string]*Preset       `json:"presets"`
	BehaviorTypes map[string]*BehaviorType `json:"behaviorTypes"`
	Profiles      map[string]*Profile      `json:"profiles"`
	Agents        map[string]*Agent        `json:"agents"`
	Tests         map[string]*Test         `json:"tests"`
	Models        map[string]*ModelInfo    `json:"models"`
	Runtimes      map[string]*Runtime      `json:"runtimes"`
	Flows         map[string]*Flow         `json:"flows"`
	ToolGroups    map[string]*ToolGroup    `json:"toolGroups"`
	Roles         map[string]*Role         `json:"roles"`
	People        map[string]*Person       `json:"people"`
	Repository    RepositorySettings       `json:"repository"`
	Lint          LintSettings             `json:"lint"`
	A2A           A2ASettings              `json:"a2a"`

	// Builtin records which declarations come from the standard library,
	// keyed by kind and name ("categories.scheduling").
	Builtin map[string]bool `json:"-"`
}

// CategoryNames returns the category names in prompt order: by Order, then
// by name.
func (c *Config) CategoryNames() []string {
	return sortedBy(c.Categories, func(x *Category) int { return x.Order })
}

// Category is a behavior category: a prompt section of settings.
type Category struct {
	Title       string              `json:"title"`
	Description string              `json:"description,omitempty"`
	Order       int                 `json:"order,omitempty"`
	Settings    map[string]*Setting `json:"settings"`
}

// Setting is one closed choice of a category.
type Setting struct {
	Description string             `json:"description,omitempty"`
	Line        string             `json:"line"`
	Default     Choice             `json:"default"`
	Options     map[string]*Option `json:"options,omitempty"`
	Range       *Range             `json:"range,omitempty"`
	Values      []float64          `json:"values,omitempty"`
	// Integer restricts a numeric setting to whole numbers.
	Integer    bool   `json:"integer,omitempty"`
	Deprecated string `json:"deprecated,omitempty"`
	// Strictness orders the options from strictest to loosest; an option
	// it leaves out is not ranked.
	Strictness []string `json:"strictness,omitempty"`
	// Families are the tool families whose calls the setting is about.
	Families []string `json:"families,omitempty"`
}

// Numeric reports whether the setting takes numbers rather than named options.
func (s *Setting) Numeric() bool { return s.Range != nil || len(s.Values) > 0 }

// Range is an inclusive numeric range.
type Range struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// Option is one named choice of a setting.
type Option struct {
	Text        string `json:"text"`
	Description string `json:"description,omitempty"`
	Deprecated  string `json:"deprecated,omitempty"`
}

// Behavior selects options: category -> setting -> choice.
type Behavior map[string]map[string]Choice

// Preset is a named partial behavior.
type Preset struct {
	Description string   `json:"description,omitempty"`
	Behavior    Behavior `json:"behavior"`
}

// AgentType is a kind of agent with its prompt template.
type AgentType struct {
	Name          string   `json:"name"`
	Description   string   `json:"description,omitempty"`
	Owners        []string `json:"owners,omitempty"`
	SchemaVersion string   `json:"schema_version,omitempty"`
	// OnboardingSchema is the JSON Schema of what a runtime asks a new
	// user; DefaultActions the actions it offers them.
	OnboardingSchema map[string]any `json:"onboarding_schema,omitempty"`
	DefaultActions   []string       `json:"default_actions,omitempty"`
	Presets          []string       `json:"presets,omitempty"`
	// Categories, when not nil, are the categories the type's prompts
	// carry, in order; nil means every category.
	Categories   []string             `json:"categories,omitzero"`
	Behavior     Behavior             `json:"behavior,omitempty"`
	SystemPrompt string               `json:"system_prompt"`
	Variables    map[string]*Variable `json:"variables,omitempty"`
	// Model, Tools, Skills and Behaviors are the role's defaults, which
	// validation merges into each agent of the type (see
	// docs/declarations.md).
	Model     *AgentModel   `json:"model,omitempty"`
	Tools     *Tools        `json:"tools,omitempty"`
	Skills    SkillSet      `json:"skills,omitzero"`
	Behaviors []BehaviorUse `json:"behaviors,omitempty"`
	// MaxTurns and Timeout (seconds) are the run limits of the type's
	// agents, 0 when unset.
	MaxTurns int     `json:"max_turns,omitempty"`
	Timeout  float64 `json:"timeout,omitempty"`
}

// Variable is a runtime placeholder of a template.
type Variable struct {
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Example     string `json:"example,omitempty"`
	// Default is used when the runtime has no value.
	Default string `json:"default,omitempty"`
}

// BehaviorType is a composable behavior.
type BehaviorType struct {
	Kind         string            `json:"kind"`
	Description  string            `json:"description,omitempty"`
	Params       map[string]*Param `json:"params,omitempty"`
	Tools        map[string]*Tool  `json:"tools,omitempty"`
	Instructions string            `json:"instructions,omitempty"`
	Events       []string          `json:"events,omitempty"`
	// Context lists the blocks the behavior inserts into the model's
	// context, in declaration order.
	Context []ContextInjection `json:"context,omitempty"`
}

// ContextInjection is a block a behavior inserts into the messages sent to
// the model: as Role, at At, When it applies.
type ContextInjection struct {
	Name    string            `json:"name"`
	Role    string            `json:"role"`
	At      string            `json:"at"`
	When    string            `json:"when,omitempty"`
	Content string            `json:"content"`
	Values  map[string]string `json:"values,omitempty"`
}

// Param is a behavior parameter.
type Param struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	Default     any    `json:"default,omitempty"`
	// Restricts, when set, makes the parameter a limit on the calls of
	// some of the behavior's tools.
	Restricts *Restricts `json:"restricts,omitempty"`
}

// Restricts is how a parameter limits the calls of its behavior's tools:
// the argument Field of the Tools' calls, checked by Check ("programs" or
// "values") against the parameter's values.
type Restricts struct {
	Tools []string `json:"tools"`
	Field string   `json:"field"`
	Check string   `json:"check"`
}

// Tool is a function a behavior provides.
type Tool struct {
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Destructive bool           `json:"destructive,omitempty"`
	// Instructions go into the prompt of an agent that may call the tool.
	Instructions string `json:"instructions,omitempty"`
}

// BehaviorUse attaches a behavior type to an agent.
type BehaviorUse struct {
	Type   string         `json:"type"`
	Params map[string]any `json:"params,omitempty"`
}

// Profile is a rule profile as declared (extends not yet resolved).
type Profile struct {
	Description  string              `json:"description,omitempty"`
	Extends      string              `json:"extends,omitempty"`
	Owners       []string            `json:"owners,omitempty"`
	ToolFamilies map[string][]string `json:"tool_families,omitempty"`
	Rules        map[string]*Rule    `json:"rules,omitempty"`
	Classifier   *Classifier         `json:"classifier,omitempty"`
	// ClassifyTurns, when set, switches the classifier on or off.
	ClassifyTurns *bool `json:"classify_turns,omitempty"`
	// AllowProtectedWrites are the protected files the profile's agents
	// may change (rules.Profile.AllowProtectedWrites); a profile adds to
	// those of the profile it extends.
	AllowProtectedWrites []string `json:"allow_protected_writes,omitempty"`
}

// Rule is one profile rule; in a profile that extends another, a rule may
// carry only the fields it changes.
type Rule struct {
	Rule      string     `json:"rule,omitempty"`
	Trigger   string     `json:"trigger,omitempty"`
	Condition *Condition `json:"condition,omitempty"`
	Action    string     `json:"action,omitempty"`
	Message   string     `json:"message,omitempty"`
	Cooldown  *int       `json:"cooldown,omitempty"`
	Enabled   *bool      `json:"enabled,omitempty"`
}

// Condition is what a rule looks at.
type Condition struct {
	Type      string   `json:"type"`
	Field     string   `json:"field,omitempty"`
	Substring string   `json:"substring,omitempty"`
	Pattern   string   `json:"pattern,omitempty"`
	Values    []string `json:"values,omitempty"`
	Expr      string   `json:"expr,omitempty"`
}

// Classifier picks an approach per turn.
type Classifier struct {
	Frequency  string            `json:"frequency"`
	Approaches []string          `json:"approaches,omitempty"`
	Timeout    float64           `json:"timeout,omitempty"`
	Model      string            `json:"model,omitempty"`
	Hints      map[string]string `json:"hints,omitempty"`
}

// Agent is an agent identity as declared.
type Agent struct {
	Name                string            `json:"name"`
	Role                string            `json:"role,omitempty"`
	Department          string            `json:"department,omitempty"`
	Level               string            `json:"level,omitempty"`
	Description         string            `json:"description,omitempty"`
	Type                string            `json:"type"`
	Presets             []string          `json:"presets,omitempty"`
	Behavior            Behavior          `json:"behavior,omitempty"`
	Behaviors           []BehaviorUse     `json:"behaviors,omitempty"`
	Profile             string            `json:"profile,omitempty"`
	Personality         *Personality      `json:"personality,omitempty"`
	Skills              SkillSet          `json:"skills"`
	Model               *AgentModel       `json:"model,omitempty"`
	Memory              *Memory           `json:"memory,omitempty"`
	Tools               Tools             `json:"tools"`
	Authority           Authority         `json:"authority"`
	Owners              []string          `json:"owners,omitempty"`
	AutonomyLevel       string            `json:"autonomy_level,omitempty"`
	StrategicOutputMode string            `json:"strategic_output_mode,omitempty"`
	HiringDate          string            `json:"hiring_date,omitempty"`
	ModelRequirement    *ModelRequirement `json:"model_requirement,omitempty"`
	Status              string            `json:"status,omitempty"`
	Output              map[string]any    `json:"output,omitempty"`
	// MaxTurns and Timeout (seconds) are the agent's run limits, 0 when
	// unset (the type's, when it sets them, are merged in).
	MaxTurns int     `json:"max_turns,omitempty"`
	Timeout  float64 `json:"timeout,omitempty"`
}

// ModelRequirement is what a role asks of its model.
type ModelRequirement struct {
	Tier         string   `json:"tier,omitempty"`
	Priority     string   `json:"priority,omitempty"`
	MinContext   int      `json:"min_context,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
}

// Personality of an agent. Pointers are nil when unset.
type Personality struct {
	Traits             []string `json:"traits,omitempty"`
	CommunicationStyle string   `json:"communication_style,omitempty"`
	RiskTolerance      string   `json:"risk_tolerance,omitempty"`
	Creativity         string   `json:"creativity,omitempty"`
	Description        string   `json:"description,omitempty"`
	Openness           *float64 `json:"openness,omitempty"`
	Conscientiousness  *float64 `json:"conscientiousness,omitempty"`
	Extraversion       *float64 `json:"extraversion,omitempty"`
	Agreeableness      *float64 `json:"agreeableness,omitempty"`
	StressResponse     *float64 `json:"stress_response,omitempty"`
	DecisionMaking     string   `json:"decision_making,omitempty"`
	Collaboration      string   `json:"collaboration,omitempty"`
	Verbosity          string   `json:"verbosity,omitempty"`
	ConflictApproach   string   `json:"conflict_approach,omitempty"`
}

// SkillSet is an agent's skills in two tiers.
type SkillSet struct {
	Primary   []Skill `json:"primary,omitempty"`
	Secondary []Skill `json:"secondary,omitempty"`
}

// Skill is an A2A AgentSkill-aligned capability.
type Skill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	InputModes  []string `json:"input_modes,omitempty"`
	OutputModes []string `json:"output_modes,omitempty"`
	Examples    []string `json:"examples,omitempty"`
	Proficiency *float64 `json:"proficiency,omitempty"`
}

// AgentModel is the model an agent runs on.
type AgentModel struct {
	Provider      string   `json:"provider"`
	ModelID       string   `json:"model_id"`
	Temperature   *float64 `json:"temperature,omitempty"`
	MaxTokens     int      `json:"max_tokens,omitempty"`
	FallbackModel string   `json:"fallback_model,omitempty"`
	Tier          string   `json:"model_tier,omitempty"`
}

// Memory is what an agent remembers.
type Memory struct {
	Type          string            `json:"type"`
	RetentionDays int               `json:"retention_days,omitempty"`
	Overrides     []MemoryRetention `json:"retention_overrides,omitempty"`
}

// MemoryRetention overrides retention for one memory category.
type MemoryRetention struct {
	Category      string `json:"category"`
	RetentionDays int    `json:"retention_days"`
}

// Tools gates the tools an agent may call.
type Tools struct {
	AccessLevel string   `json:"access_level,omitempty"`
	Allowed     []string `json:"allowed,omitempty"`
	Denied      []string `json:"denied,omitempty"`
}

// Authority is what an agent may approve, spend and hand on.
type Authority struct {
	CanApprove    []string `json:"can_approve,omitempty"`
	ReportsTo     string   `json:"reports_to,omitempty"`
	CanDelegateTo []string `json:"can_delegate_to,omitempty"`
	BudgetLimit   *float64 `json:"budget_limit,omitempty"`
}

// Test is a rule-profile test.
type Test struct {
	Description string        `json:"description,omitempty"`
	Profile     string        `json:"profile,omitempty"`
	Agent       string        `json:"agent,omitempty"`
	Calls       []Call        `json:"calls"`
	Expect      []Expectation `json:"expect"`
}

// Call is a recorded tool call.
type Call struct {
	Tool   string         `json:"tool"`
	Args   map[string]any `json:"args,omitempty"`
	Result any            `json:"result,omitempty"`
}

// Expectation lists the rules that must fire on one call.
type Expectation struct {
	Call  int    `json:"call"`
	Fires []Fire `json:"fires"`
}

// Fire is one rule firing with its action, as declared (rules.Fire is
// the same, typed).
type Fire struct {
	Rule   string `json:"rule"`
	Action string `json:"action"`
}

// ModelInfo describes a model.
type ModelInfo struct {
	Provider      string `json:"provider,omitempty"`
	ContextWindow int    `json:"context_window"`
	Description   string `json:"description,omitempty"`
}

// LintSettings configures lint for the repository.
type LintSettings struct {
	Disable  []string          `json:"disable,omitempty"`
	Severity map[string]string `json:"severity,omitempty"`
}

// A2ASettings is what every agent card shares.
type A2ASettings struct {
	Provider         *A2AProvider `json:"provider,omitempty"`
	URL              string       `json:"url,omitempty"`
	ProtocolBinding  string       `json:"protocol_binding,omitempty"`
	DocumentationURL string       `json:"documentation_url,omitempty"`
	Version          string       `json:"version,omitempty"`
}

// A2AProvider is the organization that runs the agents.
type A2AProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// NameList writes names for a message: "a, b", or "none" for an empty
// list.
func NameList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
