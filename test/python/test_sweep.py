"""scripts/sweep.py: grids, folders, results.csv, resuming, failures, Dask.

Most tests run the stand-in test/python/fake_rdma_sim.py (they say so), which
honours rdma-sim's command-line and output contract; test_real_rdma_sim_sweep
uses the built rdma-sim and is skipped when it is not built.
"""

import json
import shutil
import math
import os
import subprocess
import sys

import pytest

from sweep_helpers import FAKE_SIM, load_script, read_results, real_sim_and_config, run_sweep, runs_counted

sweep = load_script('sweep')
ra = load_script('rdmasim_analysis')

GRID_2X2 = ['--grid', 'traffic.load=0.3,0.5', '--grid', 'cc.algorithm=dcqcn,hpcc']
POINTS_2X2 = ['cc.algorithm=dcqcn_traffic.load=0.3', 'cc.algorithm=hpcc_traffic.load=0.3',
              'cc.algorithm=dcqcn_traffic.load=0.5', 'cc.algorithm=hpcc_traffic.load=0.5']


def check_row_against_run(row, run_dir):
    """A results.csv row carries its run's summary.json and fct.csv figures."""
    with open(os.path.join(run_dir, 'summary.json')) as f:
        s = json.load(f)
    assert int(row['pfc.pause_frames']) == s['pfc']['pause_frames']
    assert int(row['retransmissions']) == s['retransmissions']
    assert int(row['flows.completed']) == s['flows']['completed']
    assert float(row['cache.qpc.hit_rate']) == s['cache']['qpc']['hit_rate']
    assert float(row['wall_time_s']) == s['wall_time_s']
    check_buckets(row, s)
    # completed_gbps: bytes of the IBV_WC_SUCCESS rows of fct.csv x 8 / sim time
    with open(os.path.join(run_dir, 'fct.csv')) as f:
        lines = [ln.rstrip('\n').split(',') for ln in f][1:]
    done = sum(int(c[4]) for c in lines if c[10] == 'IBV_WC_SUCCESS')
    assert int(row['completed_bytes']) == done
    assert math.isclose(float(row['completed_gbps']), done * 8 / s['sim_time_s'] / 1e9, rel_tol=1e-9)


def check_buckets(row, summary):
    """A results.csv row carries its summary's FCT buckets: counts, and the
    percentiles of a bucket with flows; a bucket without flows has empty
    percentile cells, whatever summary.json wrote (null, or 0.0 once)."""
    for label, b in summary['fct_slowdown'].items():
        for name in ('p50', 'p95', 'p99'):
            cell = row['fct_slowdown.%s.%s' % (label, name)]
            assert (cell == '') if b['count'] == 0 else (float(cell) == b[name]), (label, name, cell)
        assert int(row['fct_slowdown.%s.count' % label]) == b['count']


def test_point_names_are_deterministic_and_safe():
    # sorted keys, then the seed, whatever the order the grid gives them
    assert sweep.point_name({'b.y': '2', 'a.x': '1'}, 7) == 'a.x=1_b.y=2_seed=7'
    assert sweep.point_name({'a.x': '1', 'b.y': '2'}, 7) == 'a.x=1_b.y=2_seed=7'
    # a path value is made safe, and the hash keeps two such points apart
    n1 = sweep.point_name({'topo.file': 'a/b c'}, None)
    n2 = sweep.point_name({'topo.file': 'a/b-c'}, None)
    assert '/' not in n1 and ' ' not in n1 and n1.startswith('topo.file=a-b-c_')
    assert n1 != n2
    assert len(sweep.point_name({'k.v': 'x' * 400}, 1)) <= 161
    # the product of the grid, seeds innermost
    pts = sweep.expand({'a.x': ['1', '2'], 'b.y': ['p', 'q']}, [1, 2])
    assert len(pts) == 8 and pts[0] == ({'a.x': '1', 'b.y': 'p'}, 1) and pts[1][1] == 2


