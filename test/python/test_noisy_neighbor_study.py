"""The noisy-neighbour study (examples/rdma-noisy-neighbor,
scripts/noisy_neighbor_study.py, doc/nic-measurements.rst): a victim QP
beside a tenant sweeping the NIC's MTT, MPT or QPC, with the cache shared
or split in way partitions (NicCache Tenants) and QPs or tenants taking
turns at the TX arbiter (RdmaTxScheduler ByTenant)."""

import csv
import os
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPT = os.path.join(TOP, 'scripts', 'noisy_neighbor_study.py')


def bench(build_dir):
    return os.path.join(build_dir, 'examples', 'rdma-noisy-neighbor')


def run(build_dir, tmp_path, *args):
    out = tmp_path / 'nn.csv'
    r = subprocess.run([bench(build_dir), '--out=%s' % out] + list(args),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open(out) as f:
        return {(row['isolation'], int(row['attacker_entries'])): row
                for row in csv.DictReader(f)}


def test_the_victim_alone_reaches_the_roce_goodput_bound(build_dir, tmp_path):
    rows = run(build_dir, tmp_path, '--table=mtt', '--isolation=none', '--sweep=0')
    # 16 KiB WRITEs in 1 KiB packets at 100 Gb/s: each packet carries 82 bytes
    # more on the wire (Ethernet 14 + FCS 4 + preamble 8 + gap 12, IPv4 20,
    # UDP 8, BTH 12, ICRC 4) and the first a RETH (16): 16384 / (16 x 1106 +
    # 16) of the line.
    bound = 100 * 16384 / (16 * 1106 + 16)
    gbps = float(rows[('none', 0)]['victim_gbps'])
    assert abs(gbps / bound - 1) < 0.01, (gbps, bound)
    assert float(rows[('none', 0)]['victim_loss_pct']) == 0


def test_packets_are_shared_per_qp_and_partitions_keep_the_victims_entries(build_dir, tmp_path):
    rows = run(build_dir, tmp_path, '--table=mtt', '--isolation=none,cache,arbiter',
               '--sweep=0,1,2048')
    # An attacker that sweeps nothing (E = 1) on its 4 QPs: the TX arbiter
    # gives each QP a packet a turn, so the victim's QP sends a quarter of
    # the attacker's packets (1 KiB each) and nothing misses.
    one = rows[('none', 1)]
    victim_packets = float(one['victim_gbps']) * 1e9 / 8 / 1024
    assert abs(victim_packets / (float(one['attacker_writes_per_s']) / 4) - 1) < 0.05, one
    assert int(one['victim_misses']) == 0
    # Sweeping 2048 pages through the shared 1024-entry MTT cache evicts the
    # victim's 64 pages; with two partitions the victim never misses.
    assert int(rows[('none', 2048)]['victim_misses']) > 100
    assert int(rows[('cache', 2048)]['victim_misses']) == 0
    assert (int(rows[('cache', 2048)]['attacker_misses']) >
            int(rows[('none', 2048)]['attacker_misses']))
    assert float(rows[('none', 2048)]['victim_loss_pct']) > float(one['victim_loss_pct'])
    # Tenants taking turns: the victim's one QP sends as many packets as the
    # attacker's four (within 5 %).
    fair = rows[('arbiter', 1)]
    victim_packets = float(fair['victim_gbps']) * 1e9 / 8 / 1024
    assert abs(victim_packets / float(fair['attacker_writes_per_s']) - 1) < 0.05, fair


def test_many_qps_take_the_victims_share_unless_tenants_take_turns(build_dir, tmp_path):
    rows = run(build_dir, tmp_path, '--table=qpc', '--isolation=none,arbiter', '--sweep=0,1,64')
    # 64 attacker QPs without a single QPC miss leave the victim's one QP
    # under 10 % of its bandwidth: the loss is the arbiter's, not the cache's.
    assert int(rows[('none', 64)]['attacker_misses']) == 0
    assert float(rows[('none', 64)]['victim_loss_pct']) > 90
    assert float(rows[('none', 1)]['victim_loss_pct']) < 60
    # With tenants taking turns, 64 QPs take no more than one.
    assert (abs(float(rows[('arbiter', 64)]['victim_loss_pct']) -
                float(rows[('arbiter', 1)]['victim_loss_pct'])) < 5)


def test_the_study_writes_its_table_and_figure(build_dir, tmp_path):
    r = subprocess.run(['/usr/bin/python3', SCRIPT, '-o', str(tmp_path), '--bench',
                        bench(build_dir), '--tables=mtt,qpc', '--sweep=0,1,2048'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / 'study.txt').read_text()
    assert 'BlueField-3, up to 93.9 %' in text
    assert text.count('\nmtt ') == 4 and text.count('\nqpc ') == 4
    with open(tmp_path / 'noisy-neighbor.csv') as f:
        assert len(list(csv.DictReader(f))) == 2 * 4 * 3
    assert (tmp_path / 'noisy-neighbor.png').stat().st_size > 0


def test_bad_arguments_exit_2(build_dir, tmp_path):
    for args, words in ((['--table=cqc'], '--table=cqc is not mtt, mpt or qpc'),
                        (['--isolation=none,tenant'], "'tenant' is not none, cache, arbiter"),
                        (['--ways=1', '--cacheEntries=16'], '--ways is below 2'),
                        (['--sweep=0,x'], "--sweep: 'x' is not a number"),
                        (['--victimBytes=3000'], '--victimBytes must divide 256 KiB')):
        r = subprocess.run([bench(build_dir), '--out=%s' % (tmp_path / 'x.csv')] + args,
                           capture_output=True, text=True)
        assert r.returncode == 2, (args, r.stderr)
        assert words in r.stderr, (args, r.stderr)
        assert not (tmp_path / 'x.csv').exists()
    # An output it cannot write: exit 2 after the runs, no file.
    r = subprocess.run([bench(build_dir), '--out=%s' % (tmp_path / 'no' / 'x.csv'),
                        '--isolation=none', '--sweep=0'], capture_output=True, text=True)
    assert r.returncode == 2 and "cannot write --out: " in r.stderr
    r = subprocess.run(['/usr/bin/python3', SCRIPT, '-o', str(tmp_path / 'o'), '--bench',
                        bench(build_dir), '--tables=mtt,cqc'], capture_output=True, text=True)
    assert r.returncode == 2 and 'cqc is not one of mtt, mpt, qpc' in r.stderr
    assert not (tmp_path / 'o').exists()
