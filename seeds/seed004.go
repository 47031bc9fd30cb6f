package seeds

import (
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/validate"
)

func init() {
	validate.RegisterHeadline("seed004-lfn", validate.Headline{
		About:   "each flow's completion time of the 50 MB FTP transfer (seed 004: about 10 Mb/s without window scaling, 45 with)",
		Metrics: validate.PerFlow("completion_time_s", completion, validate.TolHeadline),
	})
}

// completion is a row's completion time, s (0 for a transfer that did not complete).
func completion(f model.FlowResult) float64 {
	if f.CompletionTimeS == nil {
		return 0
	}
	return *f.CompletionTimeS
}
