"""scripts/bench_htsim.py without htsim: its parsing of the peer's output, its
table, and one whole invocation with stand-in programs for both simulators."""

import json
import os
import subprocess
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import bench_htsim  # noqa: E402

SCRIPT = os.path.join(TOP, 'scripts', 'bench_htsim.py')

# The peer run script's report, as it prints it for 128 hosts, 2 MB flows, 4096-byte MTU.
HTSIM_OUT = ('wall_s 0.43  cpu_s 0.41  max_rss_mb 11.2\n'
             'flows_completed 128/128  data_pkts 62592  rtx_pkts 0  last_fct_us 906.700\n')
COUNTERS = 'events 2099361 data_tx 62592 data_rx 62592 pfc_pause_sent 5565\n'


def test_parse_htsim_stock_output():
    fig = bench_htsim.parse_htsim(HTSIM_OUT)
    assert fig == {'wall_s': 0.43, 'cpu_s': 0.41, 'max_rss_mb': 11.2, 'data_pkts': 62592,
                   'flows_completed': 128, 'flows': 128, 'events': None}


def test_parse_htsim_counts_events_when_printed():
    assert bench_htsim.parse_htsim(HTSIM_OUT + COUNTERS)['events'] == 2099361
    assert bench_htsim.parse_htsim(HTSIM_OUT + 'htsim-counters: ' + COUNTERS)['events'] == 2099361


def test_parse_htsim_names_a_missing_field():
    with pytest.raises(bench_htsim.BenchError, match='data_pkts'):
        bench_htsim.parse_htsim('wall_s 1  cpu_s 1  max_rss_mb 1\nflows_completed 1/1\n')


def test_packets_and_arity():
    # RoCE segments a message into ceil(size / path MTU) packets: 2,000,000 / 4096 -> 489.
    assert bench_htsim.packets_per_flow(2000000, 4096) == 489
    assert bench_htsim.packets_per_flow(4096, 4096) == 1
    assert bench_htsim.fat_tree_k(128) == 8 and bench_htsim.fat_tree_k(1024) == 16
    with pytest.raises(bench_htsim.BenchError, match='k\\^3/4'):
        bench_htsim.fat_tree_k(100)


def row(ours_pkts=62592):
    ours = [{'wall_s': 2.0, 'events': 5000000, 'data_pkts': ours_pkts, 'max_rss_mb': 40.0,
             'flows_completed': 128}]
    return bench_htsim.median_row(128, 2000000, 4096, ours, [bench_htsim.parse_htsim(HTSIM_OUT)])


def test_table_row_and_ratio():
    r = row()
    assert r['expected_pkts'] == 62592 and r['ratio'] == pytest.approx(2.0 / 0.43)
    lines = bench_htsim.format_table([r]).split('\n')
    assert len(lines) == 2
    assert lines[1].split() == ['128', '2.00', '0.43', '5,000,000', '-', '62,592', '62,592',
                                '40.0', '11.2', '4.65']


def test_table_flags_a_packet_mismatch():
    text = bench_htsim.format_table([row(ours_pkts=250000)])
    assert 'NOT COMPARABLE: 128 hosts, ours delivered 250000' in text
    assert 'htsim delivered' not in text


def write_exe(path, text):
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


def stand_in_sim(tmp_path, args_file):
    """An rdma-sim stand-in: appends its arguments to args_file and writes a
    128-host summary.json into its --output.dir; returns its path."""
    summary = {'wall_time_s': 1.5, 'events': 4321, 'data_packets_delivered': 62592,
               'peak_rss_mb': 1.0, 'flows': {'completed': 128, 'total': 128}}
    return write_exe(tmp_path / 'sim', '#!/usr/bin/python3\nimport json, os, sys\n'
                     'open(%r, "a").write(" ".join(sys.argv[1:]) + "\\n")\n'
                     'd = [a.split("=", 1)[1] for a in sys.argv\n'
                     '     if a.startswith("--output.dir=")][0]\n'
                     'os.makedirs(d, exist_ok=True)\n'
                     'json.dump(%r, open(os.path.join(d, "summary.json"), "w"))\n'
                     % (str(args_file), summary))


