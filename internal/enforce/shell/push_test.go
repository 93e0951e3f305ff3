package shell_test

import (
	"testing"
)

// TestPushDestroys: a push that deletes a remote branch (--delete, -d,
// :BRANCH, --prune) or rewrites one (--force, +REFSPEC, --mirror, or a
// configured forced refspec) destroys history others have; the
// destructive list had none of them, so confirm_destructive let them
// through (no_force_push blocked only the forced forms on the command
// line).
func TestPushDestroys(t *testing.T) {
	for _, src := range []string{
		`git push origin --delete topic`, `git push -d origin topic`, `git push origin :topic`,
		`git push origin :refs/heads/topic`, `git push origin +:topic`, `git push --prune origin 'refs/heads/*:refs/heads/*'`,
		`git push --del origin topic`, `git push origin topic --delete`, `git push -f`, `git push --force-with-lease origin main`,
		`git push origin +main`, `git push --mirror backup`, `git -c remote.origin.push=+refs/heads/*:refs/heads/* push`,
		`git -c remote.origin.mirror=true push`, `git config remote.origin.push '+refs/heads/*:refs/heads/*'`,
		`git config --add remote.origin.push +main:main`, `git config remote.origin.mirror true`,
	} {
		if destructive(t, src) == "" {
			t.Errorf("%s: not destructive", src)
		}
	}
	for _, src := range []string{
		`git push`, `git push origin main`, `git push -u origin topic`, `git push origin HEAD:refs/heads/topic`,
		`git push --dry-run --delete origin topic`, `git push -n origin :topic`, `git push --tags`,
		`git config remote.origin.push refs/heads/main:refs/heads/main`, `git config --get remote.origin.push`,
	} {
		if why := destructive(t, src); why != "" {
			t.Errorf("%s: destructive: %s", src, why)
		}
	}
}
