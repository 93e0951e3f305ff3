package source

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Repo is a Git repository opened from a config root inside its working
// tree. The file systems it returns read objects lazily and stay valid
// until Close. A Repo is safe for concurrent use.
type Repo struct {
	st     *filesystem.Storage
	o      *objects
	top    string // working tree root, absolute, symlinks resolved
	gitDir string // the worktree's own git directory
	path   string // config root relative to top, slash-separated; "." for top

	shallow map[plumbing.Hash]bool
}

// Open opens the repository whose working tree holds dir, the config root.
// dir may be the top of the working tree or any directory below it,
// including one inside a linked worktree (git worktree add) or a
// submodule; symlinks in dir are resolved first. dir need not exist in the
// working tree: it may exist only at some revision.
//
// Open fails with *NotRepositoryError when no enclosing directory holds
// .git. Bare repositories are not supported.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := evalExisting(abs)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("the config root %s is not a directory; name the directory that holds the .cue files", dir)
	}
	top, dotGit, err := findDotGit(real)
	if err != nil {
		return nil, err
	}
	if top == "" {
		return nil, &NotRepositoryError{Dir: dir}
	}
	gitDir, err := resolveGitDir(top, dotGit)
	if err != nil {
		return nil, err
	}
	var fsys billy.Filesystem = osfs.New(gitDir)
	objectsDir := filepath.Join(gitDir, "objects")
	if common, err := readCommonDir(gitDir); err != nil {
		return nil, err
	} else if common != "" {
		fsys = dotgit.NewRepositoryFilesystem(fsys, osfs.New(common))
		objectsDir = filepath.Join(common, "objects")
	}
	// go-git's default object cache holds up to 96 MiB: a history walk
	// filled it and its memory grew with the history. Decoded trees have
	// their own cache (objects.trees); this one serves delta bases.
	st := filesystem.NewStorageWithOptions(fsys, cache.NewObjectLRU(objectCacheSize), filesystem.Options{KeepDescriptors: true})
	partial, err := checkRepository(st)
	if err != nil {
		st.Close()
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return nil, &NotRepositoryError{Dir: dir}
		}
		return nil, fmt.Errorf("cannot open the git repository at %s: %w", top, err)
	}
	rel, err := filepath.Rel(top, real)
	if err != nil {
		st.Close()
		return nil, err
	}
	r := &Repo{
		st:     st,
		o:      &objects{st: st, partial: partial, objectsDir: objectsDir},
		top:    top,
		gitDir: gitDir,
		path:   filepath.ToSlash(rel),
	}
	shallow, err := st.Shallow()
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("cannot read %s: %w", filepath.Join(gitDir, "shallow"), err)
	}
	if len(shallow) > 0 {
		r.shallow = make(map[plumbing.Hash]bool, len(shallow))
		for _, h := range shallow {
			r.shallow[h] = true
		}
	}
	return r, nil
}

// objectCacheSize bounds go-git's cache of decoded objects.
const objectCacheSize = 4 * cache.MiByte

// checkRepository checks that st is a repository charter can read: HEAD
// exists and every extension in its config is one that does not change
// how objects and refs are stored. It reports whether the repository is a
// partial clone (extensions.partialClone or a promisor remote), whose
// missing objects charter cannot fetch.
//
// go-git's Open refuses worktreeConfig and partialClone (it compares
// lower-cased names with camel-cased ones), which are harmless to a
// reader, so charter checks for itself.
func checkRepository(st *filesystem.Storage) (partial bool, err error) {
	if _, err := st.Reference(plumbing.HEAD); err != nil {
		return false, err
	}
	cfg, err := st.Config()
	if err != nil {
		return false, err
	}
	if cfg.Raw == nil {
		return false, nil
	}
	// git 2.39 marks a partial clone with remote.<name>.promisor only.
	for _, sub := range cfg.Raw.Section("remote").Subsections {
		if strings.EqualFold(sub.Option("promisor"), "true") {
			partial = true
		}
	}
	for _, opt := range cfg.Raw.Section("extensions").Options {
		switch name := strings.ToLower(opt.Key); name {
		case "noop", "noop-v1", "worktreeconfig", "preciousobjects":
		case "partialclone":
			partial = true
		case "objectformat":
			if v := strings.ToLower(opt.Value); v != "sha1" {
				return false, fmt.Errorf("the repository uses %s object names, which charter cannot read yet", v)
			}
		default:
			return false, fmt.Errorf("the repository uses the git extension %s, which charter cannot read", opt.Key)
		}
	}
	return partial, nil
}

