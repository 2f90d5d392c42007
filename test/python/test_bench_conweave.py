"""scripts/bench_conweave.py without ConWeave's simulator: the config.txt it
writes (the one test_conweave_fidelity.py runs, which ConWeave's run.py wrote),
its pause counts, and one whole invocation with a stand-in for the simulator."""

import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_conweave  # noqa: E402
import test_conweave_fidelity as fidelity  # noqa: E402

SCRIPT = os.path.join(TOP, 'scripts', 'bench_conweave.py')

#: a stand-in run.py with the shape of ConWeave's config_template (the keys whose
#: values its main fills; the others are as written)
TEMPLATE = ('TOPOLOGY_FILE config/{topo}.txt\nFLOW_FILE config/{flow}.txt\n\n'
            'FCT_OUTPUT_FILE mix/output/{id}/{id}_out_fct.txt\n'
            'PFC_OUTPUT_FILE mix/output/{id}/{id}_out_pfc.txt\n'
            'QLEN_MON_START {qlen_mon_start}\nQLEN_MON_END {qlen_mon_end}\n'
            'SW_MONITORING_INTERVAL {sw_monitoring_interval}\n'
            'FLOWGEN_START_TIME {flowgen_start_time}\nFLOWGEN_STOP_TIME {flowgen_stop_time}\n'
            'BUFFER_SIZE {buffer_size}\nCC_MODE {cc_mode}\nLB_MODE {lb_mode}\n'
            'ENABLE_PFC {enabled_pfc}\nENABLE_IRN {enabled_irn}\n'
            'CONWEAVE_TX_EXPIRY_TIME {cwh_tx_expiry_time}\n'
            'CONWEAVE_REPLY_TIMEOUT_EXTRA {cwh_extra_reply_deadline}\n'
            'CONWEAVE_PATH_PAUSE_TIME {cwh_path_pause_time}\n'
            'CONWEAVE_EXTRA_VOQ_FLUSH_TIME {cwh_extra_voq_flush_time}\n'
            'CONWEAVE_DEFAULT_VOQ_WAITING_TIME {cwh_default_voq_waiting_time}\n'
            'EWMA_GAIN {ewma_gain}\nRATE_AI {ai}Mb/s\nRATE_HAI {hai}Mb/s\n'
            'DCTCP_RATE_AI {dctcp_ai}Mb/s\nHAS_WIN {has_win}\nVAR_WIN {var_win}\n'
            'FAST_REACT {fast_react}\nMI_THRESH {mi}\nINT_MULTI {int_multi}\n'
            'KMAX_MAP {kmax_map}\nKMIN_MAP {kmin_map}\nPMAX_MAP {pmax_map}\nLOAD {load}\n')


def stand_in_tree(tmp_path, simulator=None):
    """A tree with a stand-in run.py, topology and traffic_gen.py (and simulator)."""
    tree = tmp_path / 'conweave-ns3'
    for d in ('config', 'traffic_gen', os.path.dirname(bench_conweave.BINARY)):
        (tree / d).mkdir(parents=True, exist_ok=True)
    (tree / 'run.py').write_text('config_template = """%s"""\n' % TEMPLATE)
    (tree / 'config' / (bench_conweave.TOPO + '.txt')).write_text(fidelity.leaf_spine_128())
    (tree / 'traffic_gen' / 'traffic_gen.py').write_text('')
    binary = tree / bench_conweave.BINARY
    binary.write_text(simulator or '#!/bin/sh\nexit 1\n')
    binary.chmod(0o755)
    return tree


def test_config_as_conweave_run_py_writes_it(tmp_path):
    tree = stand_in_tree(tmp_path)
    out = tmp_path / 'theirs'
    out.mkdir()
    fields = bench_conweave.run_py_fields('fecmp', '0.005', 50, 'flows')
    path = bench_conweave.write_config(str(tree), fields, '/abs/flows.txt', str(out))
    written = dict(line.split(' ', 1) for line in open(path).read().splitlines() if line)
    # The values run.py wrote in the config.txt the fidelity test keeps.
    theirs = dict(line.split(' ', 1) for line in fidelity.CONFIG.splitlines() if line)
    for key, value in written.items():
        if key == 'TOPOLOGY_FILE':
            assert value == str(tree / 'config' / (bench_conweave.TOPO + '.txt'))
        elif key == 'FLOW_FILE':
            assert value == '/abs/flows.txt'
        elif key.endswith('_FILE'):
            assert value == str(out / ('out_' + theirs[key].split('_', 1)[1]))
        else:
            assert value == theirs[key], key
    assert written['PMAX_MAP'].startswith('6 20000000000 0 50000000000 0 100000000000 0.20')
    assert bench_conweave.run_py_fields('drill', '0.01', 50, 'f')['lb_mode'] == 2


def test_pause_counts(tmp_path):
    pfc = tmp_path / 'pfc.txt'
    pfc.write_text('2000195709 84 0 1 1\n2000195792 84 0 1 1\n2000196000 84 0 1 0\n'
                   '2000197000 130 1 3 1\n')
    assert bench_conweave.count_pauses(str(pfc)) == (3, 1)


