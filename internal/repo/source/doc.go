// Package source gives charter the files of a config root from the working
// tree, the Git index or any commit, each as an io/fs.FS with paths
// relative to the config root, so that the loader reads all three the same
// way and nothing is checked out.
//
//   - Dir reads the working tree.
//   - Open finds the repository around a config root (also from a linked
//     worktree or a submodule); Repo.Index reads what is staged, the input
//     of a pre-commit hook; Repo.Commit reads a revision.
//
// Every file system lists symbolic links (fs.ModeSymlink in ReadDir,
// described by fs.ReadLink and Lstat) and never follows them: opening one
// fails with *SymlinkError, whose message says whether the link leads out
// of the config root. Symlinks returns them all, for diagnostics.
// Submodules inside a Git tree are left out. Every file system implements
// fs.StatFS, fs.ReadDirFS, fs.ReadFileFS and fs.ReadLinkFS and is safe for
// concurrent use. Those read from Git keep reading objects through their
// Repo and fail with ErrClosed once it is closed; their FileInfo.Sys is the
// object's plumbing.Hash (a cache keyed by blob hash needs no hashing) and
// ModTime the commit time (zero for the index).
//
// Errors are typed, for callers that tell them apart with errors.As:
// *NotRepositoryError, *UnknownRevisionError, *AmbiguousRevisionError,
// *UnsupportedRevisionError, *NotCommitError, *EmptyRepositoryError,
// *PathNotFoundError, *ShallowError, *ObjectError, *UnmergedError and
// *IndexError. Their messages say what to do, so the command line prints
// them as they are (every one is exit 2).
//
// The repository is opened with go-git and file descriptors kept open (see
// NOTES-cue-git.md); GIT_DIR and GIT_WORK_TREE are not consulted (the
// repository is found from the config root), GIT_INDEX_FILE is.
package source
