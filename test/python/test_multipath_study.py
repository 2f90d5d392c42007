"""scripts/multipath_study.py: its argument checks, the link its failure
part takes down, its permutation part in the small form (--quick: a k=4 fat
tree, 200 kB flows) run through sweep.py, whose table must show what the
study is about, and the whole --quick study with its figure, whose tables
and titles must name the configuration it ran."""

import glob
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, 'scripts', 'multipath_study.py')


def run(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          env=env)


def test_bad_arguments(tmp_path):
    for args in (['--parts', 'alistorage,ring'], ['--k', '7'], ['--window', '0'],
                 ['--balancers', 'Ecmp,Hash']):
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


def test_the_failed_link_is_leaf_0_to_spine_0_of_the_fabric_run():
    """Hosts first, then leaves, then spines (nodes.csv): 128-136 on the
    configs' 128-host leaf-spine, 16-20 on --quick's 16 hosts."""
    from sweep_helpers import load_script
    ms = load_script('multipath_study')
    for sets, link in (([], (128, 136)), (ms.QUICK['alistorage'], (16, 20)),
                       (['--set', 'topology.leaves=2', '--set', 'topology.hostsPerLeaf=3'], (6, 8))):
        for _, config in ms.ALISTORAGE_CONFIGS:
            assert ms.leaf_spine_link(ms.config_values(config, sets)) == link
    assert ms.failed_link(ms.parse_args(['--out', 'x', '--quick']), ms.QUICK['alistorage']) == (16, 20)
    assert ms.failed_link(ms.parse_args(['--out', 'x', '--fail', '3-9']), []) == (3, 9)
    with pytest.raises(SystemExit):
        ms.failed_link(ms.parse_args(['--out', 'x']), ['--set', 'topology.type=fat-tree'])


def test_quick_study_end_to_end(build_dir, tmp_path, capsys, monkeypatch):
    """--quick, every part, with the figure (about 15 s on two cores): the
    failure takes down a link of the 16-host fabric (leaf 0 to spine 0,
    nodes 16-20, half-way through the 0.5 ms of arrivals); the tables and
    the figure's titles name the quick configuration, not the full study's
    (128 hosts, 2 MB); the figure draws the tables' numbers."""
    from sweep_helpers import load_script
    ms = load_script('multipath_study')
    monkeypatch.setenv('RDMA_SIM', os.path.join(build_dir, 'examples', 'rdma-sim'))
    argv = ['--out', str(tmp_path / 'out'), '--quick']
    assert ms.main(argv + ['--figure', str(tmp_path / 'fig')]) == 0
    out = capsys.readouterr().out
    titles = [line for line in out.splitlines() if line.startswith('== ')]
    assert len(titles) == 3, out
    ali, fail, perm = titles
    for t in (ali, fail):
        assert ('AliStorage2019 at 50 % of the core, 16-host leaf-spine (4 leaves, 4 spines), '
                '0.5 ms of arrivals') in t
    assert 'link leaf0-spine0 (nodes 16-20) fails at 250 \u00b5s, routes converge 1 ms later' in fail
    assert '200 kB permutation, k=4 fat tree (16 hosts)' in perm
    assert not any(w in out for w in ('128-host', '128-136', '2 MB', 'k=8'))
    assert 'multipath: wrote %s.png' % (tmp_path / 'fig') in out
    for folder in glob.glob(str(tmp_path / 'out' / 'failure-*' / '*' / 'summary.json')):
        assert json.load(open(folder))['config']['topology.failLinks'] == '16-20@250us'

    # The same study again reuses every point; its figure, drawn from it.
    done = ms.study(ms.parse_args(argv))
    capsys.readouterr()
    assert done['status'] == 0
    rows = done['results']
    assert len(rows['alistorage']) == len(rows['failure']) == 10 and len(rows['permutation']) == 9
    # the link failing costs flows a timeout or more: it shows
    assert all(rows['failure'][k]['lost'] > 0 or rows['failure'][k]['p99_us'] >= rows['alistorage'][k]['p99_us']
               for k in rows['failure'])
    fig = ms.make_figure(done)
    mean, p99, largest, util = fig.axes
    for ax in (mean, p99):
        assert ax.get_title() == 'AliStorage, 16-host leaf-spine, 0.5 ms'
        assert ax.get_yscale() == 'log' and not ax.patches  # points, no bars, on a log axis
        assert [t.get_text() for t in ax.get_xticklabels()] == ['ECMP', 'Spray', 'DRILL', 'LetFlow',
                                                                'Adaptive']
    for ax in (largest, util):
        assert ax.get_title() == '200 kB permutation, k=4 fat tree'
    gbn = next(c for c in mean.collections if c.get_label() == 'go-back-N, PFC')
    assert np.allclose(gbn.get_offsets()[:, 1], [rows['alistorage'][(lb, 'gbn+PFC')]['mean_us']
                                                 for lb in ms.BALANCERS])
    failed = next(c for c in p99.collections if c.get_label() == 'IRN, no PFC, link fails')
    assert np.allclose(failed.get_offsets()[:, 1], [rows['failure'][(lb, 'IRN')]['p99_us']
                                                    for lb in ms.BALANCERS])
    # utilisation: bars from 0 on a linear axis, in %
    assert util.get_yscale() == 'linear' and util.get_ylim()[0] == 0
    heights = [p.get_height() for p in util.patches]
    assert np.allclose(heights, [100 * rows['permutation'][(lb, rec)]['util_tier2']
                                 for rec in ('go-back-n', 'irn', 'irn-window') for lb in ms.FABRIC_BALANCERS])
    assert largest.get_yscale() == 'log' and largest.get_ylabel() == 'Largest FCT (\u00b5s)'
    # tick labels are plain numbers (50, 100, 200), not 5x10^1
    fig.canvas.draw()
    for ax in (mean, p99, largest):
        lo, hi = ax.get_ylim()
        labels = [t.get_text() for t in ax.get_yticklabels()
                  if t.get_text() and lo <= t.get_position()[1] <= hi]
        assert len(labels) >= 2 and all(t.isdigit() for t in labels), labels