def test_bad_arguments_exit_2_with_a_message(tmp_path, capsys):
    def refused(*args):
        with pytest.raises(SystemExit) as e:
            sweep.main(['-o', str(tmp_path), '--sim', FAKE_SIM] + [str(a) for a in args])
        assert e.value.code == 2
        return capsys.readouterr().err

    assert "'load=0.3': expected group.key=value" in refused('--grid', 'load=0.3')
    assert 'empty value' in refused('--grid', 'traffic.load=0.3,')
    assert 'seeds given both as --seeds and as the key sim.seed' in refused('--seeds', '1', '--grid', 'sim.seed=1,2')
    assert 'none.ini: no such file' in refused('-c', tmp_path / 'none.ini')
    bad = tmp_path / 'grid.json'
    bad.write_text('{"grid": {"traffic.load": [0.3]}, "seed": [1]}')
    assert 'grid.json: expected a JSON object with only grid, seeds and set' in refused('--grid-file', bad)
    assert os.listdir(tmp_path) == ['grid.json']  # nothing ran


def test_2x2_sweep_locally_then_resumed(tmp_path):
    """fake_rdma_sim: a 2x2 grid on local cores; a second run reruns nothing."""
    counter, checks = tmp_path / 'runs.txt', tmp_path / 'checks.txt'
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--sim', FAKE_SIM, '-j', '2', *GRID_2X2, counter=counter,
                  env={'FAKE_RDMA_SIM_CHECKS': checks})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == 'sweep: rdma-sim %s (--sim)' % FAKE_SIM
    assert 'sweep: 4 points, 4 run, 0 reused, 0 failed' in r.stdout
    assert runs_counted(counter) == 4
    assert runs_counted(checks) == 4  # one rdma-sim --check per point before any run
    rows = read_results(root)
    assert [row['point'] for row in rows] == POINTS_2X2
    assert list(rows[0])[:7] == ['point', 'traffic.load', 'cc.algorithm', 'seed', 'status', 'resumed', 'error']
    for row in rows:
        assert row['status'] == 'ok' and row['resumed'] == '0' and row['error'] == ''
        assert row['seed'] == '1'  # the stand-in's default, read back from summary.json
        run_dir = root / row['point']
        with open(run_dir / 'summary.json') as f:
            config = json.load(f)['config']
        assert (config['traffic.load'], config['cc.algorithm']) == (row['traffic.load'], row['cc.algorithm'])
        check_row_against_run(row, run_dir)

    mtimes = {p: os.stat(root / p / 'summary.json').st_mtime_ns for p in POINTS_2X2}
    r = run_sweep('-o', root, '--sim', FAKE_SIM, *GRID_2X2, counter=counter,
                  env={'FAKE_RDMA_SIM_CHECKS': checks})
    assert r.returncode == 0, r.stderr
    assert 'sweep: 4 points, 0 run, 4 reused, 0 failed' in r.stdout
    assert runs_counted(counter) == 4
    assert runs_counted(checks) == 4  # nothing to run, nothing checked
    assert mtimes == {p: os.stat(root / p / 'summary.json').st_mtime_ns for p in POINTS_2X2}
    again = read_results(root)
    assert [row['resumed'] for row in again] == ['1'] * 4
    assert [row['pfc.pause_frames'] for row in again] == [row['pfc.pause_frames'] for row in rows]

    # a point whose summary.json was cut short is run again (into its non-empty folder)
    part = root / POINTS_2X2[2] / 'summary.json'
    part.write_text(part.read_text()[:200])
    r = run_sweep('-o', root, '--sim', FAKE_SIM, *GRID_2X2, counter=counter,
                  env={'FAKE_RDMA_SIM_CHECKS': checks})
    assert 'sweep: 4 points, 1 run, 3 reused, 0 failed' in r.stdout, r.stdout + r.stderr
    assert runs_counted(counter) == 5
    assert runs_counted(checks) == 5  # the point to run, checked into its non-empty folder
    assert '--force' in (root / POINTS_2X2[2] / 'sweep-point.log').read_text()


def test_another_configuration_or_build_is_run_again_not_reused(tmp_path):
    """fake_rdma_sim: the same folders with another --set, then with a rebuilt
    rdma-sim (other bytes), are run again; only the very same point is
    reused. (A sweep once reused every old point whatever had changed: the
    many-paths study printed a table of the build before a change.)"""
    counter = tmp_path / 'runs.txt'
    root = tmp_path / 'sweep'
    sim = tmp_path / 'rdma-sim'
    shutil.copy(FAKE_SIM, sim)
    sim.chmod(0o755)
    base = ['-o', root, '--sim', sim, *GRID_2X2]
    assert run_sweep(*base, '--set', 'traffic.flows=50', counter=counter).returncode == 0
    assert runs_counted(counter) == 4
    r = run_sweep(*base, '--set', 'traffic.flows=50', counter=counter)
    assert 'sweep: 4 points, 0 run, 4 reused, 0 failed' in r.stdout, r.stdout + r.stderr
    r = run_sweep(*base, '--set', 'traffic.flows=60', counter=counter)
    assert 'sweep: 4 points, 4 run, 0 reused, 0 failed' in r.stdout, r.stdout + r.stderr
    assert runs_counted(counter) == 8
    for row in read_results(root):
        with open(root / row['point'] / 'summary.json') as f:
            assert json.load(f)['config']['traffic.flows'] == '60'
    with open(sim, 'a') as f:
        f.write('\n# rebuilt\n')
    r = run_sweep(*base, '--set', 'traffic.flows=60', counter=counter)
    assert 'sweep: 4 points, 4 run, 0 reused, 0 failed' in r.stdout, r.stdout + r.stderr
    assert runs_counted(counter) == 12