def test_bad_arguments(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
    r = run('--conweave-tree', str(tmp_path), '--time', '0.001')
    assert r.returncode == 2 and '--time >= 0.005' in r.stderr
    r = run('--conweave-tree', str(tmp_path), '--sim', '/bin/true')
    assert r.returncode == 2 and 'no build/scratch/network-load-balance' in r.stderr
    r = run('--lb', 'fecmp,conweave', '--conweave-tree', str(tmp_path))
    assert r.returncode == 2 and '--lb conweave: expected one or more of conga, drill, fecmp' in r.stderr
    r = run('--recovery', 'pfc,none', '--conweave-tree', str(tmp_path))
    assert r.returncode == 2 and '--recovery none' in r.stderr


def test_irn_case_is_run_py_with_irn_and_no_pfc():
    # run.py --pfc 0 --irn 1 (it refuses both and neither)
    fields = bench_conweave.run_py_fields('letflow', '0.005', 50, 'f', recovery='irn')
    assert (fields['lb_mode'], fields['enabled_pfc'], fields['enabled_irn']) == (6, 0, 1)
    fields = bench_conweave.run_py_fields('drill', '0.005', 50, 'f')
    assert (fields['lb_mode'], fields['enabled_pfc'], fields['enabled_irn']) == (2, 1, 0)


def test_whole_run_with_a_stand_in_simulator(run_example, build_dir, tmp_path):
    # The stand-in writes the stored FCTs where the config says, as the simulator would.
    fake = ('#!/bin/sh\nfct=$(awk \'$1 == "FCT_OUTPUT_FILE" {print $2}\' "$1")\n'
            'pfc=$(awk \'$1 == "PFC_OUTPUT_FILE" {print $2}\' "$1")\n'
            'cp %s "$fct"\nprintf "2000000100 0 0 1 1\\n2000000200 0 0 1 0\\n" > "$pfc"\n'
            % fidelity.THEIRS)
    tree = stand_in_tree(tmp_path, fake)
    out = tmp_path / 'bench'
    r = subprocess.run([sys.executable, SCRIPT, '--conweave-tree', str(tree), '--flows',
                        fidelity.FLOWS, '--sim', os.path.join(build_dir, 'examples', 'rdma-sim'),
                        '--out', str(out), '--runs', '2'], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert '== fecmp, all flows' in r.stdout and 'flows 40 / 40' in r.stdout
    assert 'PFC pause frames ours' in r.stdout and 'theirs 1 (1 episodes: resumes)' in r.stdout
    result = json.load(open(out / 'bench-conweave.json'))
    assert len(result['walls']['ours']) == len(result['walls']['theirs']) == 2
    # Its runs went first in turn.
    assert [line.split(': ', 2)[-1] for line in r.stderr.splitlines()
            if 'run ' in line] == ["ConWeave's simulator", 'rdma-sim', 'rdma-sim',
                                   "ConWeave's simulator"]
    assert result['tables']['all flows']['worst_ratio'] < 1.25


def test_several_cases_alternate_in_one_run(build_dir, tmp_path):
    fake = ('#!/bin/sh\nfct=$(awk \'$1 == "FCT_OUTPUT_FILE" {print $2}\' "$1")\n'
            'pfc=$(awk \'$1 == "PFC_OUTPUT_FILE" {print $2}\' "$1")\n'
            'cp %s "$fct"\n: > "$pfc"\n' % fidelity.THEIRS)
    tree = stand_in_tree(tmp_path, fake)
    out = tmp_path / 'bench'
    r = subprocess.run([sys.executable, SCRIPT, '--conweave-tree', str(tree), '--flows',
                        fidelity.FLOWS, '--sim', os.path.join(build_dir, 'examples', 'rdma-sim'),
                        '--out', str(out), '--lb', 'fecmp,drill', '--recovery', 'pfc,irn'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for case, mode, pfc, irn in (('fecmp-pfc', '0', '1', '0'), ('fecmp-irn', '0', '0', '1'),
                                 ('drill-pfc', '2', '1', '0'), ('drill-irn', '2', '0', '1')):
        config = dict(line.split(' ', 1) for line in
                      (out / case / 'theirs' / 'config.txt').read_text().splitlines() if line)
        assert (config['LB_MODE'], config['ENABLE_PFC'], config['ENABLE_IRN']) == (mode, pfc, irn)
        assert (out / case / 'ours' / 'fct.txt').exists()
        assert '== %s, all flows' % case in r.stdout
    # The two simulators take turns in going first, case after case.
    assert [line.split(': ', 2)[-1] for line in r.stderr.splitlines() if 'run ' in line] == \
        ["ConWeave's simulator", 'rdma-sim', 'rdma-sim', "ConWeave's simulator"] * 2
    assert '== every case, all flows' in r.stdout  # the 40 flows start within the warm-up
    assert re.search(r'pfc, mean FCT order, ours: (fecmp|drill) < (fecmp|drill)', r.stdout)
    assert 'irn, mean FCT order, theirs: ' in r.stdout
    result = json.load(open(out / 'bench-conweave.json'))
    assert sorted(result['cases']) == ['drill-irn', 'drill-pfc', 'fecmp-irn', 'fecmp-pfc']
    assert result['cases']['drill-irn']['tables']['all flows']['flows_ours'] == 40
    # --resume: what is done is not run again (a simulator that fails now is never started)
    (tree / bench_conweave.BINARY).write_text('#!/bin/sh\nexit 1\n')
    r = subprocess.run([sys.executable, SCRIPT, '--conweave-tree', str(tree), '--flows',
                        fidelity.FLOWS, '--sim', '/bin/false', '--out', str(out), '--lb',
                        'fecmp,drill', '--recovery', 'pfc,irn', '--resume'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count('done before (--resume), not run') == 8
    assert 'drill, mean FCT order' not in r.stdout and 'pfc, mean FCT order, ours: ' in r.stdout
