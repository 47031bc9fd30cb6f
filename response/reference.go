package response

// RFC 9438 Table 1 (τ = 0.1 s) and Table 2 (τ = 0.01 s): mean windows in packets.
var (
	RFC9438LossRates = []float64{1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}
	RFC9438Table1    = map[string][]float64{
		"reno":      {12, 38, 120, 379, 1200, 3795, 12000},
		"highspeed": {12, 38, 263, 1795, 12280, 83981, 574356},
		"cubic":     {12, 38, 187, 1054, 5926, 33325, 187400},
	}
	RFC9438Table2Cubic = []float64{12, 38, 120, 379, 1200, 5926, 33325}
)
