package model

import (
	"encoding/json"
	"errors"
	"testing"
)

// A recovery round-trips through JSON by its name; an unknown name is ErrParam.
func TestRecoveryText(t *testing.T) {
	for r := RecoveryDefault; r <= RecoveryPRR; r++ {
		b, err := json.Marshal(Variant{Name: "v", Recovery: r})
		if err != nil {
			t.Fatal(err)
		}
		var v Variant
		if err := json.Unmarshal(b, &v); err != nil || v.Recovery != r {
			t.Errorf("%v: %s read back as %v (%v)", r, b, v.Recovery, err)
		}
	}
	if b, _ := json.Marshal(Variant{Name: "v", Recovery: RecoveryLinuxMinCwnd}); string(b) != `{"name":"v","source":"","params":null,"recovery":"linux-min-cwnd"}` {
		t.Errorf("json %s, want the recovery by name", b)
	}
	var r Recovery
	if err := r.UnmarshalText([]byte("cubic")); !errors.Is(err, ErrParam) {
		t.Errorf("recovery cubic: %v, want ErrParam", err)
	}
}