def dying_sim(tmp_path):
    """fake_rdma_sim behind a wrapper whose runs (not checks) with
    traffic.load=0.9 die after the checks: exit 3 and a line on stderr."""
    path = tmp_path / 'dying-sim'
    path.write_text('#!/bin/sh\ncase " $* " in\n  *" --check "*) ;;\n'
                    '  *" --traffic.load=0.9 "*) echo "stand-in: died at run time" >&2; exit 3;;\n'
                    'esac\nexec %s %s "$@"\n' % (sys.executable, FAKE_SIM))
    path.chmod(0o755)
    return path


def test_failing_point_is_recorded_printed_and_the_sweep_goes_on(tmp_path):
    """A stand-in whose traffic.load=0.9 runs die after passing --check: the
    other points run, each failure is printed and recorded."""
    counter, checks = tmp_path / 'runs.txt', tmp_path / 'checks.txt'
    root = tmp_path / 'sweep'
    args = ('-o', root, '--sim', dying_sim(tmp_path), '--grid', 'traffic.load=0.5,0.9', '--seeds', '3,4')
    r = run_sweep(*args, counter=counter, env={'FAKE_RDMA_SIM_CHECKS': checks})
    assert r.returncode == 1
    assert runs_counted(checks) == 2  # one per configuration, seeds aside
    assert 'sweep: 4 points, 4 run, 0 reused, 2 failed' in r.stdout
    rows = {(row['traffic.load'], row['seed']): row for row in read_results(root)}
    for seed in ('3', '4'):
        ok, bad = rows[('0.5', seed)], rows[('0.9', seed)]
        assert ok['status'] == 'ok' and ok['error'] == '' and int(ok['flows.total']) == 200
        assert bad['status'] == 'failed'
        assert bad['error'] == 'exit 3: stand-in: died at run time'
        assert bad['flows.total'] == ''
        assert 'exit: 3' in (root / bad['point'] / 'sweep-point.log').read_text()
        # on the console too, not only in results.csv
        assert 'sweep: point %s failed: exit 3: stand-in: died at run time' % bad['point'] in r.stderr
    with open(root / rows[('0.5', '4')]['point'] / 'summary.json') as f:
        assert json.load(f)['seed'] == 4
    assert runs_counted(counter) == 2  # the stand-in counts runs that got past its checks

    # a rerun retries only the failed points
    r = run_sweep(*args, counter=counter)
    assert 'sweep: 4 points, 2 run, 2 reused, 2 failed' in r.stdout


@pytest.mark.parametrize('grid, message', [
    ('traffic.load=0.5,7', "rdma-sim: command line --traffic.load: key 'traffic.load': '7' "
                           "is not a number in [0.01, 1.0]"),
    ('traffic.laod=0.3,0.5', "rdma-sim: unknown option '--traffic.laod' "
                             "(rdma-sim --help lists every option)"),
], ids=['bad-value', 'misspelled-key'])
def test_refused_configuration_stops_the_sweep_before_any_run(tmp_path, grid, message):
    """fake_rdma_sim: a value or key rdma-sim --check refuses; one check per
    configuration (seeds aside), its error printed whole, exit 2, no folder,
    no results.csv, nothing run."""
    counter, checks = tmp_path / 'runs.txt', tmp_path / 'checks.txt'
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--sim', FAKE_SIM, '--grid', grid, '--seeds', '3,4', counter=counter,
                  env={'FAKE_RDMA_SIM_CHECKS': checks})
    assert r.returncode == 2, r.stdout + r.stderr
    assert message + '\n' in r.stderr
    assert 'did not pass rdma-sim --check; nothing run, nothing written' in r.stderr
    assert not root.exists()
    assert runs_counted(counter) == 0
    assert runs_counted(checks) == (0 if 'laod' in grid else 1)  # the checks that passed


