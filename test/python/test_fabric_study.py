"""scripts/fabric_study.py (doc/planes.rst, "The study"): RoCE, IRN with
spraying, trimming with NSCC and two planes, each on a permutation, an
incast and AliStorage, with nothing, a core link or a plane failing; run
small (200 kB flows, 100 us of AliStorage arrivals), its table must show
what the study is about, and its figure must be written."""

import csv
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, 'scripts', 'fabric_study.py')


def test_the_small_study(build_dir, tmp_path):
    out = tmp_path / 'out'
    r = subprocess.run([sys.executable, SCRIPT, '--sim',
                        os.path.join(build_dir, 'examples', 'rdma-sim'), '--out', str(out),
                        '--size', '200000', '--duration', '100us', '--figure',
                        str(tmp_path / 'fig')], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open(out / 'fabric-study.csv') as f:
        rows = {(x['design'], x['workload'], x['failure']): x for x in csv.DictReader(f)}
    # 4 designs x 3 workloads x (none, link), and the plane cases of the multi-plane one.
    assert len(rows) == 4 * 3 * 2 + 3, sorted(rows)
    assert all(int(x['done']) == int(x['flows']) for x in rows.values()), rows
    # RoCE's lost packets wait for go-back-N's 67 ms timer (transport.timeout 14):
    # IRN's RTO is 100 us.
    assert float(rows['RoCE', 'permutation', 'link']['last_fct_us']) > 67000
    assert float(rows['IRN + spray', 'permutation', 'link']['last_fct_us']) < 5000
    # Trimming leaves no drops where nothing fails.
    assert int(rows['trim + NSCC', 'incast', 'none']['drops']) == 0
    # A failed plane halves the receiver's NIC in the incast.
    assert float(rows['2 planes', 'incast', 'plane']['last_fct_us']) > \
        1.5 * float(rows['2 planes', 'incast', 'none']['last_fct_us'])
    assert (tmp_path / 'fig.png').stat().st_size > 10000
    assert 'RoCE' in r.stdout and 'a plane' not in r.stderr
    # Done runs are kept: a second call runs nothing and prints the same table.
    again = subprocess.run(r.args, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout == r.stdout
