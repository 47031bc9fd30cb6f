package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// errNotLanded is returned by commands whose capability is registered but not built yet.
var errNotLanded = errors.New("not available in this version yet")

func pending(issue string) cli.ActionFunc {
	return func(c *cli.Context) error {
		return fmt.Errorf("%s: %w (tracked as %s)", c.Command.Name, errNotLanded, issue)
	}
}
