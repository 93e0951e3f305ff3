package bundlefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/rules"
)

// NotInBundleError is an agent or a profile a bundle does not hold.
type NotInBundleError struct {
	Kind string // "agent" or "profile"
	Name string
	Dir  string
	Err  error
}

func (e *NotInBundleError) Error() string {
	return fmt.Sprintf("%s %s is not in the bundle at %s: %v", e.Kind, e.Name, e.Dir, e.Err)
}

func (e *NotInBundleError) Unwrap() error { return e.Err }

// Runtime reads what a runtime judges tool calls with from a built
// bundle, every file it reads checked against manifest.json: a profile
// or an agent.json edited after the build is refused, never used.
type Runtime struct {
	dir string
	// files are the manifest's files sorted by path (as build writes
	// them), for lookup: a 30,000-file bundle's map cost the hook more
	// than its few lookups.
	files []File
	// manifest is manifest.json's bytes, for its signature's check.
	manifest []byte
	source   *Source
	charter  string
	// tree, when set, holds the bundle's files, read and verified whole
	// (TreeRuntime); dir then only names it.
	tree Tree

	// delegation is delegation.json decoded, read once (Delegation).
	delegationOnce sync.Once
	delegation     map[string][]string
	delegationErr  error
}

// TreeRuntime is a Runtime over a bundle held in memory, which must
// have been verified against its manifest (Verify, or
// cardsign.CheckBundle): a server swapping bundles reads nothing from
// disk after the swap. name says where the bundle came from.
func TreeRuntime(t Tree, m *Manifest, name string) *Runtime {
	r := &Runtime{dir: name, tree: t, manifest: t["manifest.json"], source: m.Source, charter: m.CharterVersion}
	r.list(m)
	return r
}

// list indexes the manifest's files.
func (r *Runtime) list(m *Manifest) {
	byPath := func(a, b File) int { return strings.Compare(a.Path, b.Path) }
	r.files = m.Files
	if !slices.IsSortedFunc(r.files, byPath) {
		r.files = slices.Clone(m.Files)
		slices.SortStableFunc(r.files, byPath)
	}
}

// file returns the manifest's entry for rel: the last one, should the
// manifest list rel twice.
func (r *Runtime) file(rel string) (File, bool) {
	i, ok := slices.BinarySearchFunc(r.files, rel, func(f File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return File{}, false
	}
	for i+1 < len(r.files) && r.files[i+1].Path == rel {
		i++
	}
	return r.files[i], true
}

// CheckDir says, in words, why dir cannot be a bundle's folder: "DIR:
// there is no such folder", or "DIR: a file, not a folder"; nil for a
// folder, and the error Stat returned for anything else.
func CheckDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: there is no such folder", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s: a file, not a folder", dir)
	}
	return nil
}

// OpenRuntime reads the manifest of the bundle at dir.
func OpenRuntime(dir string) (*Runtime, error) {
	b, err := readRegular(filepath.Join(dir, "manifest.json"))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// Said in words: a runtime's operator reads this in a deny.
		// (A file given for the folder fails with ENOTDIR, not
		// ErrNotExist.)
		if derr := CheckDir(dir); derr != nil {
			return nil, fmt.Errorf("no bundle at %w", derr)
		}
		return nil, fmt.Errorf("no bundle at %s: the folder holds no manifest.json", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the bundle at %s: %w", dir, err)
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("the bundle at %s: %w", dir, err)
	}
	r := &Runtime{dir: dir, manifest: b, source: m.Source, charter: m.CharterVersion}
	r.list(m)
	return r, nil
}

// Dir names where the bundle is: its folder, or where a bundle held in
// memory came from.
func (r *Runtime) Dir() string { return r.dir }

// Provenance returns what the manifest records of where the bundle came
// from: the source commit, tree, time and config root (nil for a bundle
// built from a working tree), and the version of charter that built it.
// A decision made with the bundle cites them.
func (r *Runtime) Provenance() (*Source, string) { return r.source, r.charter }

// Manifest returns the bytes of the bundle's manifest.json, and those of
// its signature manifest.jws (nil when there is none), for
// cardsign.VerifyManifest: the runtime then checks every file it reads
// against the manifest so verified.
func (r *Runtime) Manifest() (manifest, signature []byte, err error) {
	if r.tree != nil {
		return r.manifest, r.tree[SignatureFile], nil
	}
	sig, err := readRegular(filepath.Join(r.dir, SignatureFile))
	if errors.Is(err, os.ErrNotExist) {
		return r.manifest, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return r.manifest, sig, nil
}

// readRegular reads a file that is a regular file, not a link.
func readRegular(name string) ([]byte, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("%s holds more than %d bytes", name, MaxSize)
	}
	return os.ReadFile(name)
}

