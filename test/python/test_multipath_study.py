"""scripts/multipath_study.py: its argument checks, and its permutation part
in the small form (--quick: a k=4 fat tree, 200 kB flows) run through
sweep.py, whose table must show what the study is about."""

import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, 'scripts', 'multipath_study.py')


def run(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          env=env)


def test_bad_arguments(tmp_path):
    for args in (['--parts', 'alistorage,ring'], ['--k', '7'], ['--window', '0']):
        r = run('--out', str(tmp_path / 'out'), *args)
        assert r.returncode == 2 and '--parts from alistorage' in r.stderr, args
        assert not (tmp_path / 'out').exists()


def test_quick_permutation_table(build_dir, tmp_path):
    env = dict(os.environ, RDMA_SIM=os.path.join(build_dir, 'examples', 'rdma-sim'))
    r = run('--out', str(tmp_path / 'out'), '--parts', 'permutation', '--quick', env=env)
    assert r.returncode == 0, r.stderr
    rows = {}
    for line in r.stdout.splitlines():
        m = re.match(r'(Ecmp|Spray|Adaptive)\s+(go-back-n|irn|irn-window)\s+(.*)$', line)
        if m:
            mean, largest, util, resent, spurious, done, _ = m.group(3).split()
            rows[(m.group(1), m.group(2))] = (float(mean), float(largest), float(util),
                                              int(resent), int(spurious), done)
    assert len(rows) == 9
    # No frame is lost (PFC): per-packet balancers make go-back-N resend, spuriously;
    # IRN with a reorder window above the reordering resends nothing.
    for lb in ('Spray', 'Adaptive'):
        assert rows[(lb, 'go-back-n')][3] > 0 and rows[(lb, 'go-back-n')][4] > 0
        assert rows[(lb, 'irn-window')][3] == 0
        assert rows[(lb, 'irn-window')][0] < rows[(lb, 'go-back-n')][0]
    # ECMP keeps a flow on one path: nothing reordered, nothing resent, and the
    # window changes nothing
    assert rows[('Ecmp', 'go-back-n')][3] == rows[('Ecmp', 'irn')][3] == 0
    assert rows[('Ecmp', 'irn')] == rows[('Ecmp', 'irn-window')]
    # every flow done; the core carries some of the traffic
    assert all(v[5] == '16/16' and 0 < v[2] <= 1 for v in rows.values())


def test_set_reaches_every_run(build_dir, tmp_path):
    """--set KEY=VALUE (e.g. the NIC's recovery semantics against a preset)
    is in the configuration of every point the study runs."""
    import glob
    import json
    env = dict(os.environ, RDMA_SIM=os.path.join(build_dir, 'examples', 'rdma-sim'))
    r = run('--out', str(tmp_path / 'out'), '--parts', 'permutation', '--quick',
            '--set', 'cc.cnp.CnpOnNak=true', '--set', 'transport.gbn.NakInterval=4us', env=env)
    assert r.returncode == 0, r.stderr
    summaries = glob.glob(str(tmp_path / 'out' / '*' / '*' / 'summary.json'))
    assert len(summaries) == 9
    for path in summaries:
        config = json.load(open(path))['config']
        assert config['cc.cnp.CnpOnNak'] == 'true', path
        assert config['transport.gbn.NakInterval'] in ('4us', '+4us', '4000ns'), path
