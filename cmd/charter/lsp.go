package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/buildinfo"
	"github.com/charter-dev/charter/internal/editor/lsp"
)

func newLSPCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the Language Server Protocol server on stdin and stdout, for editors",
		Long: `lsp serves an editor over the Language Server Protocol on stdin and stdout:
diagnostics from validate and lint as the author types, hover with every
option's prompt sentence, completion, go to definition (into the read-only
standard library too), the did-you-mean fixes and // charter:ignore as
code actions, and formatting as charter fmt does.

The config root is the workspace folder the editor opens (-C when it names
none). docs/editors.md shows the set-up for VS Code, Neovim, Helix and Zed.
lsp exits 0 when the editor closes the connection, and 2 when it sends
something that is not JSON-RPC.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			s := lsp.New(lsp.Options{Root: g.dir, Version: buildinfo.Read().Version, Log: g.stderr})
			// The protocol frames each message by its length, which the
			// redacting writer would change: the server redacts what it
			// says itself (diagnostics, hover, completion, code action
			// titles, messages) and writes below it.
			out := g.stdout
			if u, ok := out.(interface{ Unwrap() io.Writer }); ok {
				out = u.Unwrap()
			}
			err := s.Serve(ctx, stdio{os.Stdin, out})
			if errors.Is(err, lsp.ErrProtocol) {
				return withHint(err, "charter lsp speaks the Language Server Protocol: start it from an editor (docs/editors.md)")
			}
			if err != nil {
				return err
			}
			return nil
		},
	}
}

// stdio joins stdin and stdout into the stream the server reads and writes.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
