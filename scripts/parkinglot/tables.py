"""Tables of compare.sh: per-flow throughput and loss events (ns-2, packet, fluid, means
over the seeds), and per hop how often each flow lost nothing in an overflow (ns-2)."""
import collections
import json
import sys

work, n = sys.argv[1], int(sys.argv[2])
names, starts = ["long", "x1", "x2", "x3", "x4"], [0, 1, 2, 3, 4]
rows = {k: collections.defaultdict(list) for k in range(5)}
for s in range(1, n + 1):
    for line in open(f"{work}/E_{s}.txt"):
        _, k, cuts, _, acked, _ = line.split()
        k = int(k)
        rows[k]["ns2"].append(int(acked) * 1460 * 8 / (200 - starts[k]) / 1e6)
        rows[k]["ns2_le"].append(int(cuts))
    for engine in ("p", "f"):
        flows = json.load(open(f"{work}/{engine}_{s}.json"))["flows"]
        for k in range(5):
            rows[k][engine].append(flows[k]["mean_throughput_bps"] / 1e6)
            rows[k][engine + "_le"].append(flows[k]["loss_events"])


def mean(v):
    return sum(v) / len(v)


print(f"seeds 1-{n}: Mb/s and loss events, ns-2 / packet / fluid")
for k in range(5):
    r = rows[k]
    print(f"{names[k]:5} {mean(r['ns2']):7.2f} {mean(r['p']):7.2f} {mean(r['f']):7.2f}"
          f"   {mean(r['ns2_le']):5.1f} {mean(r['p_le']):5.1f} {mean(r['f_le']):5.1f}")
print("ns-2 overflows: episodes, and in how many each flow lost nothing")
for hop in (1, 3, 4):
    none, count = collections.Counter(), 0
    for s in range(1, n + 1):
        drops = [(float(x.split()[1]), int(x.split()[7])) for x in open(f"{work}/h{hop}_drops_{s}.tr")]
        episodes, cur = [], []
        for t, flow in drops:
            if cur and t - cur[-1][0] > 0.5:
                episodes.append(cur)
                cur = []
            cur.append((t, flow))
        if cur:
            episodes.append(cur)
        for e in episodes:
            if e[0][0] < 10:
                continue
            count += 1
            hit = {flow for _, flow in e}
            for flow in (0, hop):
                none[flow] += flow not in hit
    print(f"h{hop}: {count} overflows; long lost nothing in {none[0]}, x{hop} in {none[hop]}")
