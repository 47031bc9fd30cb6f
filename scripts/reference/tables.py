#!/usr/bin/env python3
"""Markdown tables of the reference set (testdata/reference/) for docs/simulators.md.

Usage: python3 scripts/reference/tables.py [testdata/reference]
Reads every file `tcpfluid reference --format json` wrote there; needs nothing but Python 3.
"""
import glob
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "testdata/reference"


def load(sim, kind):
    out = {}
    for f in sorted(glob.glob(os.path.join(root, sim, kind + "-*.json"))):
        rep = json.load(open(f))
        out[os.path.basename(f)[len(kind) + 1:-5]] = rep["rows"][0]
    return out


def pct(a, b):
    if not a or not b:
        return "-"
    return "%+.1f%%" % (100 * (a / b - 1))


def sim_resp(row, sim):
    ms = row.get(sim) or []
    return ms[0] if ms else None


def response_table():
    n2, n3 = load("ns2", "response"), load("ns3", "response")
    # Seed 1's file of each point; response-NAME-pP-seeds*.json hold the other seeds' runs.
    keys = sorted({k for k in set(n2) | set(n3) if "-seeds" not in k},
                  key=lambda k: (k.rsplit("-p", 1)[0], -float(k.rsplit("-p", 1)[1])))
    print("| algorithm | p | ns-2 W̄ ± 95% CI (pkts) | loss events, ns-2 wall | ns-3 W̄ ± CI | loss events, ns-3 wall | "
          "fluid (linux) | fluid/ns-2 | fluid hybrid-recovery/ns-2 | packet (linux) | packet/ns-2 | fluid (ns3) / ns-3 | packet (ns3) / ns-3 | ns-3/ns-2 | tcpfluid wall fluid, packet |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        algo, p = k.rsplit("-p", 1)
        r2, r3 = n2.get(k), n3.get(k)
        m2 = sim_resp(r2, "ns2") if r2 else None
        m3 = sim_resp(r3, "ns3") if r3 else None
        w2 = m2["response"]["mean_cwnd_pkts"] if m2 else None
        w3 = m3["response"]["mean_cwnd_pkts"] if m3 else None
        c2 = "%.4g ± %.2g" % (w2, m2["response"]["ci95_pkts"]) if m2 else "-"
        c3 = "%.4g ± %.2g" % (w3, m3["response"]["ci95_pkts"]) if m3 else "-"
        e2 = "%d, %.3g s" % (m2["response"]["loss_events"], m2["wall_s"]) if m2 else "-"
        e3 = "%d, %.3g s" % (m3["response"]["loss_events"], m3["wall_s"]) if m3 else "-"
        fl = (r2 or {}).get("fluid") or {}
        pk = (r2 or {}).get("packet") or {}
        f3 = (r3 or {}).get("fluid") or {}
        p3 = (r3 or {}).get("packet") or {}
        fr = (r2 or {}).get("fluid_recovery") or {}
        wf, wp = fl.get("mean_cwnd_pkts"), pk.get("mean_cwnd_pkts")
        walls = "%.2g s, %s" % (fl["wall_s"], ("%.2g s" % pk["wall_s"]) if pk else "-") if fl else "-"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            algo, p, c2, e2, c3, e3, ("%.4g" % wf) if wf else "-", pct(wf, w2), pct(fr.get("mean_cwnd_pkts"), w2),
            ("%.4g" % wp) if wp else "-", pct(wp, w2), pct(f3.get("mean_cwnd_pkts"), w3), pct(p3.get("mean_cwnd_pkts"), w3),
            pct(w3, w2), walls))


def converge_table():
    for sim in ("ns2", "ns3"):
        rows = load(sim, "converge")
        if not rows:
            continue
        print("\n%s:\n" % {"ns2": "ns-2", "ns3": "ns-3"}[sim])
        print("| algorithm | link | BDP (pkts) | first loss (s) | cwnd at loss | min after | back at BDP after (s) | fluid (s) | fluid/sim | counted (s) | counted/sim | wall |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for k, r in sorted(rows.items()):
            m = r[sim][0]
            c = m["converge"]
            fl = (r.get("fluid") or {}).get("recovery_s")
            fr = (r.get("fluid_recovery") or {}).get("recovery_s")
            rec = c.get("recovery_s")
            print("| %s | %s | %.0f | %.3f | %.0f | %.0f | %s | %s | %s | %s | %s | %.3g s |" % (
                r["algorithm"], k.rsplit("-", 1)[1], c["bdp_pkts"], c["first_loss_s"], c["cwnd_at_loss_pkts"],
                c["min_after_pkts"], ("%.4g" % rec) if rec is not None else "never", ("%.4g" % fl) if fl else "-",
                pct(fl, rec), ("%.4g" % fr) if fr else "-", pct(fr, rec), m["wall_s"]))


def fairness_table():
    rows = load("ns2", "fairness")
    if not rows:
        return
    print("| mode | algorithm | ns-2 Jain mean ± sd (seeds) | ns-2 shares mean ± sd | fluid Jain | fluid shares | Jain fluid − ns-2 | max share diff | ns-2 wall (all seeds) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k, r in sorted(rows.items()):
        s = r.get("ns2_fairness")
        fl = r.get("fluid") or {}
        if not s:
            continue
        sh = " / ".join("%.3f ± %.3f" % (x["mean"], x["sd"]) for x in s["shares"])
        fsh = fl.get("shares") or []
        d = max((abs(a - b["mean"]) for a, b in zip(fsh, s["shares"])), default=None)
        print("| %s | %s | %.3f ± %.3f (%d) | %s | %s | %s | %s | %s | %.3g s |" % (
            r["mode"], r["algorithm"], s["jain"]["mean"], s["jain"]["sd"], s["jain"]["n"], sh,
            ("%.3f" % fl["jain"]) if fl.get("jain") else "-", " / ".join("%.3f" % x for x in fsh) or "-",
            ("%+.3f" % (fl["jain"] - s["jain"]["mean"])) if fl.get("jain") else "-", ("%.3f" % d) if d is not None else "-",
            s["wall_s"]))


print("### Response functions\n")
response_table()
print("\n### Converge\n")
converge_table()
print("\n### Fairness (ns-2, seed 000's dumbbell)\n")
fairness_table()
