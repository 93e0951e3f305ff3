package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/rogpeppe/go-internal/testscript"
	"oras.land/oras-go/v2"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/release/oci"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/internal/testkit/registrytest"
)

// Script commands of the release scripts (publish, pull, verify).

// registries maps a script's work folder to the registry it started.
var registries sync.Map // string -> *registrytest.Registry

// scriptRegistry starts the real docker-registry with htpasswd auth for
// the script: `registry`. It sets $REGISTRY (127.0.0.1:PORT), and
// $DOCKER_CONFIG to a folder whose config.json holds the credentials, as
// docker login writes them. Guard it with [registry].
func scriptRegistry(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: registry")
	}
	dir := ts.MkAbs(".registry")
	ts.Check(os.MkdirAll(dir, 0o755))
	r, err := registrytest.Start(dir)
	ts.Check(err)
	registries.Store(ts.Getenv("WORK"), r)
	ts.Defer(r.Stop)
	docker := ts.MkAbs(".docker")
	ts.Check(os.MkdirAll(docker, 0o700))
	auth := base64.StdEncoding.EncodeToString([]byte(registrytest.User + ":" + registrytest.Password))
	cfg, _ := json.Marshal(map[string]any{"auths": map[string]any{r.Host: map[string]string{"auth": auth}}})
	ts.Check(os.WriteFile(filepath.Join(docker, "config.json"), cfg, 0o600))
	ts.Setenv("REGISTRY", r.Host)
	ts.Setenv("DOCKER_CONFIG", docker)
	ts.Setenv("REGISTRY_PASSWORD", registrytest.Password)
}

// scriptTamper flips a byte of a blob in the registry's storage: `tamper
// FILE` changes the stored blob whose content is FILE's.
func scriptTamper(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tamper FILE")
	}
	v, ok := registries.Load(ts.Getenv("WORK"))
	if !ok {
		ts.Fatalf("tamper: no registry; run registry first")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	sum := sha256.Sum256(b)
	ts.Check(v.(*registrytest.Registry).Tamper("sha256:" + hex.EncodeToString(sum[:])))
}

// scriptDropProxy starts a proxy in front of $REGISTRY that cuts every
// blob upload: `dropproxy` sets $PROXY.
func scriptDropProxy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: dropproxy")
	}
	p, err := registrytest.StartDropProxy(ts.Getenv("REGISTRY"))
	ts.Check(err)
	ts.Defer(p.Stop)
	ts.Setenv("PROXY", p.Host)
}

// scriptSetJSON sets an environment variable from a JSON file's top-level
// string member: `setjson VAR FILE KEY`.
func scriptSetJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: setjson VAR FILE KEY")
	}
	var m map[string]any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &m))
	s, ok := m[args[2]].(string)
	if !ok {
		ts.Fatalf("%s has no string member %q", args[1], args[2])
	}
	ts.Setenv(args[0], s)
}

