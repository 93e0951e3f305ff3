package lint

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
)

var optionCountMismatch = &Rule{
	ID:       "option-count-mismatch",
	Severity: diag.Warning,
	Summary:  "an option's text states a count that a numeric setting of its category contradicts",
	Doc: doc(`An option's text may say how many of something the agent gives ("Email the attendees with 2-3 time options"), while a numeric setting of the same category sets that number ("- Propose {value} time options"). When an agent's resolved number lies outside the text's count, its prompt says both, and the model follows either. The rule matches a number or range in an option's text followed by words that the numeric setting's line or description uses. Bring the two together: choose a number the text allows, or another option (ask_user), or an option text without a count.`,
		`agents: ann: behavior: scheduling: {ambiguous_time: "email_options", propose_options_count: 5}`,
		`agents: ann: behavior: scheduling: {ambiguous_time: "email_options", propose_options_count: 3}`),
	Run: func(p *Pass) {
		// Thousands of agents choose among a few options: each text is
		// read once for each numeric setting.
		type count struct {
			lo, hi float64
			ok     bool
		}
		counts := map[[2]string]count{}
		for _, a := range p.Program.Agents {
			for _, c := range a.Behavior {
				for _, num := range c.Settings {
					if !num.Value.IsNumber {
						continue
					}
					s := p.Config.Categories[c.Name].Settings[num.Name]
					about := c.Name + "." + num.Name // the setting's line and description, below
					for _, opt := range c.Settings {
						if opt.Value.IsNumber || opt.Text == "" {
							continue
						}
						key := [2]string{opt.Text, about}
						n, seen := counts[key]
						if !seen {
							n.lo, n.hi, n.ok = countIn(opt.Text, strings.ToLower(strings.ReplaceAll(s.Line, "{value}", " ")+" "+s.Description))
							counts[key] = n
						}
						lo, hi, ok := n.lo, n.hi, n.ok
						if !ok || num.Value.Number >= lo && num.Value.Number <= hi {
							continue
						}
						p.Reportf(countPath(a, num), "%s.%s = %s, but the chosen %s.%s option %s says %q: the prompt says both; choose a number from %s to %s, or another option",
							c.Name, num.Name, num.Value, c.Name, opt.Name, opt.Value, opt.Text, strconv.FormatFloat(lo, 'f', -1, 64), strconv.FormatFloat(hi, 'f', -1, 64))
					}
				}
			}
		}
	},
}

var countRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(\d+)(?:\s*(?:-|–|to)\s*(\d+))?\s+([A-Za-z]+)(?:\s+([A-Za-z]+))?`)
})

// countIn finds in text a count (n, or a range n-m) of something that
// about (a numeric setting's line and description) speaks of.
func countIn(text, about string) (lo, hi float64, ok bool) {
	if !strings.ContainsAny(text, "0123456789") {
		return 0, 0, false // most option texts: spares the regexp
	}
	for _, m := range countRE().FindAllStringSubmatch(text, -1) {
		phrase := strings.ToLower(strings.TrimSpace(m[3] + " " + m[4]))
		if !strings.Contains(about, phrase) && (m[4] == "" || !strings.Contains(about, strings.ToLower(m[3]))) {
			continue
		}
		lo, _ = strconv.ParseFloat(m[1], 64)
		hi = lo
		if m[2] != "" {
			hi, _ = strconv.ParseFloat(m[2], 64)
		}
		return lo, hi, true
	}
	return 0, 0, false
}

// countPath is where the finding goes: the agent's own choice of the
// number when it made one, else the agent.
func countPath(a *compiler.Agent, s compiler.ResolvedSetting) []string {
	if s.Origin.Layer == "agent" {
		return strings.Split(s.Origin.Path, ".")
	}
	return []string{"agents", a.ID}
}
