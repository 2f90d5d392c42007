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

    scripts/loss_sweep.py --out out/loss-sweep
    scripts/loss_sweep.py --quick --out out/loss-sweep-quick   # a small, fast version
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


def run_fat_tree(sim, loss, recovery, size, seed, out_dir):
    """One fat-tree point through rdma-sim; goodput averaged over flows."""
    run_dir = os.path.join(out_dir, f"fat-tree-{recovery}-{loss:g}")
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
    goodputs, bounds = [], []
    with open(os.path.join(run_dir, "fct.csv")) as f:
        for r in csv.DictReader(f):
            if r["status"] != "IBV_WC_SUCCESS":
                raise RuntimeError(f"{run_dir}: flow {r['id']} ended {r['status']}")
            bits = int(r["size"]) * 8
            goodputs.append(bits / int(r["fct_ns"]))
            links = fat_tree_links(int(r["src"]), int(r["dst"]))
            bounds.append(bits / int(r["ideal_fct_ns"]) * (1 - loss) ** links)
    rec = summary["recovery"]
    return {"setup": "fat-tree-k4", "loss": loss, "recovery": recovery,
            "goodput_gbps": sum(goodputs) / len(goodputs),
            "bound_gbps": sum(bounds) / len(bounds),
            "retransmissions": rec["retransmissions"], "timeouts": rec["timeouts"],
            "drops": summary["drops"],
            "command": " ".join(cmd)}


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    setups = sorted({r["setup"] for r in rows}, reverse=True)
    fig, axes = plt.subplots(1, len(setups), figsize=(6 * len(setups), 4.2), squeeze=False)
    for ax, setup in zip(axes[0], setups):
        for recovery, marker in (("go-back-n", "s"), ("irn", "o")):
            pts = sorted((r["loss"], r["goodput_gbps"]) for r in rows
                         if r["setup"] == setup and r["recovery"] == recovery)
            if pts:
                ax.plot(*zip(*pts), marker=marker, label=recovery)
        bound = sorted({(r["loss"], r["bound_gbps"]) for r in rows
                        if r["setup"] == setup and r["recovery"] == "irn"})
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
    ap.add_argument("--seed", type=int, default=1, help="fat-tree: rdma-sim's sim.seed")
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
            print(f"two-nodes {recovery:9s} p={loss:<7g} {rows[-1]['goodput_gbps']:7.2f} Gb/s "
                  f"(bound {rows[-1]['bound_gbps']:.2f}), resent {rows[-1]['retransmissions']}, "
                  f"timeouts {rows[-1]['timeouts']}", flush=True)
            if not args.no_fat_tree:
                rows.append(run_fat_tree(args.sim, loss, recovery, args.flow_size, args.seed,
                                         args.out))
                print(f"fat-tree  {recovery:9s} p={loss:<7g} {rows[-1]['goodput_gbps']:7.2f} "
                      f"Gb/s (bound {rows[-1]['bound_gbps']:.2f}), resent "
                      f"{rows[-1]['retransmissions']}, timeouts {rows[-1]['timeouts']}",
                      flush=True)
    columns = ["setup", "loss", "recovery", "goodput_gbps", "bound_gbps", "retransmissions",
               "timeouts", "drops", "command"]
    with open(os.path.join(args.out, "loss_sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(args.out, "loss_sweep.json"), "w") as f:
        json.dump(rows, f, indent=2)
    plot(rows, os.path.join(args.out, "loss_sweep.png"))
    print(f"wrote {args.out}/loss_sweep.csv, .json and .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
