"""ns3-module/pgo-train.sh and check-compat.sh's RDMA_COMPAT_PGO: the
training runs of make run's profile-guided build (doc/benchmarks.rst, "The
commands"), driven here with a stand-in for the instrumented rdma-sim that
records its arguments and writes a .gcda file as GCC's instrumentation
does at exit."""

import os
import re
import subprocess
import sys

from conftest import TOP

SCRIPT = os.path.join(TOP, 'ns3-module', 'pgo-train.sh')
CHECK_COMPAT = os.path.join(TOP, 'ns3-module', 'check-compat.sh')


def training():
    """The configurations the script runs, from its TRAINING array."""
    text = open(SCRIPT).read()
    (body,) = re.findall(r'TRAINING=\(([^)]*)\)', text)
    return body.split()


def bench_configs():
    """The configurations the benchmark scripts run (bench.py's defaults,
    bench_fastforward.py's cases, the full ones too)."""
    sys.path.insert(0, os.path.join(TOP, 'scripts'))
    import bench
    import bench_fastforward
    paths = list(bench.DEFAULT_CONFIGS)
    paths += [config for config, _ in bench_fastforward.CASES.values()]
    paths += [config for config, _ in bench_fastforward.FULL.values()]
    return {os.path.basename(p)[:-len('.ini')] for p in paths}


def stand_in(tmp_path, cache, fail=None):
    """An executable that logs its arguments to calls.txt, writes a .gcda
    under `cache` (one per run, as if each object were counted) and exits
    1 when its -c names `fail`."""
    sim = tmp_path / 'sim'
    sim.write_text(
        '#!/bin/bash\n'
        'echo "$@" >> %s/calls.txt\n'
        'case "$2" in */%s.ini) echo "a run failed here"; exit 1 ;; esac\n'
        'touch %s/obj.$RANDOM$RANDOM.gcda\n' % (tmp_path, fail or 'none', cache))
    sim.chmod(0o755)
    return sim


def run(sim, cache):
    return subprocess.run(['bash', SCRIPT, str(sim), str(cache)], capture_output=True,
                          text=True, timeout=60)


def test_every_training_config_is_shipped_and_none_is_a_benchmark_case():
    names = training()
    assert len(names) >= 8
    for name in names:
        assert os.path.isfile(os.path.join(TOP, 'examples', 'configs', name + '.ini')), name
    assert not set(names) & bench_configs()


def test_runs_each_config_once_after_removing_the_old_counts(tmp_path):
    cache = tmp_path / 'cmake-cache'
    (cache / 'sub').mkdir(parents=True)
    old = cache / 'sub' / 'stale.gcda'
    old.write_text('counts of an earlier training')
    r = run(stand_in(tmp_path, cache), cache)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not old.exists()  # GCC adds to counts: the old ones would weigh twice
    calls = (tmp_path / 'calls.txt').read_text().splitlines()
    assert [re.search(r'configs/(\S+)\.ini', c).group(1) for c in calls] == training()
    assert all('--force' in c and '--quiet' in c for c in calls)
    # Each run into its own folder of one temporary folder, gone at the end.
    dirs = [re.search(r'--output\.dir=(\S+)', c).group(1) for c in calls]
    assert len(set(dirs)) == len(dirs)
    assert not os.path.exists(os.path.dirname(dirs[0]))
    assert '%d runs, %d profile files' % (len(calls), len(calls)) in r.stdout


def test_a_failed_run_fails_the_training_and_shows_its_output(tmp_path):
    cache = tmp_path / 'cmake-cache'
    cache.mkdir()
    r = run(stand_in(tmp_path, cache, fail=training()[2]), cache)
    assert r.returncode == 1
    assert training()[2] + '.ini failed' in r.stderr
    assert 'a run failed here' in r.stderr
    assert len((tmp_path / 'calls.txt').read_text().splitlines()) == 3  # stopped there


def test_runs_that_write_no_profile_are_an_error(tmp_path):
    cache = tmp_path / 'cmake-cache'
    cache.mkdir()
    plain = tmp_path / 'plain'
    plain.write_text('#!/bin/sh\nexit 0\n')
    plain.chmod(0o755)
    r = run(plain, cache)
    assert r.returncode == 1
    assert 'no .gcda file' in r.stderr


def test_usage_errors_exit_2(tmp_path):
    r = subprocess.run(['bash', SCRIPT], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and 'usage: pgo-train.sh' in r.stderr
    r = run(tmp_path / 'missing', tmp_path)
    assert r.returncode == 2


def test_check_compat_refuses_a_bad_pgo_setting_before_doing_anything(tmp_path):
    env = dict(os.environ, RDMA_COMPAT_DIR=str(tmp_path / 'cache'))
    for pgo, lto, why in (('2', '1', 'expected 0, 1 or retrain'),
                          ('1', '0', 'needs RDMA_COMPAT_LTO=1')):
        env.update(RDMA_COMPAT_PGO=pgo, RDMA_COMPAT_LTO=lto)
        r = subprocess.run(['bash', CHECK_COMPAT, '--build-only'], env=env,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r.stdout + r.stderr
        assert why in r.stderr
        assert not (tmp_path / 'cache').exists()
