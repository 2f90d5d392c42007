"""scripts/memory_costs.py reads each run's item counts from rdma-sim's
refusal under a small sim.maxMemory (doc/rdma.rst, "Memory: sizes checked
against the machine")."""

import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import memory_costs  # noqa: E402


def test_estimate_counts_the_flows_and_qp_pairs_of_a_generated_fabric(build_dir):
    # Regression: a generated fabric is refused first from its sizes alone,
    # before its flows are drawn, and the fit read 0 flows and 0 QP pairs
    # for every run but the Poisson ones (a fit of garbage).
    sim = os.path.join(build_dir, 'examples', 'rdma-sim')
    total, counts = memory_costs.estimate(sim, memory_costs.RUNS[0][1])  # k=4 permutation
    assert counts['hosts'] == 16 and counts['ports'] == 96, counts
    assert counts['flows'] == 16 and counts['QP'] == 16, counts
    fabric, _ = memory_costs.estimate(sim, ['--topology.type=fat-tree', '--topology.k=4',
                                            '--traffic.pattern=permutation',
                                            '--traffic.size=1000', '--sim.stopTime=1us',
                                            '--nic.pipeline=true'])
    assert fabric > total  # the NIC pipelines are counted too
