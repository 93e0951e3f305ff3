package load_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/validate"
)

// FuzzLoad feeds arbitrary bytes as one .cue file, beside a valid agent
// type, through Load and validate.Run: whatever the bytes, no panic, and
// every diagnostic has a message.
func FuzzLoad(f *testing.F) {
	// Seeds: every file of the examples, and the shapes of the bad inputs.
	filepath.WalkDir("../../../examples", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".cue") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	for _, s := range []string{
		"",
		"package charter\n",
		"package charter\nagents: ann: {name: \"Ann\", type: \"helper\"}\n",
		"package charter\nagents: ann: {name: \"Ann\", type: \"helper\", personality: {openness: 3, colour: 1}}\n",
		"package charter\nagents: ann: name: 1\nagents: ann: name: 2\n",
		"package charter\nagents: \"../x\": {}\nprofiles: a: extends: \"a\"\n",
		"package charter\nagents: ann: behavior: scheduling: ambiguous_time: \"x\"\n",
		"package charter\ncategories: scheduling: settings: ambiguous_time: default: 3\n",
		"package charter\n_x: _y\n_y: _x\n",
		"package charter\nx: [x]\n",
		"package charter\n3\n",
		"package charter\nagents: ann: {{{{\n",
		"package charter\n\x00",
		"package other\n",
		"import \"strings\"\nagents: ann: name: strings.ToUpper(\"a\")\n",
		"package charter\nagents: [for x in [1,2] {x}]\n",
		"package charter\n#Agent: {}\nagents: ann: #Agent\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fsys := fstest.MapFS{
			"types.cue":     {Data: []byte("package charter\n\nagentTypes: helper: {name: \"Helper\", system_prompt: \"You help.\"}\n")},
			"agents/in.cue": {Data: src},
		}
		repo, ds, err := load.Load(fsys, "repo")
		if err != nil {
			return
		}
		res := validate.Run(repo)
		for _, d := range append(ds, res.Diagnostics...) {
			if d.Message == "" {
				t.Errorf("diagnostic without a message: %+v", d)
			}
		}
	})
}
