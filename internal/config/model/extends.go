package model

// Ancestors returns the profiles that profile name extends, nearest first,
// each once. The walk stops at a profile met before (a cycle, which
// validation reports) and after one that is not declared (which it lists
// last). Compilation and validation walk the chain through it, and nothing
// else does: the compiled program keeps where each rule of a flattened
// profile comes from (compiler.RuleOrigin).
func (c *Config) Ancestors(name string) []string {
	var chain []string
	seen := map[string]bool{name: true}
	p, ok := c.Profiles[name]
	if !ok {
		return nil
	}
	for cur := p.Extends; cur != "" && !seen[cur]; {
		seen[cur] = true
		chain = append(chain, cur)
		next, ok := c.Profiles[cur]
		if !ok {
			break
		}
		cur = next.Extends
	}
	return chain
}