// read reads the bundle's file rel and checks it against the manifest.
func (r *Runtime) read(rel string) ([]byte, error) {
	f, listed := r.file(rel)
	var b []byte
	var err error
	if r.tree != nil {
		var ok bool
		if b, ok = r.tree[rel]; !ok {
			err = fmt.Errorf("%s is not in the bundle", rel)
		}
	} else {
		b, err = readRegular(filepath.Join(r.dir, filepath.FromSlash(rel)))
	}
	switch {
	case err != nil && !listed:
		return nil, err
	case err != nil:
		return nil, &VerifyError{Problems: []string{fmt.Sprintf("%s cannot be read: %v", rel, err)}}
	case !listed:
		return nil, &VerifyError{Problems: []string{rel + " is not in the manifest"}}
	}
	sum := sha256.Sum256(b)
	switch {
	case len(b) != f.Size:
		return nil, &VerifyError{Problems: []string{fmt.Sprintf("%s has %d bytes, the manifest says %d", rel, len(b), f.Size)}}
	case hex.EncodeToString(sum[:]) != f.SHA256:
		return nil, &VerifyError{Problems: []string{fmt.Sprintf("%s has sha256 %s, the manifest says %s", rel, hex.EncodeToString(sum[:]), f.SHA256)}}
	}
	return b, nil
}

// HasAgent reports whether the bundle lists an agent of that id.
func (r *Runtime) HasAgent(id string) bool {
	_, ok := r.file("agents/" + id + "/agent.json")
	return model.IsSlug(id) && ok
}

// AgentIDs returns the ids of the bundle's agents, sorted.
func (r *Runtime) AgentIDs() []string {
	var ids []string
	for _, f := range r.files {
		id, ok := strings.CutSuffix(strings.TrimPrefix(f.Path, "agents/"), "/agent.json")
		// The files are sorted by path: a path listed twice comes twice
		// in a row.
		if ok && strings.HasPrefix(f.Path, "agents/") && model.IsSlug(id) && (len(ids) == 0 || ids[len(ids)-1] != id) {
			ids = append(ids, id)
		}
	}
	// Paths sort by "agents/ID/": nearly the ids' order, not quite
	// ("a-b/" before "a/").
	if !slices.IsSorted(ids) {
		slices.Sort(ids)
	}
	return ids
}

// AgentJSON returns the agent's agent.json, checked against the
// manifest.
func (r *Runtime) AgentJSON(id string) ([]byte, error) {
	if !model.IsSlug(id) {
		return nil, fmt.Errorf("agent id %q is not a slug", id)
	}
	rel := "agents/" + id + "/agent.json"
	if _, ok := r.file(rel); !ok {
		return nil, &NotInBundleError{Kind: "agent", Name: id, Dir: r.dir, Err: errors.New("manifest.json lists no " + rel)}
	}
	return r.read(rel)
}

// Agent returns the agent's flattened profile and its agent.json (whose
// effective tools gate every call: rules.ReadGate); an agent without a
// profile gets the empty profile "none", so the gate alone judges it.
func (r *Runtime) Agent(id string) (rules.Profile, []byte, error) {
	if !model.IsSlug(id) {
		return rules.Profile{}, nil, fmt.Errorf("agent id %q is not a slug", id)
	}
	b, err := r.AgentJSON(id)
	if err != nil {
		return rules.Profile{}, nil, err
	}
	rel := "agents/" + id + "/agent.json"
	var doc struct {
		Profile *struct{ Name string } `json:"profile"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return rules.Profile{}, nil, fmt.Errorf("%s/%s: %w", r.dir, rel, err)
	}
	if doc.Profile == nil {
		return rules.Profile{Name: "none"}, b, nil
	}
	p, err := r.Profile(doc.Profile.Name)
	return p, b, err
}

// Profile returns the flattened profile called name.
func (r *Runtime) Profile(name string) (rules.Profile, error) {
	if !model.IsSlug(name) {
		return rules.Profile{}, fmt.Errorf("profile name %q is not a slug", name)
	}
	rel := "profiles/" + name + ".json"
	if _, ok := r.file(rel); !ok {
		return rules.Profile{}, &NotInBundleError{Kind: "profile", Name: name, Dir: r.dir, Err: errors.New("manifest.json lists no " + rel)}
	}
	b, err := r.read(rel)
	if err != nil {
		return rules.Profile{}, err
	}
	p, err := rules.DecodeProfile(bytes.NewReader(b))
	if err != nil {
		return rules.Profile{}, fmt.Errorf("%s/%s: %w", r.dir, rel, err)
	}
	return p, nil
}