// evalExisting resolves symlinks in the longest existing prefix of p and
// appends the rest unchanged.
func evalExisting(p string) (string, error) {
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// gitDirName is the name of a repository's Git folder (go-git's
// git.GitDirName, whose package would link go-git's transports).
const gitDirName = ".git"

// findDotGit walks up from dir to the first directory holding .git.
func findDotGit(dir string) (top string, dotGit fs.FileInfo, err error) {
	for {
		fi, err := os.Stat(filepath.Join(dir, gitDirName))
		if err == nil {
			return dir, fi, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil, nil
		}
		dir = parent
	}
}

// resolveGitDir returns the git directory for the working tree at top: .git
// itself, or the directory a .git file points at (linked worktrees and
// submodules).
func resolveGitDir(top string, dotGit fs.FileInfo) (string, error) {
	p := filepath.Join(top, gitDirName)
	if dotGit.IsDir() {
		return p, nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is a file without a gitdir: line; repair it with git worktree repair", p)
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	return gd, nil
}

// readCommonDir returns the common git directory of a linked worktree, or
// "" when gitDir is not one.
func readCommonDir(gitDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	c := strings.TrimSpace(string(b))
	if c == "" {
		return "", nil
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	if _, err := os.Stat(c); err != nil {
		return "", fmt.Errorf("the linked worktree's common git directory %s is missing; run git worktree prune or repair: %w", c, err)
	}
	return c, nil
}

// Close releases the repository's open files. File systems made from it
// fail with ErrClosed afterwards.
func (r *Repo) Close() error {
	err1 := r.o.close()
	err2 := r.st.Close()
	return errors.Join(err1, err2)
}

// TopLevel returns the absolute path of the top of the working tree, with
// symlinks resolved.
func (r *Repo) TopLevel() string { return r.top }

// ConfigPath returns the config root given to Open, relative to the top of
// the working tree, slash-separated; "." when it is the top itself. This is
// the path to hand to history.Walk and the one shown in error messages.
func (r *Repo) ConfigPath() string { return r.path }

// IsShallow reports whether the repository is a shallow clone.
func (r *Repo) IsShallow() bool { return len(r.shallow) > 0 }

// IsShallowBoundary reports whether commit h is a boundary of a shallow
// clone: its parents were not fetched.
func (r *Repo) IsShallowBoundary(h plumbing.Hash) bool { return r.shallow[h] }

// DisableCommitGraph makes later reads ignore the commit-graph file, for
// benchmarks and for a commit-graph suspected to be stale. Call it before
// the first history walk.
func (r *Repo) DisableCommitGraph() {
	r.o.mu.Lock()
	r.o.noGraph = true
	r.o.mu.Unlock()
}

// Node returns what a history walk needs of commit h, from the commit-graph
// file when it holds h, else from the commit object.
func (r *Repo) Node(h plumbing.Hash) (Node, error) { return r.o.commitNode(h) }

// CommitObject returns commit h, decoded.
func (r *Repo) CommitObject(h plumbing.Hash) (*object.Commit, error) { return r.o.commit(h) }

// PathEntry looks up p (slash-separated, relative to the root of tree;
// "." is tree itself) and returns its mode and hash. ok is false when p
// does not exist in tree.
func (r *Repo) PathEntry(tree plumbing.Hash, p string) (mode filemode.FileMode, hash plumbing.Hash, ok bool, err error) {
	mode, hash = filemode.Dir, tree
	if p == "." || p == "" {
		return mode, hash, true, nil
	}
	walked := ""
	for _, comp := range strings.Split(p, "/") {
		if mode != filemode.Dir {
			return 0, plumbing.ZeroHash, false, nil
		}
		what := "root tree"
		if walked != "" {
			what = "tree " + walked
		}
		mode, hash, ok, err = r.o.entry(hash, comp, what)
		if err != nil || !ok {
			return 0, plumbing.ZeroHash, false, err
		}
		walked = path.Join(walked, comp)
	}
	return mode, hash, true, nil
}

// Person is an author or committer as recorded in a commit. Names and
// emails are self-asserted; only a verified signature proves who committed.
type Person struct {
	Name  string    `json:"name"`
	Email string    `json:"email"`
	When  time.Time `json:"time"`
}

func person(s object.Signature) Person {
	return Person{Name: s.Name, Email: s.Email, When: s.When}
}

// Snapshot is a directory of the repository as of one commit.
type Snapshot struct {
	// FS holds the directory's files; paths are relative to it. It
	// implements fs.StatFS, fs.ReadDirFS, fs.ReadFileFS and fs.ReadLinkFS.
	// FileInfo.ModTime is the commit time; FileInfo.Sys is the object's
	// plumbing.Hash.
	FS fs.FS
	// Rev is the revision as given; Path the directory relative to the top
	// of the repository ("." for the top).
	Rev  string
	Path string
	// CommitHash is the commit Rev resolved to; TreeHash the hash of the
	// tree at Path in that commit.
	CommitHash plumbing.Hash
	TreeHash   plumbing.Hash
	Author     Person
	Committer  Person
	// Message is the full commit message.
	Message string
}

// Commit returns the config root as of revision rev. rev may be a branch, a
// tag (annotated or lightweight), a full or short commit hash or HEAD,
// followed by any number of ~N and ^N; see Resolve.
func (r *Repo) Commit(rev string) (*Snapshot, error) {
	return r.CommitPath(rev, r.path)
}

// CommitPath is Commit for a directory p given relative to the top of the
// repository, as in the PATH of REV:PATH (see SplitRevPath).
func (r *Repo) CommitPath(rev, p string) (*Snapshot, error) {
	p, err := cleanRepoPath(p)
	if err != nil {
		return nil, err
	}
	h, err := r.Resolve(rev)
	if err != nil {
		return nil, err
	}
	c, err := r.o.commit(h)
	if err != nil {
		return nil, err
	}
	mode, tree, ok, err := r.PathEntry(c.TreeHash, p)
	if err != nil {
		return nil, err
	}
	if !ok || mode != filemode.Dir {
		return nil, &PathNotFoundError{Path: p, Rev: rev, Commit: h, NotDir: ok}
	}
	where := "commit " + short(h)
	return &Snapshot{
		FS: &treeFS{
			o:     r.o,
			root:  &node{name: ".", mode: filemode.Dir, hash: tree},
			mtime: c.Committer.When,
			where: where,
		},
		Rev:        rev,
		Path:       p,
		CommitHash: h,
		TreeHash:   tree,
		Author:     person(c.Author),
		Committer:  person(c.Committer),
		Message:    c.Message,
	}, nil
}

// CommitTree returns tree, the hash of the config root's tree at commit
// as a history walk found it, as a file system: the FS that Commit returns
// for that commit, made without resolving a revision or reading the
// commit. mtime is the commit's committer time. Like Commit's, the FS
// reads objects lazily: a missing tree fails on first use.
func (r *Repo) CommitTree(commit, tree plumbing.Hash, mtime time.Time) fs.FS {
	return &treeFS{
		o:     r.o,
		root:  &node{name: ".", mode: filemode.Dir, hash: tree},
		mtime: mtime,
		where: "commit " + short(commit),
	}
}

// Blob returns the content of blob h: a file BlobHash named.
func (r *Repo) Blob(h plumbing.Hash) ([]byte, error) {
	return r.o.read(plumbing.BlobObject, h, "blob "+h.String())
}

// BlobHash returns the Git blob id of a regular file listed by a file
// system this package made (a DirEntry from ReadDir or fs.WalkDir), without
// reading the blob. It is false for anything else.
func BlobHash(d fs.DirEntry) (plumbing.Hash, bool) {
	i, ok := d.(*treeInfo)
	if !ok || i.n.isDir() || i.n.isSymlink() || i.n.hash.IsZero() {
		return plumbing.ZeroHash, false
	}
	return i.n.hash, true
}

// cleanRepoPath checks a path relative to the top of the repository.
func cleanRepoPath(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	q := strings.TrimSuffix(p, "/")
	if q == "" || path.IsAbs(p) || strings.Contains(p, "\\") {
		return "", &UnsupportedRevisionError{Rev: p, Reason: "the path must be relative to the top of the repository, with forward slashes"}
	}
	if !fs.ValidPath(q) {
		return "", &UnsupportedRevisionError{Rev: p, Reason: "the path must be relative to the top of the repository, without . or .. elements"}
	}
	return q, nil
}

// Index returns the config root as staged in the Git index: what the next
// commit would hold, which is what a pre-commit hook must check. A file
// modified in the working tree but not staged appears with its staged
// content, a staged new file appears, a staged deletion is gone. Entries
// added with git add -N (intent to add) are left out, like submodules.
//
// The index file is $GIT_INDEX_FILE when set (git sets it for hooks: during
// `git commit -a` or `git commit FILE` it names a temporary index, and the
// regular index still holds the old content), relative to the top of the
// working tree; otherwise the worktree's own index. A config root with
// nothing staged under it fails with *PathNotFoundError; a file with
// unresolved conflicts fails with *UnmergedError.
//
// The FS implements the same interfaces as Snapshot.FS; ModTime is zero.
func (r *Repo) Index() (fs.FS, error) {
	return r.IndexPath(r.path)
}

// IndexPath is Index for a directory p given relative to the top of the
// repository.
func (r *Repo) IndexPath(p string) (fs.FS, error) {
	p, err := cleanRepoPath(p)
	if err != nil {
		return nil, err
	}
	idx, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	root := &node{name: ".", mode: filemode.Dir, mem: true}
	dirs := map[string]*node{".": root}
	var mkdir func(string) *node
	mkdir = func(d string) *node {
		if n, ok := dirs[d]; ok {
			return n
		}
		parent := mkdir(path.Dir(d))
		n := &node{name: path.Base(d), mode: filemode.Dir, mem: true}
		parent.kids = append(parent.kids, n)
		dirs[d] = n
		return n
	}
	prefix := p + "/"
	found := false
	for _, e := range idx.Entries {
		rel := e.Name
		if p != "." {
			if e.Name == p {
				return nil, &PathNotFoundError{Path: p, Rev: indexRev, NotDir: true}
			}
			var ok bool
			if rel, ok = strings.CutPrefix(e.Name, prefix); !ok {
				continue
			}
		}
		if !fs.ValidPath(rel) || rel == "." {
			return nil, &IndexError{File: r.indexFile(), Err: fmt.Errorf("invalid path %q", e.Name)}
		}
		found = true
		// Stage 0 is a merged entry; go-git's index.Merged constant is 1,
		// which is the conflict's common ancestor.
		if e.Stage != 0 {
			return nil, &UnmergedError{Path: rel}
		}
		if e.IntentToAdd || e.Mode == filemode.Submodule {
			continue
		}
		dir := mkdir(path.Dir(rel))
		dir.kids = append(dir.kids, &node{name: path.Base(rel), mode: e.Mode, hash: e.Hash})
	}
	if !found {
		return nil, &PathNotFoundError{Path: p, Rev: indexRev}
	}
	for _, d := range dirs {
		sortNodes(d.kids)
	}
	return &treeFS{o: r.o, root: root, where: indexRev}, nil
}

func (r *Repo) indexFile() string {
	if f := os.Getenv("GIT_INDEX_FILE"); f != "" {
		if !filepath.IsAbs(f) {
			f = filepath.Join(r.top, f)
		}
		return f
	}
	return filepath.Join(r.gitDir, "index")
}

func (r *Repo) readIndex() (*index.Index, error) {
	file := r.indexFile()
	if os.Getenv("GIT_INDEX_FILE") == "" {
		idx, err := r.st.Index()
		if err != nil {
			return nil, &IndexError{File: file, Err: err}
		}
		return idx, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, &IndexError{File: file, Err: err}
	}
	defer f.Close()
	idx := &index.Index{}
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(idx); err != nil {
		return nil, &IndexError{File: file, Err: err}
	}
	return idx, nil
}
