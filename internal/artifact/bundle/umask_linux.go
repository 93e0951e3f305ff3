package bundle

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// umaskKeeps reports whether a file or folder created in dir with mode
// has it without a chmod: the process's umask leaves mode's bits alone,
// and dir has no default ACL (which takes the umask's place, acl(5)).
// Linux shows the umask in /proc/self/status (reading it there, unlike
// umask(2), changes nothing, so no other goroutine can create a file
// under a wrong one); when that cannot be read, the answer is no.
func umaskKeeps(dir string, mode os.FileMode) bool {
	m, ok := umask()
	return ok && m&uint32(mode.Perm()) == 0 && !defaultACL(dir)
}

// defaultACL reports whether dir may have a default ACL: yes unless the
// file system says it has none or cannot have one.
func defaultACL(dir string) bool {
	n, err := unix.Getxattr(dir, "system.posix_acl_default", nil)
	if err != nil {
		return !errors.Is(err, unix.ENODATA) && !errors.Is(err, unix.ENOTSUP)
	}
	return n > 0
}

func umask() (uint32, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "Umask:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			return uint32(m), err == nil
		}
	}
	return 0, false
}
