package history

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

func hackHeap() {
	name := os.Getenv("HACK_HEAP")
	if name == "" {
		return
	}
	runtime.GC()
	f, _ := os.Create(name)
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
}

func hackStatus() {
	if os.Getenv("HACK_STATUS") == "" {
		return
	}
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM") || strings.HasPrefix(l, "Rss") {
			os.Stderr.WriteString(l + "\n")
		}
	}
}
