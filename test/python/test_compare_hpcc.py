"""scripts/compare_hpcc.py on small stored inputs (test/data/hpcc-compare), and
the config.txt that scripts/bench_peers.py writes for the HPCC simulator."""

import json
import math
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import bench_peers  # noqa: E402
import compare_hpcc  # noqa: E402

DATA = os.path.join(TOP, 'test', 'data', 'hpcc-compare')
SCRIPT = os.path.join(TOP, 'scripts', 'compare_hpcc.py')


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_slowdown_rule_and_percentiles():
    ours = compare_hpcc.read_hpcc_fct(os.path.join(DATA, 'ours', 'fct.txt'))
    # max(1, fct / ideal): 900 / 1000 is floored at 1.
    assert [f['slowdown'] for f in ours] == [1.0, 2.0, 3.0, 4.0, 2.0]
    theirs = compare_hpcc.read_hpcc_fct(os.path.join(DATA, 'theirs-fct.txt'))
    rows = compare_hpcc.compare(ours, theirs)
    small = rows[0]
    assert (small['n_ours'], small['n_theirs']) == (4, 4)
    # Nearest rank of [1, 2, 3, 4]: p50 the 2nd, p95 and p99 the 4th; of [1, 1, 2, 2]: 1, 2, 2.
    assert (small['p50_ours'], small['p95_ours'], small['p99_ours']) == (2.0, 4.0, 4.0)
    assert (small['p50_theirs'], small['p95_theirs'], small['p99_theirs']) == (1.0, 2.0, 2.0)
    assert small['p50_ratio'] == small['p95_ratio'] == small['p99_ratio'] == 2.0
    large = rows[3]  # 1MB-10MB: ours only, no ratio
    assert large['n_ours'] == 1 and large['n_theirs'] == 0 and math.isnan(large['p50_ratio'])
    assert compare_hpcc.worst_ratio(rows) == 2.0


def test_command_line_table_json_and_max_ratio():
    r = run(os.path.join(DATA, 'ours'), os.path.join(DATA, 'theirs-fct.txt'),
            '--theirs-pfc', os.path.join(DATA, 'theirs-pfc.txt'))
    assert r.returncode == 0, r.stderr
    assert '0-10KB' in r.stdout and '2.00/1.00   = 2.00' in r.stdout
    assert 'flows completed 5 / 4; PFC pauses 7 / 2; worst ratio 2.00' in r.stdout
    r = run(os.path.join(DATA, 'ours'), os.path.join(DATA, 'theirs-fct.txt'), '--json')
    out = json.loads(r.stdout)
    assert out['wall_s_ours'] == 1.5 and out['pauses_theirs'] is None
    r = run(os.path.join(DATA, 'ours'), os.path.join(DATA, 'theirs-fct.txt'),
            '--max-ratio', '1.5')
    assert r.returncode == 1 and '2.00x > 1.50x' in r.stderr
    assert run(os.path.join(DATA, 'ours'), os.path.join(DATA, 'theirs-fct.txt'),
               '--max-ratio', '2.5').returncode == 0


def test_bad_input_names_file_and_line(tmp_path):
    bad = tmp_path / 'fct.txt'
    bad.write_text('0b000001 0b000101 10000 100 1000 2000000000 900 1000\n'
                   '0b000001 0b000101 10001 100 1000 2000001000 oops 1000\n')
    r = run(os.path.join(DATA, 'ours'), str(bad))
    assert r.returncode == 2 and '%s:2: expected hex addresses and integers' % bad in r.stderr
    r = run(os.path.join(DATA, 'ours'), str(tmp_path / 'missing.txt'))
    assert r.returncode == 2 and 'missing.txt' in r.stderr


def test_run_py_fields_as_its_main_fills_them():
    d = bench_peers.run_py_fields('dcqcn', 100)
    # run.py l.83 bfsz = 16 * bw / 50; l.96-98 maps; l.100-101 ai, hai; l.104 mode 1.
    assert d['buffer_size'] == 32 and d['mode'] == 1 and (d['ai'], d['hai']) == (20, 200)
    assert d['kmin_map'] == '2 100000000000 400 400000000000 1600'
    assert d['kmax_map'] == '2 100000000000 1600 400000000000 6400'
    assert d['pmax_map'] == '2 100000000000 0.20 400000000000 0.20'
    h = bench_peers.run_py_fields('hp', 100)
    # l.112 ai = 10 * bw / 25, l.116 int_multi = bw / 25, l.123 mode 3.
    assert (h['mode'], h['ai'], h['int_multi'], h['has_win'], h['ack_prio']) == (3, 40, 4, 1, 0)
    assert bench_peers.run_py_fields('dcqcn', 25)['buffer_size'] == 8


def test_peer_config_paths_stop_time_and_monitor(tmp_path):
    # A stand-in run.py with the shape of the simulator's config_template.
    tree = tmp_path / 'simulation'
    tree.mkdir()
    (tree / 'run.py').write_text('config_template="""TOPOLOGY_FILE mix/{topo}.txt\n'
                                 'FLOW_FILE mix/{trace}.txt\nCC_MODE {mode}\n'
                                 'SIMULATOR_STOP_TIME 4.00\nBUFFER_SIZE {buffer_size}\n'
                                 'QLEN_MON_START 2000000000\n"""\n')
    out = tmp_path / 'run'
    out.mkdir()
    path = bench_peers.write_peer_config(str(tree), 'dcqcn', '/flows.txt', str(out), 100)
    lines = open(path).read().splitlines()
    assert lines == ['TOPOLOGY_FILE ' + bench_peers.TOPOLOGY, 'FLOW_FILE /flows.txt',
                     'CC_MODE 1', 'SIMULATOR_STOP_TIME 2.1', 'BUFFER_SIZE 32',
                     'QLEN_MON_START 100000000000']
    assert (out / 'trace.txt').read_text() == '0\n'


def test_builds_and_simulator_take_turns_going_first():
    sides = ['lto', 'debian', 'theirs']
    orders = [bench_peers.rotation(sides, t) for t in range(3)]
    assert [o[0] for o in orders] == ['lto', 'debian', 'theirs']
    assert all(sorted(o) == sorted(sides) for o in orders)
    assert bench_peers.rotation(sides, 3) == orders[0]


def test_sim_labels(tmp_path):
    sim = tmp_path / 'rdma-sim'
    sim.write_text('#!/bin/sh\n')
    sim.chmod(0o755)
    assert bench_peers.parse_sims(['lto=%s' % sim, str(sim)], None) == \
        [('lto', str(sim)), ('ours2', str(sim))]
    assert bench_peers.parse_sims(None, str(sim)) == [('ours', str(sim))]
    for bad in (['a=%s' % sim, 'a=%s' % sim], ['theirs=%s' % sim], ['x=%s' % (tmp_path / 'no')]):
        try:
            bench_peers.parse_sims(bad, None)
        except bench_peers.BenchError as e:
            assert '--sim' in str(e)
        else:
            raise AssertionError('accepted %s' % bad)
