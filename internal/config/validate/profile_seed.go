package validate

import (
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