def test_missing_binary_is_refused_before_any_run(tmp_path):
    r = run_sweep('-o', tmp_path / 'sweep', '--sim', tmp_path / 'no-such-rdma-sim', '--grid',
                  'traffic.load=0.5')
    assert r.returncode == 2
    assert 'cannot run %s: No such file' % (tmp_path / 'no-such-rdma-sim') in r.stderr
    assert not (tmp_path / 'sweep').exists()


def test_grid_file_and_fixed_keys(tmp_path):
    """fake_rdma_sim: a JSON grid file with seeds and a key set for every point."""
    spec = tmp_path / 'grid.json'
    spec.write_text(json.dumps({'grid': {'traffic.qps': [4, 64]}, 'seeds': [5],
                                'set': {'nic.qpc_cache_entries': 16}}))
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--sim', FAKE_SIM, '--grid-file', spec, '--set', 'traffic.flows=50')
    assert r.returncode == 0, r.stderr
    rows = read_results(root)
    assert [row['point'] for row in rows] == ['traffic.qps=4_seed=5', 'traffic.qps=64_seed=5']
    # the stand-in's cyclic-LRU hit rate C/N, capped at 1: 16 entries over 4 and 64 QPs
    assert [float(row['cache.qpc.hit_rate']) for row in rows] == [1.0, 16 / 64]
    assert [row['flows.total'] for row in rows] == ['50', '50']


def test_2x2_sweep_on_dask_local_cluster(tmp_path):
    """fake_rdma_sim: --local-cluster 2 gives the rows a local sweep gives."""
    local, dask = tmp_path / 'local', tmp_path / 'dask'
    assert run_sweep('-o', local, '--sim', FAKE_SIM, *GRID_2X2, '--seeds', '2').returncode == 0
    r = run_sweep('-o', dask, '--sim', FAKE_SIM, *GRID_2X2, '--seeds', '2', '--local-cluster', '2')
    assert r.returncode == 0, r.stderr
    assert 'sweep: 4 points, 4 run, 0 reused, 0 failed' in r.stdout
    a, b = read_results(local), read_results(dask)
    assert [row['point'] for row in b] == [p + '_seed=2' for p in POINTS_2X2]
    for row_a, row_b in zip(a, b):
        for key in row_a:
            if key not in ('wall_time_s',):
                assert row_a[key] == row_b[key], key
    check_row_against_run(b[1], dask / b[1]['point'])


@pytest.mark.filterwarnings('ignore:make_current is deprecated:DeprecationWarning')
def test_sweep_on_dask_scheduler_with_worker_process(tmp_path):
    """fake_rdma_sim: --scheduler ADDRESS, the points run in a separate worker
    process that does not have scripts/ on its path (run_point travels by value)."""
    distributed = pytest.importorskip('distributed')
    root = tmp_path / 'sweep'
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster:
        r = run_sweep('-o', root, '--sim', FAKE_SIM, *GRID_2X2, '--scheduler', cluster.scheduler_address)
    assert r.returncode == 0, r.stderr
    rows = read_results(root)
    assert [row['point'] for row in rows] == POINTS_2X2 and {row['status'] for row in rows} == {'ok'}
    check_row_against_run(rows[3], root / rows[3]['point'])