def test_whole_run_with_stand_ins(tmp_path):
    """Both sides are stand-ins: the script must pass the arguments and read their outputs."""
    args_file = tmp_path / 'sim-args'
    peer = write_exe(tmp_path / 'run.sh', '#!/bin/sh\necho "$@" >> %s.peer\nprintf "%s"\n'
                     % (args_file, HTSIM_OUT.replace('\n', '\\n')))
    sim = stand_in_sim(tmp_path, args_file)
    out = tmp_path / 'out'
    p = subprocess.run([sys.executable, SCRIPT, '--htsim-run', peer, '--sim', sim, '--hosts', '128',
                        '--runs', '2', '--out', str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    ours_args = args_file.read_text().split('\n')[0].split()
    for a in ('--topology.type=fat-tree', '--topology.k=8', '--traffic.pattern=permutation',
              '--traffic.size=2000000', '--cc.algorithm=none', '--pfc.PfcEnabled=true',
              '--transport.pathMtu=4096', '--output.qlenInterval=0s', '-q'):
        assert a in ours_args
    assert (tmp_path / 'sim-args.peer').read_text().split('\n')[0].split()[:3] == \
        ['128', '2000000', '4096']
    rows = json.loads((out / 'bench-htsim.json').read_text())
    assert len(rows) == 1 and rows[0]['runs'] == 2 and rows[0]['ours_events'] == 4321
    assert 'NOT COMPARABLE' not in p.stdout


def test_bad_input_exits_2(tmp_path):
    p = subprocess.run([sys.executable, SCRIPT, '--sim', '/bin/true'], capture_output=True,
                       text=True)
    assert p.returncode == 2 and '--htsim' in p.stderr
    p = subprocess.run([sys.executable, SCRIPT, '--htsim-run', '/bin/true', '--sim', '/bin/true',
                        '--hosts', '100'], capture_output=True, text=True)
    assert p.returncode == 2 and 'k^3/4' in p.stderr


def test_floor_runs_beside_them(tmp_path):
    """--floor: rdma-hop-floor on the same fat tree and permutation, with Packets and structs."""
    args_file = tmp_path / 'floor-args'
    peer = write_exe(tmp_path / 'run.sh', '#!/bin/sh\nprintf "%s"\n'
                     % HTSIM_OUT.replace('\n', '\\n'))
    sim = stand_in_sim(tmp_path, tmp_path / 'sim-args')
    floor = write_exe(tmp_path / 'floor', '#!/bin/sh\necho "$@" >> %s\n'
                      'echo "link transmissions 9, events 9, data packets 62592, simulated 1 ns"\n'
                      % args_file)
    out = tmp_path / 'out'
    p = subprocess.run([sys.executable, SCRIPT, '--htsim-run', peer, '--sim', sim, '--floor', floor,
                        '--hosts', '128', '--out', str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    calls = args_file.read_text().strip().split('\n')
    assert [c.split() for c in calls] == [
        ['--fatTreeK=8', '--permutationBytes=2000000', '--mtu=4096', '--frames=%s' % f]
        for f in ('packet', 'pod')]
    header, line = p.stdout.split('\n')[:2]
    assert header.split()[-6:] == ['floor', 'Packets', 's', 'floor', 'structs', 's']
    assert len(line.split()) == 12
    rows = json.loads((out / 'bench-htsim.json').read_text())
    assert rows[0]['floor_packet_data_pkts'] == 62592 and rows[0]['floor_pod_wall_s'] > 0
    assert 'NOT COMPARABLE' not in p.stdout


def test_floor_packet_mismatch_is_flagged():
    r = row()
    r.update(floor_packet_wall_s=0.2, floor_pod_wall_s=0.1, floor_packet_data_pkts=62592,
             floor_pod_data_pkts=100)
    text = bench_htsim.format_table([r])
    assert 'NOT COMPARABLE: 128 hosts, floor_pod delivered 100' in text
    assert 'floor_packet delivered' not in text
