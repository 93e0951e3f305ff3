package bundle

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// umaskKeeps reports whether the process's umask leaves mode's bits alone,
// so that a file or folder created with mode has it without a chmod. Linux
// shows the umask in /proc/self/status (reading it there, unlike
// umask(2), changes nothing, so no other goroutine can create a file
// under a wrong one); when that cannot be read, the answer is no.
func umaskKeeps(mode os.FileMode) bool {
	m, ok := umask()
	return ok && m&uint32(mode.Perm()) == 0
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
