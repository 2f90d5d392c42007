"""Helpers shared by test_sweep.py and the plot tests: where the scripts, the
stand-in rdma-sim and the built one are, importing a script as a module,
running sweep.py, and writing a results.csv by hand."""

import csv
import importlib
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
SCRIPTS = os.path.join(TOP, 'scripts')
#: the stand-in for rdma-sim (tests using it say so)
FAKE_SIM = os.path.join(HERE, 'fake_rdma_sim.py')


def load_script(name):
    """Import scripts/<name>.py as a module (scripts/ is not a package), the same
    module object the scripts themselves import."""
    if SCRIPTS not in sys.path:
        sys.path.insert(0, SCRIPTS)
    return importlib.import_module(name)


def real_sim_and_config():
    """The built rdma-sim and a tiny config for it, or skip saying which is missing."""
    build = os.environ.get('RDMA_BUILD_DIR', os.path.join(TOP, 'build'))
    sim = os.path.join(build, 'examples', 'rdma-sim')
    if not os.access(sim, os.X_OK):
        pytest.skip('rdma-sim is not built at %s (build it, or set RDMA_BUILD_DIR)' % sim)
    config = os.environ.get('RDMA_SIM_TINY_CONFIG', os.path.join(TOP, 'examples', 'configs', 'tiny.ini'))
    if not os.path.isfile(config):
        pytest.skip('no tiny rdma-sim config at %s (set RDMA_SIM_TINY_CONFIG)' % config)
    return sim, config


def run_sweep(*args, counter=None, timeout=120, env=None):
    """Run scripts/sweep.py in its own process; return the CompletedProcess.

    counter: the stand-in's run counter file ($FAKE_RDMA_SIM_COUNTER); env:
    variables set over this process's environment (None unsets one)."""
    extra = dict(env or {})
    if counter:
        extra['FAKE_RDMA_SIM_COUNTER'] = counter
    env = dict(os.environ)
    for name, value in extra.items():
        env.pop(name, None)
        if value is not None:
            env[name] = str(value)
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, 'sweep.py'), '--no-progress']
                          + [str(a) for a in args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def read_results(root):
    """results.csv of a sweep's output root as a list of dicts."""
    with open(os.path.join(str(root), 'results.csv'), newline='') as f:
        return list(csv.DictReader(f))


def runs_counted(counter):
    """How many rdma-sim runs the stand-in recorded in its counter file."""
    if not os.path.exists(counter):
        return 0
    with open(counter) as f:
        return len(f.read().splitlines())


def write_results(path, rows):
    """Write rows (dicts with the same keys, in results.csv's column order:
    point, parameters, seed, status, resumed, error, metrics) as a results.csv."""
    with open(str(path), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return path
