package model

import "errors"

// ErrEngine wraps failures of an engine that are not input errors.
var ErrEngine = errors.New("fluid engine")

// ErrSettings is wrapped by every error about an analysis's settings (packages response,
// validate, sweep): the user's input, like ErrScenario and ErrParam.
var ErrSettings = errors.New("invalid analysis settings")