def test_real_rdma_sim_sweep(tmp_path):
    """The built rdma-sim on a tiny config: a 2x2 sweep (load x seed), every
    row equal to its run's summary.json (a bucket without flows an empty
    cell), our numpy bucketing of fct.csv equal to rdma-sim's own per-bucket
    counts and percentiles, and a rerun that touches nothing."""
    sim, config = real_sim_and_config()
    root = tmp_path / 'sweep'
    args = ('-o', root, '--sim', sim, '-c', config, '--grid', 'traffic.load=0.3,0.6', '--seeds', '1,2',
            '--timeout', '60')
    r = run_sweep(*args)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = read_results(root)
    assert len(rows) == 4 and {row['status'] for row in rows} == {'ok'}, rows
    assert [row['fct_slowdown.10000000-inf.p99'] for row in rows] == [''] * 4  # no flow of 10 MB or more
    for row in rows:
        run_dir = root / row['point']
        summary = ra.read_summary(str(run_dir))
        assert summary['seed'] == int(row['seed'])
        assert summary['config']['traffic.load'] == row['traffic.load']
        assert int(row['pfc.pause_frames']) == summary['pfc']['pause_frames']
        assert int(row['flows.completed']) == summary['flows']['completed']
        check_buckets(row, summary)
        fct = ra.completed(ra.read_fct(str(run_dir)))
        for b in ra.bucket_percentiles(fct['size'], fct['slowdown'], ra.summary_buckets(summary)):
            theirs = summary['fct_slowdown'][b['label']]
            assert b['count'] == theirs['count'], b['label']
            for name in ('p50', 'p95', 'p99'):
                if b['count']:
                    assert math.isclose(b[name], theirs[name], rel_tol=1e-6), (b['label'], name)
    mtimes = [os.stat(root / row['point'] / 'summary.json').st_mtime_ns for row in rows]
    r = run_sweep(*args)
    assert 'sweep: 4 points, 0 run, 4 reused, 0 failed' in r.stdout
    assert mtimes == [os.stat(root / row['point'] / 'summary.json').st_mtime_ns for row in rows]


def test_real_rdma_sim_bad_key_is_refused_before_any_run(tmp_path):
    """The built rdma-sim refuses an unknown key at --check: its message in
    full, exit 2, no point folder, no results.csv."""
    sim, config = real_sim_and_config()
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--sim', sim, '-c', config, '--grid', 'traffic.no_such_key=1,2',
                  '--seeds', '1,2')
    assert r.returncode == 2, r.stdout + r.stderr
    direct = subprocess.run([sim, '-c', config, '--traffic.no_such_key=1', '--check'],
                            capture_output=True, text=True, timeout=60)
    assert direct.returncode == 2 and 'no_such_key' in direct.stderr
    assert 'sweep: 2 of 2 configurations did not pass rdma-sim --check' in r.stderr
    assert 'point traffic.no_such_key=1_seed=1:\nexit 2: ' + direct.stderr.strip() + '\n' in r.stderr
    assert not root.exists()


def test_timeout_and_missing_summary_are_failed_points(tmp_path):
    """A program whose runs (not checks) outlive --timeout, one that exits 0
    without a summary, and one whose check outlives --timeout (exit 2)."""
    slow, silent, hung = tmp_path / 'slow-sim', tmp_path / 'silent-sim', tmp_path / 'hung-sim'
    slow.write_text('#!/bin/sh\ncase "$*" in *--check*) exit 0;; esac\nexec sleep 30\n')
    silent.write_text('#!/bin/sh\necho "ran but wrote nothing" >&2\nexit 0\n')
    hung.write_text('#!/bin/sh\nexec sleep 30\n')
    for p in (slow, silent, hung):
        p.chmod(0o755)
    r = run_sweep('-o', tmp_path / 'c', '--sim', hung, '--grid', 'traffic.load=0.5', '--timeout', '0.5')
    assert r.returncode == 2 and r.stderr.endswith('traffic.load=0.5:\ntimeout after 0.5s\n'), r.stderr
    assert not (tmp_path / 'c').exists()
    r = run_sweep('-o', tmp_path / 'a', '--sim', slow, '--grid', 'traffic.load=0.5', '--timeout', '0.5')
    (row,) = read_results(tmp_path / 'a')
    assert r.returncode == 1 and row['status'] == 'failed' and row['error'] == 'timeout after 0.5s'
    r = run_sweep('-o', tmp_path / 'b', '--sim', silent, '--grid', 'traffic.load=0.5')
    (row,) = read_results(tmp_path / 'b')
    assert r.returncode == 1 and row['status'] == 'failed'
    assert row['error'].startswith('exit 0 but ') and 'summary.json: No such file' in row['error']


def lto_dir_naming(tmp_path, sim):
    """A folder laid out as make bench-lto leaves it: rdma-sim.path naming sim."""
    lto = tmp_path / 'lto'
    lto.mkdir()
    (lto / 'rdma-sim.path').write_text('%s\n' % sim)
    return lto


