"""Fidelity against the HPCC simulator: rdma-sim with cc.preset = hpcc-sim on
the HPCC fat tree and a 40-flow file (test/data/hpcc-sim/incast-40.txt: 24
WebSearch flows and a 16-to-1 incast of 100 KB flows), flow by flow against
the FCTs the simulator wrote for the same files (test/data/hpcc-sim/README.md
says how they were made). DCQCN runs from a config.txt as the simulator's
run.py writes it (--hpcc.config), HPCC from the shipped INI file; an error in
a config.txt exits 2 with its file and line."""

import os
import statistics
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import compare_hpcc  # noqa: E402

DATA = os.path.join(TOP, 'test', 'data', 'hpcc-sim')
FLOWS = os.path.join(DATA, 'incast-40.txt')

#: every flow's FCT within this factor of the simulator's, either way
PER_FLOW = 1.3
#: and the median of ours / theirs over the 40 flows within this factor
MEDIAN = 1.05

#: config.txt for CC_MODE 1 as run.py's config_template with --cc dcqcn --bw 100
#: (lines 5-63; paths relative to this file's folder, stop time 2.1 s)
DCQCN_CONFIG = """ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1

PACKET_PAYLOAD_SIZE 1000

TOPOLOGY_FILE fat.txt
FLOW_FILE incast-40.txt
TRACE_FILE trace.txt
TRACE_OUTPUT_FILE mix.tr
FCT_OUTPUT_FILE fct.txt
PFC_OUTPUT_FILE pfc.txt

SIMULATOR_STOP_TIME 2.1

CC_MODE 1
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI 20Mb/s
RATE_HAI 200Mb/s
MIN_RATE 1000Mb/s
DCTCP_RATE_AI 1000Mb/s

ERROR_RATE_PER_LINK 0.0000
L2_CHUNK_SIZE 4000
L2_ACK_INTERVAL 1
L2_BACK_TO_ZERO 0

HAS_WIN 0
GLOBAL_T 1
VAR_WIN 0
FAST_REACT 0
U_TARGET 0.95
MI_THRESH 0
INT_MULTI 1
MULTI_RATE 0
SAMPLE_FEEDBACK 0
PINT_LOG_BASE 1.01
PINT_PROB 1.0

RATE_BOUND 1

ACK_HIGH_PRIO 1

LINK_DOWN 0 0 0

ENABLE_TRACE 0

KMAX_MAP 2 100000000000 1600 400000000000 6400
KMIN_MAP 2 100000000000 400 400000000000 1600
PMAX_MAP 2 100000000000 0.20 400000000000 0.20
BUFFER_SIZE 32
QLEN_MON_FILE qlen.txt
QLEN_MON_START 100000000000
QLEN_MON_END 100000000000
"""


def check_fcts(ours_dir, theirs_fct):
    """Match flows by (sip, dip, sport) and check the FCT ratios."""
    ours = {(f['sip'], f['dip'], f['sport']): f
            for f in compare_hpcc.read_hpcc_fct(os.path.join(ours_dir, 'fct.txt'))}
    theirs = {(f['sip'], f['dip'], f['sport']): f for f in compare_hpcc.read_hpcc_fct(theirs_fct)}
    assert len(theirs) == 40 and set(ours) == set(theirs), 'the same 40 flows completed'
    ratios = []
    for key, t in theirs.items():
        o = ours[key]
        # (the simulator truncates the file's start seconds to whole ns: 1 ns less at times)
        assert o['size'] == t['size'] and abs(o['start_ns'] - t['start_ns']) <= 1
        r = o['fct_ns'] / t['fct_ns']
        ratios.append(r)
        assert 1 / PER_FLOW <= r <= PER_FLOW, (
            'flow %08x->%08x:%d, %d bytes: FCT %d ns here, %d ns in the simulator (%.2fx)'
            % (key[0], key[1], key[2], t['size'], o['fct_ns'], t['fct_ns'], r))
    assert 1 / MEDIAN <= statistics.median(ratios) <= MEDIAN, statistics.median(ratios)


def test_dcqcn_from_config_txt(run_example, tmp_path):
    os.symlink(os.path.join(TOP, 'data', 'topology', 'fat.txt'), tmp_path / 'fat.txt')
    os.symlink(FLOWS, tmp_path / 'incast-40.txt')
    config = tmp_path / 'config.txt'
    config.write_text(DCQCN_CONFIG)
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '--hpcc.config=%s' % config, '-q', '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    # The two values run.py writes that this module does not take as they are.
    assert '%s:4: PACKET_PAYLOAD_SIZE 1000' % config in r.stderr
    assert '%s:46: ACK_HIGH_PRIO 1' % config in r.stderr
    check_fcts(out, os.path.join(DATA, 'fct-dcqcn.txt'))

    config.write_text(DCQCN_CONFIG.replace('RP_TIMER 300', 'RP_TIMER 300us'))
    r = run_example('rdma-sim', '--hpcc.config=%s' % config, '-q',
                    '--output.dir=%s' % (tmp_path / 'bad'))
    assert r.returncode == 2
    assert "%s:19: expected RP_TIMER microseconds, got '300us'" % config in r.stderr
    assert not (tmp_path / 'bad').exists()


def test_hpcc_from_ini(run_example, tmp_path):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', os.path.join(TOP, 'examples', 'configs',
                                                    'hpcc-fat-ws-hpcc.ini'),
                    '--traffic.flowFile=%s' % FLOWS, '--cc.preset=hpcc-sim', '-q',
                    '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    check_fcts(out, os.path.join(DATA, 'fct-hpcc.txt'))
