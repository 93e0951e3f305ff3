package validate

import (
	"path"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// classifier checks a profile's classifier and classify_turns: the model
// is one declared under models, every hint names an approach, and
// classify_turns: true has a classifier to switch on.
func (v *validator) classifier(name string, pr *model.Profile) {
	c := v.res.Config
	p := Path{"profiles", name}
	if cl := pr.Classifier; cl != nil {
		if cl.Model != "" {
			_, ok := c.Models[cl.Model]
			v.ref(p.Child("classifier", "model"), "models", "model", cl.Model, ok, names(c.Models))
		}
		for i, a := range cl.Approaches {
			if slices.Index(cl.Approaches, a) < i {
				v.report("schema", p.Child("classifier", "approaches", Index(i)), "approach %q is listed twice; list each once", a)
			}
		}
		for _, h := range names(cl.Hints) {
			if !slices.Contains(cl.Approaches, h) {
				v.reportLabel("reference", p.Child("classifier", "hints", h), "hint for %q, which is not one of the classifier's approaches%s", h, didYouMean(h, cl.Approaches, "approaches"))
			}
		}
	}
	if pr.ClassifyTurns != nil && *pr.ClassifyTurns {
		for cur, seen := name, map[string]bool{}; cur != "" && !seen[cur]; {
			seen[cur] = true
			q, ok := c.Profiles[cur]
			if !ok {
				break
			}
			if q.Classifier != nil {
				return
			}
			cur = q.Extends
		}
		v.report("reference", p.Child("classify_turns"), "classify_turns is true, but neither profile %s nor a profile it extends declares a classifier: declare one under classifier, or remove classify_turns", name)
	}
}

// allowProtected checks a profile's allow_protected_writes: each entry a
// path pattern (path.Match syntax), so that no entry is silently inert.
func (v *validator) allowProtected(name string, pr *model.Profile) {
	p := Path{"profiles", name, "allow_protected_writes"}
	for i, a := range pr.AllowProtectedWrites {
		if a == "" {
			v.report("schema", p.Child(Index(i)), "an empty entry allows no file: name a file (.envrc), a pattern (.git/hooks/*) or * for every protected file")
			continue
		}
		if _, err := path.Match(a, ""); err != nil {
			v.report("schema", p.Child(Index(i)), "%q is not a path pattern (%v): write it as path.Match reads it, e.g. .git/hooks/*", a, err)
		}
	}
}
