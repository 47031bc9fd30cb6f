package main

import (
	"io"
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// Progress on stderr, on a terminal only (never in pipes, files or tests), drawn by
// schollz/progressbar: a bar with a count and an estimate of the time left where the work
// is counted (sweep points, validate --all, stability points, the study's steps), else a
// spinner with the elapsed time. It is cleared before the results are printed.

// forceProgress draws progress on any writer (tests).
var forceProgress = false

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress is a bar or spinner on stderr, or nothing off a terminal; its methods are safe
// on nil and from several goroutines.
type progress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

// startProgress starts a bar of total steps (total < 1: a spinner) described by label.
func startProgress(c *cli.Context, label string, total int) *progress {
	w := c.App.ErrWriter
	if !forceProgress && !isTerminal(w) {
		return nil
	}
	max := total
	if max < 1 {
		max = -1
	}
	bar := progressbar.NewOptions(max,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSpinnerType(14),
	)
	_ = bar.RenderBlank()
	return &progress{bar: bar}
}

// set moves the bar to done of total (sweep.Spec.Progress's form).
func (p *progress) set(done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar.GetMax() != total && total > 0 {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done)
}

// add advances the bar by one step.
func (p *progress) add() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.bar.Add(1)
}

// describe changes the label.
func (p *progress) describe(label string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Describe(label)
}

// done clears the bar; call it before printing results.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.bar.Finish()
	_ = p.bar.Exit()
}
