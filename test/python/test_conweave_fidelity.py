"""Fidelity against ConWeave's simulator (github.com/conweave-project/conweave-ns3,
derived from the HPCC simulator): rdma-sim reading the config.txt ConWeave's run.py
writes for per-flow ECMP with PFC (--hpcc.config: its keys, its five-field flow
file, its per-rate maps, cc.preset = conweave-sim) on its 128-host leaf-spine and
a 40-flow file (test/data/conweave-sim/README.md), flow by flow against the FCTs
that simulator wrote for the same file.

The file's eight probe WRITEs leave host 0 while a 16-to-1 incast fills the queue
to it: their data paths are idle, their ACKs come back through that queue. That
simulator sends every ACK ahead of data in every queue (its switches'
AckHighPrio, its hosts' ACK queue in class 0), and so does cc.preset =
conweave-sim (RdmaNic::AckPriority 7): the probes complete in an idle round trip
there and here. With the ACKs in their QP's class (AckPriority -1, as RoCE NICs
send them and as this module did before) each probe waits behind the incast,
about 20x longer: the cause of the small flows' longer tails on the AliStorage
runs (doc/rdma.rst, "Side by side with ConWeave's simulator")."""

import os
import statistics

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(TOP, 'test', 'data', 'conweave-sim')
FLOWS = os.path.join(DATA, 'incast-probe-40.txt')
THEIRS = os.path.join(DATA, 'fct-fecmp.txt')

#: each probe's FCT within this factor of the simulator's
PROBE = 1.05
#: every flow outside the incast within this factor
PER_FLOW = 1.25
#: the incast's last completion, and the median ratio over the 40 flows
INCAST_END = 1.05
MEDIAN = 1.05

#: ConWeave's run.py config_template for --lb fecmp --pfc 1 --irn 0 --simul_time 0.005
#: --netload 50 --bw 100 (CC dcqcn), with the paths relative to its folder
CONFIG = open(os.path.join(DATA, 'config.txt')).read()
#: its leaf_spine_128_100G_OS2 in the HPCC topology format: hosts 0-127, 16 a rack
#: on ToRs 128-135, spines 136-143, every link 100 Gb/s and 1 us
TOPOLOGY = os.path.join(DATA, 'leaf_spine_128_100G_OS2.txt')


def leaf_spine_128():
    """The topology's text."""
    return open(TOPOLOGY).read()


def read_fct(path):
    """(src, dst, size) -> (start_ns, fct_ns) of an fct.txt: rdma-sim's names hosts by
    address (0b00XX01, hex), ConWeave's by node id (decimal)."""
    flows = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            node = [(int(t, 16) >> 8) & 0xffff if t.startswith('0b') else int(t) for t in p[:2]]
            flows[(node[0], node[1], int(p[4]))] = (int(p[5]), int(p[6]))
    return flows


def run(run_example, tmp_path, name, *extra):
    config = os.path.join(DATA, 'config.txt')
    out = tmp_path / name
    r = run_example('rdma-sim', '--hpcc.config=%s' % config, '-q', '--output.dir=%s' % out,
                    *extra)
    assert r.returncode == 0, r.stderr
    return r, read_fct(out / 'fct.txt')


def test_fecmp_pfc_from_config_txt(run_example, tmp_path):
    r, ours = run(run_example, tmp_path, 'out')
    # Every key of the file is read or known; only the payload is not taken as it is.
    assert [w for w in r.stderr.splitlines() if 'warning' in w] == [
        'rdma-sim: warning: %s:63: PACKET_PAYLOAD_SIZE 1000: IB path MTUs are 256, 512, 1024, '
        '2048 or 4096 bytes; using 1024' % os.path.join(DATA, 'config.txt')], r.stderr
    theirs = read_fct(THEIRS)
    assert len(theirs) == 40 and set(ours) == set(theirs), 'the same 40 flows completed'
    ratios = []
    for key, (start, fct) in theirs.items():
        # (the simulator truncates the file's start seconds to whole ns: 1 ns less at times)
        assert abs(ours[key][0] - start) <= 1
        ratio = ours[key][1] / fct
        ratios.append(ratio)
        bound = PROBE if key[0] == 0 else None if key[1] == 0 else PER_FLOW
        assert bound is None or 1 / bound <= ratio <= bound, (
            'flow %d->%d, %d bytes: FCT %d ns here, %d ns in the simulator (%.2fx)'
            % (key[0], key[1], key[2], ours[key][1], fct, ratio))
    # The incast's flows finish in another order (DCQCN's cuts fall differently) but
    # the incast ends together.
    end = [max(s + f for (src, dst, _), (s, f) in flows.items() if dst == 0)
           for flows in (ours, theirs)]
    assert 1 / INCAST_END <= (end[0] - 2e9) / (end[1] - 2e9) <= INCAST_END, end
    assert 1 / MEDIAN <= statistics.median(ratios) <= MEDIAN, statistics.median(ratios)


def test_acks_in_the_data_class_wait_behind_the_incast(run_example, tmp_path):
    _, ours = run(run_example, tmp_path, 'out', '--nic.AckPriority=-1')
    theirs = read_fct(THEIRS)
    probes = [ours[k][1] / theirs[k][1] for k in theirs if k[0] == 0]
    assert len(probes) == 8 and min(probes) > 5, probes
