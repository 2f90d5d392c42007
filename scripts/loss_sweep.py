#!/usr/bin/python3
"""Goodput of go-back-N and IRN's selective repeat against random loss.

Two set-ups, each for every loss probability and both recoveries:

* two nodes (examples/rdma-two-nodes): a stream of WRITEs over one
  100 Gb/s link that loses each frame, either way, with probability p;
* a k=4 fat-tree (rdma-sim): a random permutation of WRITEs, every link
  losing each frame with probability p (topology.errorRate), no congestion
  control, PFC on.

The analytic bound is line rate x payload share x (1 - p) for the two nodes
(payload share = MTU / (MTU + 82): the RoCEv2 headers, ICRC, FCS, preamble
and gap of each frame) and, for the fat-tree, each flow's ideal goodput
(size / ideal FCT, rdma-sim's fct.csv) x (1 - p)^links of its path, averaged
over flows. Writes loss_sweep.csv and loss_sweep.json (one row per point:
goodput, bound, the requesters' retransmissions and timeouts, and drops: the
data frames the two-node receiver lost, or every frame the fat-tree dropped)
and loss_sweep.png (goodput against loss, the bound dashed).

A fat-tree flow that does not finish is a result, not an error: at high loss
a go-back-N QP can run out of retries (retry_cnt NAKs and timeouts in a row
without progress, IBA 9.7.6.1.3) and its WRITE completes with
IBV_WC_RETRY_EXC_ERR. Such a point is printed and written with its flows that
did not finish (flows_failed, failed_status: how many ended with which
status); its goodput is the mean over the flows that finished.

Go-back-N's fat-tree figures vary much from one seed to the next (a timeout
costs 1 ms against flows of a few ms), so one seed says little: --seeds runs
each fat-tree point with several (rdma-sim's sim.seed), writes a row per seed
and prints their mean, smallest and largest goodput.

    scripts/loss_sweep.py --out out/loss-sweep
    scripts/loss_sweep.py --quick --out out/loss-sweep-quick   # a small, fast version
    scripts/loss_sweep.py --losses 3e-3 --seeds 1-10 --out out/loss-sweep-seeds
"""

import argparse
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_binary  # noqa: E402

RECOVERIES = {"go-back-n": "ns3::RdmaGoBackN", "irn": "ns3::RdmaSelectiveRepeat"}
DEFAULT_LOSSES = [1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 2e-2, 5e-2]

GOODPUT_RE = re.compile(r"goodput of .*?: ([\d.]+) Gb/s \(R x P/\(P\+82\) = ([\d.]+) Gb/s\)")
A_RE = re.compile(r"A: packets (\d+), retransmitted (\d+), timeouts (\d+)")
B_RE = re.compile(r"ICRC drops (\d+)")


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_two_nodes(binary, loss, recovery, messages, size):
    """One two-node point: goodput and counters parsed from the example's summary."""
    cmd = [binary, f"--loss={loss}", f"--recovery={RECOVERIES[recovery]}",
           f"--messages={messages}", f"--size={size}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}{p.stderr}")
    g = GOODPUT_RE.search(p.stdout)
    a = A_RE.search(p.stdout)
    b = B_RE.search(p.stdout)
    if not (g and a and b):
        raise RuntimeError(f"unexpected output of {' '.join(cmd)}:\n{p.stdout}")
    goodput, line = float(g.group(1)), float(g.group(2))
    return {"setup": "two-nodes", "loss": loss, "recovery": recovery,
            "goodput_gbps": goodput, "bound_gbps": line * (1 - loss),
            "retransmissions": int(a.group(2)), "timeouts": int(a.group(3)),
            "drops": int(b.group(1)), "command": " ".join(cmd)}


def fat_tree_links(src, dst, k=4):
    """Links on a k-ary fat-tree path between host indices (2, 4 or 6)."""
    per_edge, per_pod = k // 2, (k // 2) ** 2
    if src // per_edge == dst // per_edge:
        return 2
    if src // per_pod == dst // per_pod:
        return 4
    return 6