// releaseCondition answers [registry]: docker-registry and htpasswd are
// installed. When they are not, it is false (the script skips), or an
// error in CI, where .ci/run installs them: the script fails.
//
// [jwcrypto]: Debian's python3 imports jwcrypto, the independent JOSE
// implementation the signing scripts check cards with; likewise.
func releaseCondition(cond string) (bool, error) {
	switch cond {
	case "registry":
	case "jwcrypto":
		if exec.Command(realtool.Python, "-c", "import jwcrypto").Run() == nil {
			return true, nil
		}
		if realtool.InCI() {
			return false, fmt.Errorf("%s cannot import jwcrypto (Debian: apt-get install -y python3-jwcrypto); CI is set, so this script fails instead of skipping", realtool.Python)
		}
		return false, nil
	default:
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	for _, tool := range [][2]string{{"docker-registry", "docker-registry"}, {"htpasswd", "apache2-utils"}} {
		if !realtool.Have(tool[0]) {
			if realtool.InCI() {
				return false, fmt.Errorf("%s is not installed (Debian: apt-get install -y %s); CI is set, so this script fails instead of skipping", tool[0], tool[1])
			}
			return false, nil
		}
	}
	return true, nil
}

// scriptReplace replaces every OLD with NEW in FILE: `replace FILE OLD
// NEW`, failing when FILE has no OLD.
func scriptReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	text := ts.ReadFile(args[0])
	if !strings.Contains(text, args[1]) {
		ts.Fatalf("%s has no %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.ReplaceAll(text, args[1], args[2])), 0o644))
}

// scriptPushArtifact pushes an artifact that charter did not make to
// $REGISTRY: `pushartifact foreign REPO:TAG` pushes one of another
// artifactType; `pushartifact future REPO:TAG` a charter bundle whose
// schema version (annotation and manifest.json) is 99.
func scriptPushArtifact(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || args[0] != "foreign" && args[0] != "future" && args[0] != "layout" {
		ts.Fatalf("usage: pushartifact foreign|future|layout REPO:TAG")
	}
	ref, err := registry.ParseReference(ts.Getenv("REGISTRY") + "/" + args[1])
	ts.Check(err)
	repo := &remote.Repository{Reference: ref, PlainHTTP: true, Client: &auth.Client{
		Credential: auth.StaticCredential(ref.Registry, auth.Credential{Username: registrytest.User, Password: registrytest.Password}),
	}}
	ctx := context.Background()
	var opts oras.PackManifestOptions
	artifactType := "application/vnd.example.thing"
	if args[0] == "future" || args[0] == "layout" {
		artifactType = oci.ArtifactType
		manifest := []byte(`{"schema_version":"99","files":[]}`)
		tree := bundlefile.Tree{"manifest.json": manifest}
		if args[0] == "layout" {
			// A charter bundle, by its manifest, that writes .git/config.
			hook := []byte("[core]\n\thooksPath = /tmp/evil\n")
			sum := sha256.Sum256(hook)
			manifest = []byte(fmt.Sprintf(`{"schema_version":"1","charter_version":"x","cue_version":"y","files":[{"path":".git/config","sha256":"%x","size":%d}]}`, sum, len(hook)))
			tree = bundlefile.Tree{"manifest.json": manifest, ".git/config": hook}
		}
		var archive bytes.Buffer
		ts.Check(bundle.WriteArchive(&archive, tree, time.Unix(0, 0)))
		cfg, err := oras.PushBytes(ctx, repo, oci.ConfigMediaType, manifest)
		ts.Check(err)
		layer, err := oras.PushBytes(ctx, repo, oci.LayerMediaType, archive.Bytes())
		ts.Check(err)
		schema := "99"
		if args[0] == "layout" {
			schema = "1"
		}
		opts = oras.PackManifestOptions{ConfigDescriptor: &cfg, Layers: []ocispec.Descriptor{layer}, ManifestAnnotations: map[string]string{oci.AnnotationSchemaVersion: schema}}
	}
	desc, err := oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, artifactType, opts)
	ts.Check(err)
	ts.Check(repo.Tag(ctx, desc, ref.Reference))
}

// scriptRehash does what an attacker who edits a bundle's file does next:
// `rehash DIR FILE` writes FILE's new size and SHA-256 into DIR's
// manifest.json.
func scriptRehash(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: rehash DIR FILE")
	}
	mpath := filepath.Join(ts.MkAbs(args[0]), "manifest.json")
	mb, err := os.ReadFile(mpath)
	ts.Check(err)
	m, err := bundlefile.ParseManifest(mb)
	ts.Check(err)
	b, err := os.ReadFile(filepath.Join(ts.MkAbs(args[0]), filepath.FromSlash(args[1])))
	ts.Check(err)
	sum := sha256.Sum256(b)
	found := false
	for i := range m.Files {
		if m.Files[i].Path == args[1] {
			m.Files[i].SHA256, m.Files[i].Size, found = hex.EncodeToString(sum[:]), len(b), true
		}
	}
	if !found {
		ts.Fatalf("%s does not list %s", mpath, args[1])
	}
	out, err := canonjson.Pretty(m)
	ts.Check(err)
	ts.Check(os.WriteFile(mpath, out, 0o644))
}
