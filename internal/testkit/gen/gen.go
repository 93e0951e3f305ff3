// Package gen writes large, realistic charter repositories, for benchmarks
// and for comparing charter with the cue tool on the same files.
//
// A generated repository has a few agent types, a profile that extends the
// standard library's coding profile, and n agents in one file each
// (agents/a0000.cue, ...), each with a name, role, type, presets, behavior
// overrides, a personality, 3 to 6 skills, a model, memory, tools,
// behaviors with parameters, a profile and an authority whose reports_to
// links form a tree. The same n always gives the same bytes, and the
// repository validates.
package gen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Write writes a repository of n agents into dir, creating it if needed.
// It does not remove files already there.
func Write(dir string, n int) error {
	if n < 0 {
		return fmt.Errorf("gen: negative agent count %d", n)
	}
	files := map[string]string{
		"cue.mod/module.cue": "module: \"example.com/generated\"\nlanguage: version: \"v0.17.0\"\n",
		"charter.cue":        header,
		"types.cue":          types,
		"profiles.cue":       profiles,
	}
	width := max(4, len(fmt.Sprint(n-1)))
	r := rand.New(rand.NewPCG(1, uint64(n)))
	for i := range n {
		files[fmt.Sprintf("agents/a%0*d.cue", width, i)] = agent(r, i, n, width)
	}
	for p, src := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			return err
		}
	}
	return nil
}

const header = `// A generated charter repository (internal/gen): many agents, one file each.
package charter

a2a: {
	provider: {organization: "Generated Corp", url: "https://generated.example"}
	url:              "https://agents.generated.example"
	protocol_binding: "JSONRPC"
	version:          "1.0.0"
}
`

const types = `package charter

agentTypes: planner: {
	name:        "Planner"
	description: "Decomposes tasks into subtasks."
	system_prompt: """
		You are {agent.name}, {agent.role}. Decompose the task into 3-7 subtasks.
		TASK: {task_description}
		"""
	variables: task_description: {description: "The task.", required: true}
}

agentTypes: coder: {
	name:        "Coder"
	description: "Writes code from a plan."
	behavior: communication: verbosity: "minimal"
	system_prompt: """
		You are {agent.name}, {agent.role}. Implement the plan in {workspace}, one file at a time.
		"""
	variables: workspace: {description: "The workspace path.", required: true}
}

agentTypes: reviewer: {
	name:        "Reviewer"
	description: "Reviews changes."
	presets: ["conservative"]
	system_prompt: """
		You are {agent.name}, {agent.role}. Review the change {change_id} and say what must change before it merges.
		"""
	variables: change_id: {description: "The change under review.", required: true}
}
`

const profiles = `package charter

profiles: team: {
	description: "coding, without delegate_complex, with migrations protected."
	extends:     "coding"
	rules: {
		delegate_complex: enabled: false
		protect_migrations: {
			rule:    "Never modify files under migrations/ without explicit approval."
			trigger: "edit"
			condition: {type: "contains", field: "file_path", substring: "migrations/"}
			action:  "block"
			message: "Ask for approval before changing a migration."
		}
	}
}
`

// setting is a standard-library setting with the options an agent may pick.
type setting struct {
	category, name string
	options        []string
}

var settings = []setting{
	{"scheduling", "ambiguous_time", []string{"email_options", "ask_user"}},
	{"scheduling", "missing_duration", []string{"default_1_hour", "default_30_min", "ask_user"}},
	{"scheduling", "check_conflicts", []string{"always", "external_only", "never"}},
	{"approval", "unknown_contacts", []string{"require_approval", "proceed", "warn_and_proceed"}},
	{"approval", "email_send", []string{"require_approval", "proceed"}},
	{"communication", "verbosity", []string{"concise", "detailed", "minimal"}},
	{"communication", "formatting", []string{"markdown", "plain", "rich"}},
	{"communication", "error_handling", []string{"explain", "retry_silently", "ask_for_guidance"}},
	{"proactivity", "suggestions", []string{"offer", "wait_for_ask", "aggressive"}},
	{"proactivity", "reminders", []string{"enabled", "disabled", "ask_first"}},
}

