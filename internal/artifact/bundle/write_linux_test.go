package bundle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// A default ACL on the output's parent takes the umask's place (acl(5)):
// one that gives others nothing made a first build's files 0640 and its
// folders 0750 when the umask alone said no chmod was needed. The bundle
// has modes 0644 and 0755 whatever the umask and the ACLs, so a rebuild
// finds its files as it left them.
func TestFreshWriteUnderDefaultACL(t *testing.T) {
	parent := t.TempDir()
	// An access ACL in its binary form: version 2, then (tag, perm, id):
	// user::rwx, group::rwx, other::---.
	acl := make([]byte, 4+3*8)
	binary.LittleEndian.PutUint32(acl, 2)
	for i, e := range [][2]uint16{{0x01, 7}, {0x04, 7}, {0x20, 0}} {
		binary.LittleEndian.PutUint16(acl[4+i*8:], e[0])
		binary.LittleEndian.PutUint16(acl[4+i*8+2:], e[1])
		binary.LittleEndian.PutUint32(acl[4+i*8+4:], 0xffffffff)
	}
	if err := syscall.Setxattr(parent, "system.posix_acl_default", acl, 0); err != nil {
		if errors.Is(err, syscall.ENOTSUP) {
			realtool.Missing(t, fmt.Sprintf("the file system of %s has no ACLs, so none can change a mode: %v", parent, err))
		}
		t.Fatal(err)
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	out := filepath.Join(parent, "dist")
	tree := bundlefile.Tree{"manifest.json": []byte("m"), "a/b.json": []byte("b")}
	if err := WriteDir(out, tree); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want os.FileMode
	}{{"manifest.json", 0o644}, {"a", 0o755 | os.ModeDir}, {"a/b.json", 0o644}} {
		fi, err := os.Lstat(filepath.Join(out, c.name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != c.want {
			t.Errorf("%s: mode %v, want %v", c.name, fi.Mode(), c.want)
		}
	}
}
