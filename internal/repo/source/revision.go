package source

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// SplitRevPath splits an argument of the form REV:PATH, as in
// v1.2.0:configs/agents, at its first colon. PATH is relative to the top
// of the repository (git's REV:./PATH, relative to the current directory,
// is rejected); an empty PATH means the top. hasPath is false when s holds
// no colon, and then rev is s.
//
// charter splits REV:PATH itself because go-git's revision resolver
// quietly returns HEAD's commit for HEAD:dir.
func SplitRevPath(s string) (rev, p string, hasPath bool, err error) {
	rev, p, hasPath = strings.Cut(s, ":")
	if !hasPath {
		return s, "", false, nil
	}
	if rev == "" {
		return "", "", true, &UnsupportedRevisionError{Rev: s, Reason: "the revision before \":\" is empty (git's :PATH means the index: read the staged files instead)"}
	}
	if p == "." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		return "", "", true, &UnsupportedRevisionError{Rev: s, Reason: "the path after \":\" is relative to the top of the repository; drop the leading ./ or ../"}
	}
	p, err = cleanRepoPath(p)
	if ue := (*UnsupportedRevisionError)(nil); errors.As(err, &ue) {
		return "", "", true, &UnsupportedRevisionError{Rev: s, Reason: ue.Reason}
	} else if err != nil {
		return "", "", true, err
	}
	return rev, p, true, nil
}

// revOp is one ~N or ^N step after a revision's name.
type revOp struct {
	tilde bool
	n     int
}

