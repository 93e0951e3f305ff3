// Package buildinfo reports charter's version from the Go build information.
package buildinfo

import "runtime/debug"

// Info is what `charter version` prints and what the bundle manifest records.
type Info struct {
	Version    string `json:"version"`
	Commit     string `json:"commit"`
	CUEVersion string `json:"cue_version"`
	GoVersion  string `json:"go_version"`
}

// Read returns the build information of the running binary. A binary built
// from a checkout reports version "(devel)" and the VCS revision.
func Read() Info {
	info := Info{Version: "(devel)", Commit: "unknown", CUEVersion: "unknown", GoVersion: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.GoVersion = bi.GoVersion
	if v := bi.Main.Version; v != "" {
		info.Version = v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			info.Commit = s.Value
		}
	}
	for _, d := range bi.Deps {
		if d.Path == "cuelang.org/go" {
			info.CUEVersion = d.Version
			if d.Replace != nil {
				info.CUEVersion = d.Replace.Version
			}
		}
	}
	return info
}
