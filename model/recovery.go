package model

import "fmt"

// recoveryNames are the Recovery values as JSON and the CLI name them.
var recoveryNames = [...]string{
	RecoveryDefault:      "default",
	RecoveryNewReno:      "newreno",
	RecoveryReno:         "reno",
	RecoveryTahoe:        "tahoe",
	RecoveryLinux:        "linux",
	RecoveryLinuxMinCwnd: "linux-min-cwnd",
	RecoveryPRR:          "prr",
}

// String is the recovery's name: newreno, reno, tahoe, linux (ns-2 TCP/Linux's rate
// halving), linux-min-cwnd (the same with min_cwnd = ssthresh/2), prr (ns-3's RFC 6937),
// or default.
func (r Recovery) String() string {
	if r >= 0 && int(r) < len(recoveryNames) {
		return recoveryNames[r]
	}
	return fmt.Sprintf("Recovery(%d)", int(r))
}

// MarshalText writes the recovery's name (String).
func (r Recovery) MarshalText() ([]byte, error) {
	if r < 0 || int(r) >= len(recoveryNames) {
		return nil, fmt.Errorf("%w: recovery %d, want one of %v", ErrParam, int(r), recoveryNames)
	}
	return []byte(recoveryNames[r]), nil
}

// UnmarshalText reads a recovery's name (String).
func (r *Recovery) UnmarshalText(b []byte) error {
	for i, n := range recoveryNames {
		if n == string(b) {
			*r = Recovery(i)
			return nil
		}
	}
	return fmt.Errorf("%w: recovery %q, want one of %v", ErrParam, b, recoveryNames)
}
