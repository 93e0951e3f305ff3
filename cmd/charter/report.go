package main

import (
	"errors"
	"io"
	"net/url"
	"path/filepath"

	"github.com/charter-dev/charter/internal/buildinfo"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/lint"
)

// reportBase gives the directory GitHub resolves paths from (the Git top
// level, or the current directory outside Git) as a file URI, and the
// config root relative to it.
func reportBase(g *globals) (rootURI, rel string, err error) {
	base, rel, err := source.ReportBase(g.dir)
	if err != nil {
		return "", "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(base) + "/"}).String(), rel, nil
}

// sarifRules describes every rule and check a SARIF log may name: the lint
// rules and the checks of loading, validation and compilation.
func sarifRules() []diag.RuleInfo { return append(lint.Infos(), validate.Checks()...) }

// writeSARIF writes ds as SARIF for GitHub code scanning: files relative to
// the repository root, whatever -C is.
func writeSARIF(g *globals, ds []diag.Diagnostic, rules []diag.RuleInfo) error {
	uri, rel, err := reportBase(g)
	if err != nil {
		return err
	}
	tool := diag.ToolInfo{Version: buildinfo.Read().Version, RootURI: uri}
	return diag.WriteSARIF(g.stdout, diag.Rebase(ds, rel), rules, tool)
}

// writeGitHub writes ds as workflow commands, files relative to the
// repository root.
func writeGitHub(g *globals, ds []diag.Diagnostic) error {
	_, rel, err := reportBase(g)
	if err != nil {
		return err
	}
	return diag.WriteGitHub(g.stdout, diag.Rebase(ds, rel))
}

// sarifOnFailure runs a command that writes SARIF to stdout; when it ends
// with exit 2 before writing anything (a bad flag, a revision that cannot
// be read), a SARIF log that says so is written instead, so that a CI step
// uploading stdout uploads a valid log, not an empty file.
func sarifOnFailure(g *globals, run func() error) error {
	w := &countingWriter{w: g.stdout}
	stdout := g.stdout
	g.stdout = w
	err := run()
	g.stdout = stdout
	if w.n > 0 {
		return err
	}
	ee := asExit(err, g.cmd)
	if ee.code != exitError || ee.err == nil {
		return err
	}
	msg, hint := ee.err.Error(), ee.hint
	if hint != "" {
		msg += " (hint: " + hint + ")"
	}
	tool := diag.ToolInfo{Version: buildinfo.Read().Version}
	if uri, _, uerr := reportBase(g); uerr == nil {
		tool.RootURI = uri
	}
	if werr := diag.WriteSARIFFailure(g.stdout, msg, tool); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