def run_fat_tree(sim, loss, recovery, size, seed, out_dir, seed_in_name=False):
    """One fat-tree point through rdma-sim; goodput averaged over the flows
    that finished, the flows that did not counted by status."""
    name = f"fat-tree-{recovery}-{loss:g}" + (f"-seed{seed}" if seed_in_name else "")
    run_dir = os.path.join(out_dir, name)
    cmd = [sim, "--force", f"--output.dir={run_dir}", "--topology.type=fat-tree",
           "--topology.k=4", f"--topology.errorRate={loss}", "--traffic.pattern=permutation",
           f"--traffic.size={size}", "--cc.algorithm=none", f"--transport.recovery={recovery}",
           "--transport.timeout=8", "--output.qlenInterval=0s", f"--sim.seed={seed}",
           "--sim.stopTime=1s"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}{p.stderr}")
    with open(os.path.join(run_dir, "summary.json")) as f:
        summary = json.load(f)
    goodputs, bounds, failed = [], [], {}
    with open(os.path.join(run_dir, "fct.csv")) as f:
        for r in csv.DictReader(f):
            bits = int(r["size"]) * 8
            links = fat_tree_links(int(r["src"]), int(r["dst"]))
            bounds.append(bits / int(r["ideal_fct_ns"]) * (1 - loss) ** links)
            if r["status"] != "IBV_WC_SUCCESS":
                # Out of retries (IBV_WC_RETRY_EXC_ERR) or not done by
                # sim.stopTime (INCOMPLETE): counted, not averaged.
                failed[r["status"]] = failed.get(r["status"], 0) + 1
                continue
            goodputs.append(bits / int(r["fct_ns"]))
    if not bounds:
        raise RuntimeError(f"{run_dir}: fct.csv lists no flow")
    rec = summary["recovery"]
    return {"setup": "fat-tree-k4", "loss": loss, "recovery": recovery, "seed": seed,
            "goodput_gbps": sum(goodputs) / len(goodputs) if goodputs else None,
            "bound_gbps": sum(bounds) / len(bounds),
            "retransmissions": rec["retransmissions"], "timeouts": rec["timeouts"],
            "drops": summary["drops"], "flows": len(bounds),
            "flows_failed": sum(failed.values()),
            "failed_status": " ".join(f"{n} {s}" for s, n in sorted(failed.items())),
            "command": " ".join(cmd)}


def describe(row):
    """The printed line's figures for one row: goodput, bound, resent and
    timeouts, and the flows that did not finish, if any."""
    goodput = row["goodput_gbps"]
    text = ((f"{goodput:7.2f} Gb/s" if goodput is not None else "no flow done")
            + f" (bound {row['bound_gbps']:.2f}), resent {row['retransmissions']}, "
            f"timeouts {row['timeouts']}")
    if row.get("flows_failed"):
        text += (f"; {row['flows'] - row['flows_failed']} of {row['flows']} flows done, "
                 f"not done: {row['failed_status']}")
    return text


def spread(rows):
    """Mean, smallest and largest goodput of one point's seeds (rows), over
    the seeds where a flow finished."""
    g = [r["goodput_gbps"] for r in rows if r["goodput_gbps"] is not None]
    if not g:
        return None, None, None
    return sum(g) / len(g), min(g), max(g)


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    setups = sorted({r["setup"] for r in rows}, reverse=True)
    fig, axes = plt.subplots(1, len(setups), figsize=(6 * len(setups), 4.2), squeeze=False)
    for ax, setup in zip(axes[0], setups):
        for recovery, marker in (("go-back-n", "s"), ("irn", "o")):
            points = {}
            for r in rows:
                if r["setup"] == setup and r["recovery"] == recovery:
                    points.setdefault(r["loss"], []).append(r)
            xs = sorted(x for x in points if spread(points[x])[0] is not None)
            if not xs:
                continue
            mean = [spread(points[x])[0] for x in xs]
            low = [m - spread(points[x])[1] for m, x in zip(mean, xs)]
            high = [spread(points[x])[2] - m for m, x in zip(mean, xs)]
            seeds = max(len(points[x]) for x in xs)
            label = recovery + (f" (mean, min-max of {seeds} seeds)" if seeds > 1 else "")
            line = ax.errorbar(xs, mean, yerr=[low, high] if seeds > 1 else None,
                               marker=marker, capsize=3, label=label)
            for x, m in zip(xs, mean):
                failed = sum(r.get("flows_failed") or 0 for r in points[x])
                if failed:
                    flows = sum(r.get("flows") or 0 for r in points[x])
                    ax.annotate(f"{recovery}: {failed} of {flows} flows not done", (x, m),
                                textcoords="offset points", xytext=(-20, 60), ha="right",
                                fontsize=7,
                                color=line[0].get_color(),
                                arrowprops={"arrowstyle": "->", "color": line[0].get_color()})
        # The bound of each loss rate, over the seeds' permutations if several.
        bounds = {}
        for r in rows:
            if r["setup"] == setup and r["recovery"] == "irn":
                bounds.setdefault(r["loss"], []).append(r["bound_gbps"])
        bound = sorted((x, sum(b) / len(b)) for x, b in bounds.items())
        if bound:
            label = ("bound: rate x payload share x (1 - p)" if setup == "two-nodes" else
                     "bound: ideal goodput x (1 - p)^links, mean of flows")
            ax.plot(*zip(*bound), "k--", label=label)
        ax.set_xscale("log")
        ax.set_xlabel("loss probability per frame and link")
        ax.set_ylabel("goodput (Gb/s)")
        ax.set_title(setup)
        ax.set_ylim(bottom=0)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse_seeds(text):
    """[seed, ...] of '1,2,5-7' (ranges inclusive), in order, each once;
    ValueError if it is not such a list or is empty."""
    seeds = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        first, dash, last = part.partition("-")
        lo, hi = int(first), int(last) if dash else int(first)
        if lo < 0 or hi < lo:
            raise ValueError(part)
        seeds.extend(s for s in range(lo, hi + 1) if s not in seeds)
    if not seeds:
        raise ValueError(text)
    return seeds


