"""scripts/loss_sweep.py on a tiny grid, and rdma-sim's transport.recovery key:
IRN holds the analytic goodput bound where go-back-N falls behind, the rows
and the plot are written, a point whose flows run out of retries is reported
and the sweep goes on, --seeds runs each fat-tree point with several seeds,
bad recovery input exits 2 naming the key, the key works through the Python
API on a lossy fabric, and tshark decodes IRN's SACK NAKs."""

import csv
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def load_sweep():
    spec = importlib.util.spec_from_file_location(
        'loss_sweep', os.path.join(TOP, 'scripts', 'loss_sweep.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_tiny_sweep(build_dir, tmp_path):
    sweep = load_sweep()
    out = tmp_path / 'ls'
    rc = sweep.main(['--quick', '--losses=0.01', '--out', str(out),
                     '--two-nodes', os.path.join(build_dir, 'examples', 'rdma-two-nodes'),
                     '--sim', os.path.join(build_dir, 'examples', 'rdma-sim')])
    assert rc == 0
    rows = {(r['setup'], r['recovery']): r for r in csv.DictReader(open(out / 'loss_sweep.csv'))}
    assert set(rows) == {(s, r) for s in ('two-nodes', 'fat-tree-k4')
                         for r in ('go-back-n', 'irn')}
    irn, gbn = rows['two-nodes', 'irn'], rows['two-nodes', 'go-back-n']
    # Bound: 100 Gb/s x 4096 / (4096 + 82) x (1 - 0.01).
    assert float(irn['bound_gbps']) == pytest.approx(100 * 4096 / 4178 * 0.99, rel=1e-4)
    assert float(irn['goodput_gbps']) >= 0.85 * float(irn['bound_gbps'])
    assert float(irn['goodput_gbps']) > float(gbn['goodput_gbps'])
    assert int(irn['drops']) > 0 and int(irn['retransmissions']) >= int(irn['drops'])
    assert int(irn['timeouts']) <= 1  # at most the stream's very last packet
    # On the fat-tree every link loses 1 %: frames are dropped and resent.
    for recovery in ('go-back-n', 'irn'):
        ft = rows['fat-tree-k4', recovery]
        assert int(ft['drops']) > 0 and int(ft['retransmissions']) > 0
        assert 0 < float(ft['goodput_gbps']) <= float(ft['bound_gbps']) * 1.001
    assert os.path.getsize(out / 'loss_sweep.png') > 10000
    assert len(json.load(open(out / 'loss_sweep.json'))) == 4


# Stand-ins for rdma-two-nodes and rdma-sim that print and write what
# loss_sweep.py reads, so the sweep's handling of a point is tested without
# simulating: the fake rdma-sim ends flow 2 of 4 with IBV_WC_RETRY_EXC_ERR
# at loss 0.05 with seed 1 (as go-back-N's QPs do on the k=4 fat-tree at 5 %,
# some seeds, IBA 9.7.6.1.3's retry_cnt spent), every other flow in 1 ms.
FAKE_TWO_NODES = r"""#!/usr/bin/python3
print("goodput of 1 WRITE: 50.00 Gb/s (R x P/(P+82) = 98.04 Gb/s)")
print("A: packets 10, retransmitted 2, timeouts 0")
print("B: ICRC drops 1")
"""

FAKE_SIM = r"""#!/usr/bin/python3
import json, os, sys
args = dict(a[2:].split('=', 1) for a in sys.argv[1:] if '=' in a)
out = args['output.dir']
os.makedirs(out, exist_ok=True)
loss, seed = float(args['topology.errorRate']), int(args['sim.seed'])
flows = [(0, 1), (1, 5), (5, 14), (14, 0)]
fail = loss == 0.05 and seed == 1
with open(os.path.join(out, 'fct.csv'), 'w') as f:
    f.write('id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status\n')
    for i, (src, dst) in enumerate(flows):
        bad = fail and i == 2
        f.write('%d,%d,%d,WRITE,1000000,0,%d,100000,,256,%s\n' % (
            i, src, dst, 300000000 if bad else 1000000 * seed,
            'IBV_WC_RETRY_EXC_ERR' if bad else 'IBV_WC_SUCCESS'))
json.dump({'recovery': {'retransmissions': 7, 'timeouts': 3 if fail else 0},
           'drops': 5, 'flows': {'total': 4, 'completed': 3 if fail else 4,
                                 'failed': 1 if fail else 0, 'incomplete': 0}},
          open(os.path.join(out, 'summary.json'), 'w'))
"""


def fake_programs(tmp_path):
    """(rdma-two-nodes, rdma-sim) stand-ins, executable, in tmp_path."""
    paths = []
    for name, text in (('two-nodes', FAKE_TWO_NODES), ('rdma-sim', FAKE_SIM)):
        path = tmp_path / name
        path.write_text(text)
        path.chmod(0o755)
        paths.append(str(path))
    return paths


def test_flows_out_of_retries_are_a_result(tmp_path, capsys):
    """A point where some flows end IBV_WC_RETRY_EXC_ERR is written and
    printed with them, and the sweep goes on to the next point (it stopped
    with an error there before)."""
    two_nodes, sim = fake_programs(tmp_path)
    out = tmp_path / 'ls'
    sweep = load_sweep()
    rc = sweep.main(['--losses=0.05,0.06', '--out', str(out), '--two-nodes', two_nodes,
                     '--sim', sim])
    assert rc == 0
    printed = capsys.readouterr().out
    assert ('fat-tree  go-back-n p=0.05       8.00 Gb/s (bound 62.16), resent 7, timeouts 3; '
            '3 of 4 flows done, not done: 1 IBV_WC_RETRY_EXC_ERR') in printed
    rows = list(csv.DictReader(open(out / 'loss_sweep.csv')))
    fat = [r for r in rows if r['setup'] == 'fat-tree-k4']
    assert len(fat) == 4  # both losses, both recoveries: the sweep went on
    hit = [r for r in fat if r['loss'] == '0.05']
    for r in hit:
        assert (r['flows'], r['flows_failed']) == ('4', '1')
        assert r['failed_status'] == '1 IBV_WC_RETRY_EXC_ERR'
        # The mean over the 3 flows done; the bound over all 4 flows.
        assert float(r['goodput_gbps']) == pytest.approx(8.0)
        bound = 80 * (0.95 ** 2 + 3 * 0.95 ** 6) / 4  # 2 links in an edge, 6 across pods
        assert float(r['bound_gbps']) == pytest.approx(bound)
    for r in fat:
        if r['loss'] == '0.06':
            assert (r['flows_failed'], r['failed_status']) == ('0', '')
    saved = json.load(open(out / 'loss_sweep.json'))
    assert sum(r.get('flows_failed', 0) for r in saved) == 2
    assert os.path.getsize(out / 'loss_sweep.png') > 10000


def test_seeds_spread(tmp_path, capsys):
    """--seeds: every fat-tree point once per seed (a row each, its own
    folder), then the mean, smallest and largest goodput over the seeds."""
    two_nodes, sim = fake_programs(tmp_path)
    out = tmp_path / 'ls'
    sweep = load_sweep()
    assert sweep.main(['--losses=0.01', '--seeds=1,3-4', '--out', str(out),
                       '--two-nodes', two_nodes, '--sim', sim]) == 0
    printed = capsys.readouterr().out
    # Flows of 1 MB in 1, 3 and 4 ms: 8, 2.67 and 2 Gb/s.
    assert 'fat-tree  irn       p=0.01    over 3 seeds: mean 4.22 Gb/s, min 2.00, max 8.00' \
        in printed
    assert 'fat-tree  go-back-n p=0.01    seed 3      2.67 Gb/s' in printed
    rows = [r for r in csv.DictReader(open(out / 'loss_sweep.csv')) if r['setup'] != 'two-nodes']
    assert sorted((r['recovery'], r['seed']) for r in rows) == [
        (rec, s) for rec in ('go-back-n', 'irn') for s in ('1', '3', '4')]
    assert (out / 'fat-tree-irn-0.01-seed4' / 'fct.csv').exists()
    assert sweep.parse_seeds('2,1-3, 5') == [2, 1, 3, 5]


@pytest.mark.parametrize('args', [['--seeds=3-1'], ['--seeds=x'], ['--seeds=1', '--seed=2']])
def test_bad_seeds_are_refused(tmp_path, args):
    r = subprocess.run(['/usr/bin/python3', os.path.join(TOP, 'scripts', 'loss_sweep.py'),
                        '--out', str(tmp_path)] + args, capture_output=True, text=True)
    assert r.returncode == 2
    assert '--seed' in r.stderr


def test_default_rdma_sim_is_make_runs_build(tmp_path, monkeypatch):
    """Without --sim, the rdma-sim sweep.py would run (scripts/rdmasim_binary.py):
    make run's build, named in $RDMA_LTO_DIR/rdma-sim.path; --sim still wins."""
    sim = tmp_path / 'ns3.37-rdma-sim-default'
    sim.write_text('#!/bin/sh\n')
    sim.chmod(0o755)
    (tmp_path / 'rdma-sim.path').write_text('%s\n' % sim)
    monkeypatch.setenv('RDMA_LTO_DIR', str(tmp_path))
    monkeypatch.delenv('RDMA_SIM', raising=False)
    sweep = load_sweep()
    assert sweep.parse_args(['--out', str(tmp_path / 'o')]).sim == str(sim)
    assert sweep.parse_args(['--sim', '/x/rdma-sim']).sim == '/x/rdma-sim'


def test_bad_losses_are_refused(tmp_path):
    r = subprocess.run(['/usr/bin/python3', os.path.join(TOP, 'scripts', 'loss_sweep.py'),
                        '--losses=0.1,1', '--out', str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert '--losses' in r.stderr and '[0, 1)' in r.stderr


def run_sim(build_dir, tmp_path, *args):
    exe = os.path.join(build_dir, 'examples', 'rdma-sim')
    return subprocess.run([exe, '-c', os.path.join(TOP, 'examples', 'configs', 'tiny.ini'),
                           '--force', '--output.dir=%s' % (tmp_path / 'out')] + list(args),
                          capture_output=True, text=True, timeout=120)


def test_recovery_recorded_in_summary(build_dir, tmp_path):
    r = run_sim(build_dir, tmp_path, '--transport.recovery=irn', '--transport.irn.RtoLow=50us')
    assert r.returncode == 0, r.stderr
    summary = json.load(open(tmp_path / 'out' / 'summary.json'))
    assert summary['config']['transport.recovery'] == 'irn'
    assert summary['config']['transport.irn.RtoLow'] == '50us'
    assert summary['recovery']['policy'] == 'irn'
    assert summary['flows']['completed'] == summary['flows']['total'] > 0
    assert summary['recovery']['timeouts'] >= 0 and summary['recovery']['retransmissions'] >= 0


@pytest.mark.parametrize('arg,key', [
    ('--transport.recovery=sack', 'transport.recovery'),
    ('--topology.errorRate=1', 'topology.errorRate'),
    ('--topology.errorRate=-0.1', 'topology.errorRate'),
    ('--transport.irn.RtoLow=0s', 'transport.irn.RtoLow'),
    ('--transport.irn.RtoHigh=0s', 'transport.irn.RtoHigh'),
    ('--transport.irn.BdpBytes=1000', 'transport.irn.BdpBytes'),
])
def test_bad_recovery_input_exits_2(build_dir, tmp_path, arg, key):
    r = run_sim(build_dir, tmp_path, arg)
    assert r.returncode == 2, r.stdout + r.stderr
    assert key in r.stderr
    assert not (tmp_path / 'out' / 'summary.json').exists()


def test_lossy_links_need_the_icrc_check(build_dir, tmp_path):
    # Corrupted frames are only lost if the NICs check the ICRC: turning the
    # check off on a lossy fabric is refused, naming both keys.
    r = run_sim(build_dir, tmp_path, '--topology.errorRate=0.01', '--nic.VerifyIcrc=false')
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'nic.VerifyIcrc' in r.stderr and 'topology.errorRate' in r.stderr


def test_python_api_and_lossy_fabric(build_dir):
    sys.path.insert(0, os.path.join(build_dir, 'python'))
    import rdmasim
    base = {'topology.type': 'star', 'topology.hosts': 4, 'traffic.pattern': 'permutation',
            'traffic.size': 200000, 'topology.errorRate': 0.01, 'cc.algorithm': 'none'}
    gbn = rdmasim.run(base, transport__recovery='go-back-n')
    irn = rdmasim.run(base, transport__recovery='irn', **{'transport.irn.RtoLow': '80us'})
    for r, name in ((gbn, 'go-back-n'), (irn, 'irn')):
        assert r.summary['recovery']['policy'] == name
        assert r.summary['flows']['completed'] == r.summary['flows']['total'] == 4
        assert r.summary['drops'] > 0  # 1 % of frames lost on every link
    assert irn.summary['config']['transport.irn.RtoLow'] == '80us'
    # Go-back-N resends whole windows for each loss, IRN the lost packets.
    assert irn.summary['recovery']['retransmissions'] < gbn.summary['recovery']['retransmissions']
    with pytest.raises(rdmasim.ConfigError) as err:
        rdmasim.run(base, **{'transport.irn.BdpBytes': 100})
    assert 'transport.irn.BdpBytes' in str(err.value)


def test_tshark_decodes_irn_sack_naks(run_example, tmp_path):
    # IRN's SACK rides in a standard NAK: BTH PSN = the expected PSN, AETH
    # syndrome 0x60 (NAK, PSN sequence error), AETH MSN = the SACKed PSN.
    r = run_example('rdma-two-nodes', '--pcap=%s' % (tmp_path / 'sr'), '--messages=4',
                    '--loss=0.01', '--recovery=ns3::RdmaSelectiveRepeat')
    assert r.returncode == 0, r.stdout + r.stderr
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    out = subprocess.run(
        [tshark, '-r', str(tmp_path / 'sr-0-0.pcap'), '-Y', 'infiniband.aeth.syndrome == 0x60',
         '-T', 'fields', '-E', 'separator=\t', '-e', 'infiniband.bth.opcode',
         '-e', 'infiniband.bth.psn', '-e', 'infiniband.aeth.msn', '-e', '_ws.malformed'],
        capture_output=True, text=True, check=True).stdout
    naks = [line.split('\t') for line in out.splitlines()]
    assert len(naks) > 10
    for opcode, psn, msn, malformed in naks:
        assert opcode == '17' and malformed == ''  # RC ACKNOWLEDGE, well formed
        assert 0 < (int(msn) - int(psn)) % (1 << 24) < 1 << 16  # the SACK is past the gap