def test_default_binary_is_make_runs_build_when_there_is_one(tmp_path):
    """fake_rdma_sim as make run's build ($RDMA_LTO_DIR/rdma-sim.path names it):
    with no --sim and no $RDMA_SIM it runs the points, the first line says so;
    --sim still wins."""
    sim = tmp_path / 'ns3.37-rdma-sim-default'
    os.symlink(FAKE_SIM, sim)
    lto = lto_dir_naming(tmp_path, sim)
    env = {'RDMA_LTO_DIR': lto, 'RDMA_SIM': None}
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--grid', 'traffic.load=0.5', env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == "sweep: rdma-sim %s (make run's build, named in %s)" % (
        sim, lto / 'rdma-sim.path')
    (row,) = read_results(root)
    assert (root / row['point'] / 'sweep-point.log').read_text().startswith('command: %s ' % sim)
    r = run_sweep('-o', tmp_path / 'other', '--sim', FAKE_SIM, '--grid', 'traffic.load=0.5', env=env)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == 'sweep: rdma-sim %s (--sim)' % FAKE_SIM


def test_default_binary_is_make_builds_without_make_runs(tmp_path):
    """No rdma-sim.path in $RDMA_LTO_DIR: build/examples/rdma-sim of the tree
    (a key no rdma-sim has keeps the check short, and refused whether that
    program is built or not)."""
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--grid', 'traffic.no_such_key=1',
                  env={'RDMA_LTO_DIR': tmp_path, 'RDMA_SIM': None})
    debian = os.path.join(sweep.TOP, 'build', 'examples', 'rdma-sim')
    assert r.stdout.splitlines()[0] == "sweep: rdma-sim %s (make build's; no make run's build: no %s)" % (
        debian, tmp_path / 'rdma-sim.path')
    assert r.returncode == 2 and 'no_such_key' in r.stderr and not root.exists()


def test_default_binary_rule():
    """rdmasim_binary.default_sim: $RDMA_SIM, else the executable file that
    rdma-sim.path names, else build/examples/rdma-sim; $RDMA_LTO_DIR's default
    is the Makefile's LTO_DIR."""
    rb = load_script('rdmasim_binary')
    debian = os.path.join('/tree', 'build', 'examples', 'rdma-sim')
    with open(os.path.join(sweep.TOP, 'Makefile')) as f:
        assert 'LTO_DIR ?= $(or $(RDMA_LTO_DIR),%s)\n' % rb.LTO_DIR in f.read()
    assert rb.lto_dir({}) == rb.LTO_DIR and rb.lto_dir({'RDMA_LTO_DIR': '/x'}) == '/x'
    assert rb.default_sim({'RDMA_SIM': '/a/sim', 'RDMA_LTO_DIR': '/x'}, '/tree') == ('/a/sim', '$RDMA_SIM')
    assert rb.default_sim({'RDMA_LTO_DIR': '/no/such/dir'}, '/tree')[0] == debian


def test_default_binary_passes_over_a_stale_path_file(tmp_path):
    """rdma-sim.path naming a file that is gone, or one not executable: make build's."""
    rb = load_script('rdmasim_binary')
    not_exec = tmp_path / 'plain'
    not_exec.write_text('')
    for named in (tmp_path / 'gone', not_exec):
        (tmp_path / 'rdma-sim.path').write_text('%s\n' % named)
        path, why = rb.default_sim({'RDMA_LTO_DIR': str(tmp_path)}, '/tree')
        assert path == '/tree/build/examples/rdma-sim'
        assert why == "make build's; no make run's build: %s names %r, not an executable file" % (
            tmp_path / 'rdma-sim.path', str(named))


def test_real_rdma_sim_grid_over_an_unused_key_is_refused(tmp_path):
    """A grid over a key the run does not read (IRN's reorder window under
    go-back-N) would give identical points: refused before any run, exit 2,
    naming the key and rdma-sim's reason; one some points use is noted."""
    sim, config = real_sim_and_config()
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--sim', sim, '-c', config,
                  '--grid', 'transport.irn.ReorderWindow=8,64', '--seeds', '1')
    assert r.returncode == 2, r.stdout + r.stderr
    assert '--grid transport.irn.ReorderWindow: rdma-sim does not use' in r.stderr
    assert 'is not used: transport.recovery = go-back-n' in r.stderr
    assert not root.exists()
    # Used by some configurations only (under IRN, not go-back-N): noted, run.
    notes = sweep.unused_grid_keys(
        ['transport.irn.ReorderWindow', 'transport.recovery'],
        {0: {'transport.irn.reorderwindow': 'w'}, 1: {}}, ['a', 'b'])
    assert notes[0] == [] and 'not used in 1 of 2 configurations (first: point a: w)' in notes[1][0]
