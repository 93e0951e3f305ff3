package wasm

import (
	"context"
	"fmt"
	"io/fs"
	"sync"
)

func DefaultSymList(ctx context.Context) ([]*SymList, error) {
	p, err := mod.NewPtr(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := mod.ExportedFunction("wasm_bridge_SymList_default").Call(ctx, p); err != nil {
		return nil, err
	}
	ptr, err := mod.readU32(p)
	if err != nil {
		return nil, err
	}
	slice, err := mod.toSlice(ctx, ptr)
	if err != nil {
		return nil, err
	}
	return newSymListSlice(slice), nil
}

func PluginAPIZero(ctx context.Context) (*PluginAPI, error) {
	p, err := mod.NewPtr(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := mod.ExportedFunction("wasm_bridge_PluginAPI_zero").Call(ctx, p); err != nil {
		return nil, err
	}
	ptr, err := mod.readU32(p)
	if err != nil {
		return nil, err
	}
	return newPluginAPI(ptr), nil
}

func PluginInstalledZero(ctx context.Context) (*PluginInstalled, error) {
	p, err := mod.NewPtr(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := mod.ExportedFunction("wasm_bridge_PluginInstalled_zero").Call(ctx, p); err != nil {
		return nil, err
	}
	ptr, err := mod.readU32(p)
	if err != nil {
		return nil, err
	}
	return newPluginInstalled(ptr), nil
}

func SymListZero(ctx context.Context) (*SymList, error) {
	p, err := mod.NewPtr(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := mod.ExportedFunction("wasm_bridge_SymList_zero").Call(ctx, p); err != nil {
		return nil, err
	}
	ptr, err := mod.readU32(p)
	if err != nil {
		return nil, err
	}
	return newSymList(ptr), nil
}

var (
	fsMu sync.Mutex
)

func SetWasmFileSystem(fs fs.FS) {
	fsMu.Lock()
	mod.fs.subFS = fs
	fsMu.Unlock()
}

func FileSystem() fs.FS {
	fsMu.Lock()
	defer fsMu.Unlock()
	return mod.fs
}

// charter: the module is instantiated on first use, not at package init.
// Upstream's init compiled and instantiated the 1.5 MB module in every
// process that links this package, 30 to 40 ms, which every charter
// command paid (charter lint in a pre-commit hook, charter eval on every
// tool call) though only charter site lays out graphs. Load does that
// work once, then runs what the other packages of this copy registered
// with OnLoad, in package order: what their init functions did upstream.
var (
	loadOnce  sync.Once
	loadErr   error
	loadHooks []func() error
)

// OnLoad registers f to run after the module is instantiated.
func OnLoad(f func() error) { loadHooks = append(loadHooks, f) }

// Loaded reports whether Load has run.
func Loaded() bool { return mod != nil }

// Load instantiates the module and runs the OnLoad functions, once.
func Load() error {
	loadOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				loadErr = fmt.Errorf("graphviz: loading the WebAssembly module: %v", r)
			}
		}()
		load()
		for _, f := range loadHooks {
			if err := f(); err != nil {
				loadErr = err
				return
			}
		}
	})
	return loadErr
}