var (
	typeNames   = []string{"planner", "coder", "coder", "reviewer", "personal_assistant"}
	presetNames = []string{"conservative", "aggressive", "quiet"}
	profileFor  = map[string][]string{
		"planner":            {"team", "dev"},
		"coder":              {"team", "coding"},
		"reviewer":           {"coding", "research"},
		"personal_assistant": {"assistant"},
	}
	departments = []string{"Engineering", "Operations", "Research", "Support", "Finance"}
	levels      = []string{"Junior", "Mid", "Senior", "Lead"}
	firstNames  = []string{"Ada", "Ben", "Chen", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Mo", "Nia", "Omar", "Pia"}
	lastNames   = []string{"Adler", "Bauer", "Costa", "Diaz", "Endo", "Fox", "Gray", "Hale", "Ito", "Jain", "Kerr", "Lund"}
	traits      = []string{"analytical", "curious", "pragmatic", "patient", "decisive", "careful", "creative", "direct"}
	decisions   = []string{"analytical", "intuitive", "consultative", "directive"}
	collabs     = []string{"independent", "pair", "team"}
	verbosities = []string{"terse", "balanced", "verbose"}
	conflicts   = []string{"avoid", "accommodate", "compete", "compromise", "collaborate"}
	lowMedHigh  = []string{"low", "medium", "high"}
	skillPool   = []struct{ id, name, tag string }{
		{"python", "Python", "backend"}, {"go", "Go", "backend"}, {"sql", "SQL", "database"},
		{"docker", "Docker", "devops"}, {"testing", "Testing", "quality"}, {"api-design", "API Design", "architecture"},
		{"react", "React", "frontend"}, {"security", "Security", "quality"}, {"writing", "Technical Writing", "docs"},
		{"scheduling", "Scheduling", "assistant"}, {"email", "Email", "assistant"}, {"research", "Research", "analysis"},
	}
	models = []struct{ provider, id, fallback, tier string }{
		{"anthropic", "claude-sonnet-4", "claude-haiku-4", "medium"},
		{"anthropic", "claude-opus-4", "claude-sonnet-4", "large"},
		{"openai", "gpt-4o-mini", "gpt-4o", "small"},
		{"example-provider", "example-medium-001", "example-small-001", "medium"},
	}
	memoryTypes = []string{"persistent", "project", "session", "none"}
	access      = []string{"sandboxed", "restricted", "standard", "elevated"}
	autonomy    = []string{"full", "semi", "supervised", "locked"}
)

// behaviorSets are the behaviors (with parameters) an agent of a type
// uses, and the tools they provide.
var behaviorSets = map[string]struct {
	uses  []string
	tools []string
}{
	"planner": {
		[]string{`{type: "HierarchicalContextBehavior", params: {history_keep: %d}}`, `{type: "DelegationBehavior"}`, `{type: "LoopDetectionBehavior", params: max_repeats: %d}`},
		[]string{"decompose_task", "mark_subtask_complete", "delegate_to_executor", "consult_architect", "list_workspaces"},
	},
	"coder": {
		[]string{`{type: "SubAgentContextBehavior", params: {max_tokens: %d}}`, `{type: "FileToolsBehavior"}`, `{type: "CommandToolsBehavior", params: whitelist: ["python", "pytest", "go"]}`, `{type: "LoopDetectionBehavior", params: max_repeats: %d}`},
		[]string{"read_file", "write_file", "list_dir", "run_bash", "mark_complete", "mark_failed"},
	},
	"reviewer": {
		[]string{`{type: "SubAgentContextBehavior", params: {max_tokens: %d}}`, `{type: "FileToolsBehavior"}`},
		[]string{"read_file", "list_dir", "mark_complete", "mark_failed"},
	},
	"personal_assistant": {
		[]string{`{type: "CompactWhenNearFullBehavior", params: {max_tokens: %d, recent_keep: %d}}`},
		[]string{"mark_goal_complete"},
	},
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func agentID(i, width int) string { return fmt.Sprintf("a%0*d", width, i) }

// agent writes agent i of n. Agent i reports to agent (i-1)/4, so the
// reports_to links form a tree rooted at agent 0.
func agent(r *rand.Rand, i, n, width int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	id := agentID(i, width)
	typ := pick(r, typeNames)
	w("package charter\n\nagents: %s: {\n", id)
	w("\tname:       %q\n", pick(r, firstNames)+" "+pick(r, lastNames))
	w("\trole:       %q\n", fmt.Sprintf("%s %s", pick(r, levels), typ))
	w("\tdepartment: %q\n", pick(r, departments))
	w("\tlevel:      %q\n", pick(r, levels))
	w("\ttype:       %q\n", typ)
	if r.IntN(2) == 0 {
		w("\tpresets: [%q]\n", pick(r, presetNames))
	}
	// Overrides of two to four distinct settings.
	w("\tbehavior: {\n")
	perm := r.Perm(len(settings))[:2+r.IntN(3)]
	byCat := map[string][]string{}
	var cats []string
	for _, k := range perm {
		s := settings[k]
		if byCat[s.category] == nil {
			cats = append(cats, s.category)
		}
		byCat[s.category] = append(byCat[s.category], fmt.Sprintf("%s: %q", s.name, pick(r, s.options)))
	}
	for _, c := range cats {
		w("\t\t%s: {%s}\n", c, strings.Join(byCat[c], ", "))
	}
	w("\t}\n")
	set := behaviorSets[typ]
	w("\tbehaviors: [\n")
	for _, u := range set.uses {
		switch strings.Count(u, "%d") {
		case 0:
			w("\t\t%s,\n", u)
		case 1:
			w("\t\t"+u+",\n", (2+r.IntN(30))*1000)
		case 2:
			w("\t\t"+u+",\n", 4000+r.IntN(8)*1000, 5+r.IntN(20))
		}
	}
	w("\t]\n")
	w("\tprofile: %q\n", pick(r, profileFor[typ]))
	w("\tpersonality: {\n")
	w("\t\ttraits: [%q, %q]\n", pick(r, traits), pick(r, traits))
	w("\t\tcommunication_style: %q\n", pick(r, []string{"concise and technical", "warm and thorough", "brief"}))
	w("\t\trisk_tolerance:      %q\n", pick(r, lowMedHigh))
	w("\t\tcreativity:          %q\n", pick(r, lowMedHigh))
	for _, f := range []string{"openness", "conscientiousness", "extraversion", "agreeableness", "stress_response"} {
		w("\t\t%-21s%.2f\n", f+":", float64(r.IntN(101))/100)
	}
	w("\t\tdecision_making:     %q\n", pick(r, decisions))
	w("\t\tcollaboration:       %q\n", pick(r, collabs))
	w("\t\tverbosity:           %q\n", pick(r, verbosities))
	w("\t\tconflict_approach:   %q\n", pick(r, conflicts))
	w("\t}\n")
	// 3 to 6 distinct skills, the first two primary.
	ks := r.Perm(len(skillPool))[:3+r.IntN(4)]
	w("\tskills: {\n\t\tprimary: [\n")
	for j, k := range ks {
		if j == 2 {
			w("\t\t]\n\t\tsecondary: [\n")
		}
		s := skillPool[k]
		w("\t\t\t{id: %q, name: %q, description: %q, tags: [%q], proficiency: %.2f},\n",
			s.id, s.name, s.name+" for "+id, s.tag, float64(40+r.IntN(61))/100)
	}
	w("\t\t]\n\t}\n")
	m := pick(r, models)
	w("\tmodel: {provider: %q, model_id: %q, temperature: %.1f, max_tokens: %d, fallback_model: %q, model_tier: %q}\n",
		m.provider, m.id, float64(r.IntN(11))/10, 1024<<r.IntN(4), m.fallback, m.tier)
	if mt := pick(r, memoryTypes); mt == "persistent" {
		w("\tmemory: {type: %q, retention_days: %d}\n", mt, 30+r.IntN(335))
	} else {
		w("\tmemory: {type: %q}\n", mt)
	}
	tools := set.tools[:1+r.IntN(len(set.tools))]
	w("\ttools: {access_level: %q, allowed: [%s], denied: [\"deployment\"]}\n", pick(r, access), quoteAll(tools))
	w("\tauthority: {\n")
	if i > 0 {
		w("\t\treports_to: %q\n", agentID((i-1)/4, width))
	}
	var kids []string
	for c := 4*i + 1; c <= 4*i+4 && c < n; c++ {
		kids = append(kids, agentID(c, width))
	}
	if len(kids) > 0 {
		w("\t\t// charter:ignore delegation-widens a lead hands work to its reports, whose tools are the point of delegating\n")
		w("\t\tcan_delegate_to: [%s]\n", quoteAll(kids))
		w("\t\tcan_approve: [\"bulk_actions\"]\n")
	}
	w("\t\tbudget_limit: %d\n", 5*r.IntN(20))
	w("\t}\n")
	w("\tautonomy_level: %q\n", pick(r, autonomy))
	w("\tstatus:         \"active\"\n")
	w("}\n")
	return b.String()
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
