"""The rdmasim bindings: the same numbers as rdma-sim for the same config and
seed, errors as Python exceptions with rdma-sim's message, several runs in
one process, files written only into a named output folder (a non-empty one
only with force=True). bindings/README.md's example runs in test_install.py,
against the installed module."""

import configparser
import csv
import json
import os
import sys

import numpy as np
import pytest

from conftest import TOP

TINY = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')


@pytest.fixture(scope='module')
def rdmasim(build_dir):
    path = os.path.join(build_dir, 'python')
    if not os.path.isdir(path):
        pytest.fail('no bindings at %s (RDMA_BUILD_PYTHON)' % path)
    sys.path.insert(0, path)
    import rdmasim as module
    return module


@pytest.fixture(scope='module')
def quiet_tiny(tmp_path_factory):
    """tiny.ini without its [output] section (it names out/tiny): a run of it writes nothing."""
    ini = configparser.ConfigParser()
    ini.optionxform = str  # keys keep their case (hostRate)
    ini.read(TINY)
    assert ini.remove_section('output')
    path = tmp_path_factory.mktemp('quiet') / 'tiny.ini'
    with open(path, 'w') as f:
        ini.write(f)
    return str(path)


def test_same_numbers_as_rdma_sim(rdmasim, run_example, tmp_path, quiet_tiny):
    r = run_example('rdma-sim', '-c', TINY, '--quiet', '--output.dir=%s' % tmp_path)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(open(tmp_path / 'fct.csv')))
    res = rdmasim.run(quiet_tiny)
    f = res.flows
    assert len(f['size']) == len(rows) > 0
    assert list(f['size']) == [int(x['size']) for x in rows]
    assert list(f['fct_ns']) == [int(x['fct_ns']) for x in rows]
    assert list(f['ideal_fct_ns']) == [int(x['ideal_fct_ns']) for x in rows]
    assert list(f['op']) == [x['op'] for x in rows]
    assert list(f['status']) == [x['status'] for x in rows]
    assert np.allclose(f['slowdown'], [float(x['slowdown']) for x in rows], atol=1e-6)
    ours = json.load(open(tmp_path / 'summary.json'))
    for key in ('flows', 'events', 'link_transmissions', 'fct_slowdown', 'pfc', 'drops'):
        assert res.summary[key] == ours[key], key


def test_runs_repeat_in_one_process(rdmasim, quiet_tiny):
    a = rdmasim.run(quiet_tiny)
    b = rdmasim.run(quiet_tiny)
    c = rdmasim.run(quiet_tiny, **{'sim.seed': 2})
    assert np.array_equal(a.flows['fct_ns'], b.flows['fct_ns'])
    assert a.summary['events'] == b.summary['events']
    assert not np.array_equal(a.flows['size'], c.flows['size'][:len(a.flows['size'])]) \
        or len(a.flows['size']) != len(c.flows['size'])


def test_dict_config_and_keyword_overrides(rdmasim):
    r = rdmasim.run({'topology.type': 'star', 'topology.hosts': 3, 'traffic.cdf': 'googlerpc',
                     'traffic.duration': '100us'}, traffic__load=0.2, nic__pipeline=True)
    assert r.summary['config']['traffic.load'] == '0.2'
    assert r.summary['config']['nic.pipeline'] == 'true'
    assert r.summary['flows']['completed'] == r.summary['flows']['total'] > 0
    assert set(r.summary['cache']) == {'qpc', 'mpt', 'mtt'}


def test_a_failed_host_link_is_a_result_not_a_dead_interpreter(rdmasim):
    """Regression: a host's only link failing aborted (and took Python down);
    its flows now end IBV_WC_RETRY_EXC_ERR, the unused keys are warnings."""
    r = rdmasim.run({'topology.k': 4, 'traffic.pattern': 'permutation', 'traffic.size': 200000,
                     'topology.failLinks': '0-16@10us', 'sim.stopTime': '1s'},
                    transport__irn__ReorderWindow=64)
    assert r.summary['flows']['failed'] == 2 and r.summary['flows']['completed'] == 14
    assert any('transport.irn.ReorderWindow = 64 is not used' in w for w in r.summary['warnings'])


def test_bad_config_raises_with_rdma_sim_message(rdmasim, run_example, tmp_path, quiet_tiny):
    with pytest.raises(rdmasim.ConfigError) as err:
        rdmasim.run(quiet_tiny, **{'cc.algorithm': 'bbr'})
    assert "cc.algorithm = 'bbr': expected one of dcqcn,hpcc" in str(err.value)
    assert isinstance(err.value, ValueError)
    bad = tmp_path / 'bad.ini'
    bad.write_text('[traffic]\nlaod = 1\n')
    with pytest.raises(rdmasim.ConfigError) as err:
        rdmasim.run(str(bad))
    r = run_example('rdma-sim', '-c', str(bad))
    assert r.returncode == 2
    assert r.stderr.strip() == 'rdma-sim: ' + str(err.value)
    # The interpreter is still fine: a good run follows.
    assert rdmasim.run(quiet_tiny).summary['flows']['total'] > 0


def test_writes_nothing_without_output_dir(rdmasim, quiet_tiny, tmp_path, monkeypatch):
    """No output.dir from the INI file, the dict or a keyword: nothing is
    written, in the working folder (rdma-sim's default rdma-sim-out) or
    beside the INI file."""
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(os.path.dirname(quiet_tiny)))
    assert rdmasim.run(quiet_tiny).summary['flows']['total'] > 0
    r = rdmasim.run({'topology.type': 'star', 'topology.hosts': 3, 'traffic.cdf': 'googlerpc',
                     'traffic.duration': '100us'})
    assert r.summary['flows']['completed'] > 0
    assert os.listdir(tmp_path) == []
    assert sorted(os.listdir(os.path.dirname(quiet_tiny))) == before


def test_non_empty_output_dir_needs_force(rdmasim, tmp_path):
    """As rdma-sim without --force: an output.dir that is not empty is refused
    before anything runs and left as it was; force=True writes into it."""
    out = tmp_path / 'out'
    out.mkdir()
    (out / 'mine.txt').write_text('kept')
    with pytest.raises(rdmasim.ConfigError) as err:
        rdmasim.run(TINY, output__dir=str(out))
    assert str(err.value) == ('keyword output.dir: output.dir = %s is not empty '
                              '(use force=True to write into it)' % out)
    assert os.listdir(out) == ['mine.txt']
    r = rdmasim.run(TINY, output__dir=str(out), force=True)
    assert {'mine.txt', 'fct.csv', 'summary.json'} <= set(os.listdir(out))
    with open(out / 'summary.json') as f:
        assert json.load(f)['flows'] == r.summary['flows']
    # an empty folder, or one not there yet, needs no force
    fresh = tmp_path / 'fresh' / 'run'
    rdmasim.run(TINY, output__dir=str(fresh))
    assert (fresh / 'fct.csv').exists()