// parseRev splits rev into its name and its ~N/^N steps, and rejects every
// other revision syntax.
func parseRev(rev string) (name string, ops []revOp, err error) {
	bad := func(reason string) (string, []revOp, error) {
		return "", nil, &UnsupportedRevisionError{Rev: rev, Reason: reason}
	}
	switch {
	case rev == "":
		return bad("the revision is empty")
	case strings.Contains(rev, ":"):
		return bad("REV:PATH selects a path; charter takes the path separately")
	case strings.Contains(rev, "@{"):
		return bad("reflog syntax @{...} is not supported")
	case strings.Contains(rev, "^{"):
		return bad("^{...} is not supported")
	case strings.Contains(rev, ".."):
		return bad("ranges are not supported; name one revision")
	case rev == "@":
		return bad("@ is not supported, write HEAD")
	case strings.HasPrefix(rev, "-"):
		return bad("a revision cannot start with -")
	}
	for _, c := range rev {
		if c <= ' ' || c == 0x7f || strings.ContainsRune("?*[\\", c) {
			return bad(fmt.Sprintf("%q is not allowed in a revision", c))
		}
	}
	i := strings.IndexAny(rev, "~^")
	if i == 0 {
		return bad("a name must come before ~ or ^")
	}
	if i < 0 {
		return rev, nil, nil
	}
	name, rest := rev[:i], rev[i:]
	for rest != "" {
		op := revOp{tilde: rest[0] == '~', n: 1}
		if rest[0] != '~' && rest[0] != '^' {
			return bad("only ~N and ^N may follow the name")
		}
		rest = rest[1:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 {
			n, err := strconv.Atoi(rest[:j])
			if err != nil || n > 1<<20 {
				return bad("the number after ~ or ^ is too large")
			}
			op.n = n
		}
		rest = rest[j:]
		ops = append(ops, op)
	}
	return name, ops, nil
}

// Resolve returns the commit that rev names. rev is a branch, a tag
// (annotated tags are peeled to their commit), a remote-tracking branch, a
// full or short (at least 4 hex digits) commit hash, or HEAD (detached or
// not), followed by any number of ~N (N-th first-parent ancestor) and ^N
// (N-th parent; ^0 is the commit itself). As in git, a full hash is taken
// as a hash, and any other name is looked up as a ref before as a short
// hash.
//
// Anything else (REV:PATH, ^{...}, @{...}, ranges) fails with
// *UnsupportedRevisionError; a name that matches nothing fails with
// *UnknownRevisionError, an unborn HEAD with *EmptyRepositoryError, a ~N
// past the boundary of a shallow clone with *ShallowError.
func (r *Repo) Resolve(rev string) (plumbing.Hash, error) {
	name, ops, err := parseRev(rev)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := r.resolveName(rev, name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h, err = r.peel(rev, h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for _, op := range ops {
		steps, parent := 1, op.n
		if op.tilde {
			steps, parent = op.n, 1
		}
		if parent == 0 {
			continue
		}
		for range steps {
			if r.shallow[h] {
				return plumbing.ZeroHash, &ShallowError{Commit: h, Op: "resolve " + rev}
			}
			c, err := r.o.commit(h)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if parent > len(c.ParentHashes) {
				return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev}
			}
			h = c.ParentHashes[parent-1]
		}
	}
	return h, nil
}

// refRules are git's rules for expanding a short ref name, in git's order.
var refRules = []string{"refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

func (r *Repo) resolveName(rev, name string) (plumbing.Hash, error) {
	if len(name) == 2*len(plumbing.ZeroHash) && isHex(name) {
		h := plumbing.NewHash(name)
		r.o.mu.Lock()
		has := !r.o.closed && r.o.packsLocked().has(h)
		r.o.mu.Unlock()
		if has {
			return h, nil
		}
		if err := r.st.HasEncodedObject(h); err == nil {
			return h, nil
		}
	}
	var candidates []string
	if name == "HEAD" || isPseudoRef(name) || strings.HasPrefix(name, "refs/") {
		candidates = append(candidates, name)
	}
	for _, rule := range refRules {
		candidates = append(candidates, fmt.Sprintf(rule, name))
	}
	for _, c := range candidates {
		ref, err := storer.ResolveReference(r.st, plumbing.ReferenceName(c))
		if err == nil {
			return ref.Hash(), nil
		}
		if c == "HEAD" && errors.Is(err, plumbing.ErrReferenceNotFound) {
			if head, err := r.st.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
				return plumbing.ZeroHash, &EmptyRepositoryError{Branch: head.Target().String()}
			}
		}
	}
	if len(name) >= 4 && len(name) < 2*len(plumbing.ZeroHash) && isHex(name) {
		return r.resolvePrefix(rev, strings.ToLower(name))
	}
	return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev, Shallow: r.IsShallow()}
}

// isPseudoRef reports whether name looks like HEAD, ORIG_HEAD or
// FETCH_HEAD: git looks those up directly in the git directory.
func isPseudoRef(name string) bool {
	if !strings.HasSuffix(name, "HEAD") {
		return false
	}
	for _, c := range name {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

func (r *Repo) resolvePrefix(rev, prefix string) (plumbing.Hash, error) {
	b, err := hex.DecodeString(prefix[:len(prefix)&^1])
	if err != nil {
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev}
	}
	r.o.mu.Lock()
	hashes, err := r.st.HashesWithPrefix(b)
	r.o.mu.Unlock()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("cannot look up %q: %w", rev, err)
	}
	var match []plumbing.Hash
	for _, h := range hashes {
		if strings.HasPrefix(h.String(), prefix) {
			match = append(match, h)
		}
	}
	if len(match) > 1 {
		// Like git, prefer commits (and tags of commits) when the prefix
		// is ambiguous.
		var commitish []plumbing.Hash
		for _, h := range match {
			if _, err := r.peel(rev, h); err == nil {
				commitish = append(commitish, h)
			}
		}
		if len(commitish) == 1 {
			match = commitish
		}
	}
	switch len(match) {
	case 0:
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev, Shallow: r.IsShallow()}
	case 1:
		return match[0], nil
	}
	return plumbing.ZeroHash, &AmbiguousRevisionError{Rev: rev, Matches: len(match)}
}

// peel follows annotated tags to the commit they name.
func (r *Repo) peel(rev string, h plumbing.Hash) (plumbing.Hash, error) {
	for range 16 {
		r.o.mu.Lock()
		obj, err := r.o.encodedLocked(h)
		if err != nil {
			r.o.mu.Unlock()
			return plumbing.ZeroHash, r.o.objectError(h, "object "+rev+" names", err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			r.o.mu.Unlock()
			return h, nil
		case plumbing.TagObject:
			t := &object.Tag{}
			err := t.Decode(obj)
			r.o.mu.Unlock()
			if err != nil {
				return plumbing.ZeroHash, &ObjectError{Hash: h, What: "tag " + rev, Err: err}
			}
			h = t.Target
		default:
			r.o.mu.Unlock()
			return plumbing.ZeroHash, &NotCommitError{Rev: rev, Hash: h, Type: obj.Type()}
		}
	}
	return plumbing.ZeroHash, &ObjectError{Hash: h, What: "tag " + rev, Err: errors.New("tags nest too deep")}
}