def parse_args(argv):
    root = repo_root()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="out/loss-sweep", help="output folder")
    ap.add_argument("--losses", default=",".join(f"{x:g}" for x in DEFAULT_LOSSES),
                    help="comma-separated loss probabilities, each in [0, 1)")
    ap.add_argument("--two-nodes", default=os.path.join(root, "build/examples/rdma-two-nodes"),
                    help="the rdma-two-nodes program")
    ap.add_argument("--sim", help="the rdma-sim program (default: $RDMA_SIM, else make run's "
                    "build named in $RDMA_LTO_DIR/rdma-sim.path, else build/examples/rdma-sim)")
    ap.add_argument("--messages", type=int, default=64, help="two nodes: WRITEs streamed")
    ap.add_argument("--size", type=int, default=1 << 20, help="two nodes: bytes per WRITE")
    ap.add_argument("--flow-size", type=int, default=2000000, help="fat-tree: bytes per flow")
    ap.add_argument("--seed", type=int, help="fat-tree: rdma-sim's sim.seed (default 1)")
    ap.add_argument("--seeds", help="fat-tree: several sim.seed values, each point run with "
                    "each (comma-separated, ranges as 1-10); instead of --seed")
    ap.add_argument("--no-fat-tree", action="store_true", help="two nodes only")
    ap.add_argument("--quick", action="store_true",
                    help="small version: 3 loss rates, 8 x 256 KiB WRITEs, 200 kB flows")
    args = ap.parse_args(argv)
    try:
        args.losses = [float(x) for x in args.losses.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--losses: not a list of numbers: {args.losses}")
    bad = [x for x in args.losses if not 0 <= x < 1]
    if bad or not args.losses:
        ap.error(f"--losses: each loss probability must be in [0, 1), got {bad or 'none'}")
    if args.seeds is not None:
        if args.seed is not None:
            ap.error("--seed and --seeds: give one of them")
        try:
            args.seeds = parse_seeds(args.seeds)
        except ValueError:
            ap.error(f"--seeds: not a list of seeds (e.g. 1,2,3 or 1-10): {args.seeds}")
    else:
        args.seeds = [1 if args.seed is None else args.seed]
    args.sim, args.sim_why = ((args.sim, "--sim") if args.sim else
                              rdmasim_binary.default_sim(top=root))
    if args.quick:
        args.losses = args.losses if "--losses" in " ".join(argv or []) else [1e-4, 1e-2, 5e-2]
        args.messages, args.size, args.flow_size = 8, 1 << 18, 200000
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not args.no_fat_tree:
        print(f"loss_sweep: rdma-sim {args.sim} ({args.sim_why})", flush=True)
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for loss in args.losses:
        for recovery in RECOVERIES:
            rows.append(run_two_nodes(args.two_nodes, loss, recovery, args.messages, args.size))
            print(f"two-nodes {recovery:9s} p={loss:<7g} {describe(rows[-1])}", flush=True)
            if args.no_fat_tree:
                continue
            seeded = []
            for seed in args.seeds:
                seeded.append(run_fat_tree(args.sim, loss, recovery, args.flow_size, seed,
                                           args.out, seed_in_name=len(args.seeds) > 1))
                where = f" seed {seed:<3d}" if len(args.seeds) > 1 else ""
                print(f"fat-tree  {recovery:9s} p={loss:<7g}{where} {describe(seeded[-1])}",
                      flush=True)
            rows.extend(seeded)
            if len(seeded) > 1:
                mean, low, high = spread(seeded)
                failed = sum(r["flows_failed"] for r in seeded)
                figures = (f"mean {mean:.2f} Gb/s, min {low:.2f}, max {high:.2f}"
                           if mean is not None else "no flow done")
                print(f"fat-tree  {recovery:9s} p={loss:<7g} over {len(seeded)} seeds: {figures}"
                      + (f"; {failed} flows not done" if failed else ""), flush=True)
    columns = ["setup", "loss", "recovery", "seed", "goodput_gbps", "bound_gbps",
               "retransmissions", "timeouts", "drops", "flows", "flows_failed", "failed_status",
               "command"]
    with open(os.path.join(args.out, "loss_sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, restval="")
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(args.out, "loss_sweep.json"), "w") as f:
        json.dump(rows, f, indent=2)
    plot(rows, os.path.join(args.out, "loss_sweep.png"))
    print(f"wrote {args.out}/loss_sweep.csv, .json and .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
