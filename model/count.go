package model

import (
	"reflect"
	"strconv"
	"strings"
)

// MaxFlowCount is the largest count a scenario file's flow entry may give: 10^7 flows
// hold about 3 GB of scenario in memory.
const MaxFlowCount = 10_000_000

// countSep joins the name of a counted flow entry and the member's index: a YAML flow
// with name web and count 3 is the flows web#0, web#1 and web#2.
const countSep = "#"

// appendCount appends count copies of f, named name#k when there are several.
func appendCount(flows []Flow, f Flow, count int) []Flow {
	if count == 1 {
		return append(flows, f)
	}
	flows = append(make([]Flow, 0, len(flows)+count), flows...)
	for k := range count {
		g := f
		g.Name = f.Name + countSep + strconv.Itoa(k)
		flows = append(flows, g)
	}
	return flows
}

// foldCount is the counted entry that the flows at the head of flows came from, and how
// many it stands for: flows named base#0, base#1, … that are otherwise equal fold back
// into one entry named base (the inverse of appendCount); any other flow stands alone.
func foldCount(flows []Flow) (Flow, int) {
	head := flows[0]
	base, ok := strings.CutSuffix(head.Name, countSep+"0")
	if !ok {
		return head, 1
	}
	entry := head
	entry.Name = base
	n := 1
	for ; n < len(flows); n++ {
		g := flows[n]
		if g.Name != base+countSep+strconv.Itoa(n) {
			break
		}
		g.Name = base
		if !reflect.DeepEqual(g, entry) {
			break
		}
	}
	if n == 1 {
		return head, 1
	}
	return entry, n
}
