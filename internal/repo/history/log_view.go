package history

import "slices"

// Newest returns the last limit of versions (all of them when limit is 0
// or less), newest first, as git log lists commits. versions is oldest
// first, as AgentVersions gives them; it is reordered in place.
func Newest(versions []Version, limit int) []Version {
	if limit > 0 && len(versions) > limit {
		versions = versions[len(versions)-limit:]
	}
	slices.Reverse(versions)
	return versions
}

// Notes says what `charter log` prints of a commit besides its subject:
// the committer when not the author, the signature (not verified by
// charter), and the Reviewed-by and Approved-by trailers.
func (e *Entry) Notes() []string {
	var notes []string
	if e.Committer.Name != e.Author.Name || e.Committer.Email != e.Author.Email {
		notes = append(notes, "committed by "+e.Committer.Name+" <"+e.Committer.Email+">")
	}
	notes = append(notes, e.Signature.String()+" (not verified)")
	for _, r := range e.ReviewedBy {
		notes = append(notes, "Reviewed-by: "+r)
	}
	for _, r := range e.ApprovedBy {
		notes = append(notes, "Approved-by: "+r)
	}
	return notes
}
