package graphviz_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/graphviz"
	"github.com/charter-dev/charter/internal/graphviz/internal/wasm"
)

// Linking the package costs nothing: the WebAssembly module is
// instantiated on first use (charter's patch), and then renders as
// upstream does.
func TestModuleLoadsOnFirstUse(t *testing.T) {
	if wasm.Loaded() {
		t.Fatal("the module was instantiated at package init")
	}
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer gv.Close()
	if !wasm.Loaded() {
		t.Fatal("New did not instantiate the module")
	}
	if graphviz.Directed == nil {
		t.Fatal("Directed was not set when the module loaded")
	}
	g, err := graphviz.ParseBytes([]byte(`digraph { ann -> bob [label="delegates"] }`))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.SVG, &out); err != nil {
		t.Fatal(err)
	}
	svg := out.String()
	for _, want := range []string{"<svg", "<title>ann</title>", "<title>bob</title>", "<title>ann&#45;&gt;bob</title>", "delegates"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q:\n%s", want, svg)
		}
	}
}
