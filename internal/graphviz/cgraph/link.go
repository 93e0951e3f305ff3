package cgraph

import (
	_ "unsafe"

	"github.com/charter-dev/charter/internal/graphviz/cdt"
	"github.com/charter-dev/charter/internal/graphviz/internal/wasm"
)

//go:linkname toDict github.com/charter-dev/charter/internal/graphviz/cdt.toDict
func toDict(*wasm.Dict) *cdt.Dict

//go:linkname toDictWasm github.com/charter-dev/charter/internal/graphviz/cdt.toDictWasm
func toDictWasm(*cdt.Dict) *wasm.Dict

//go:linkname toDictLink github.com/charter-dev/charter/internal/graphviz/cdt.toLink
func toDictLink(*wasm.DictLink) *cdt.Link

//go:linkname toDictLinkWasm github.com/charter-dev/charter/internal/graphviz/cdt.toLinkWasm
func toDictLinkWasm(*cdt.Link) *wasm.DictLink

func toGraphWasm(v *Graph) *wasm.Graph {
	if v == nil {
		return nil
	}
	return v.wasm
}
