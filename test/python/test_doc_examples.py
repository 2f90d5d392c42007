"""Every shell example of README.md and doc/*.rst runs as written.

What counts as an example is doc_examples.py's rule (sh blocks, the lines
of rst literal blocks and the inline code that start with one of the tree's
programs and have arguments). Each
one runs with its text unchanged, in document order, in one fresh folder W
that holds the tree's examples/, data/, scripts/, test/ and ns3-module/ and
a link build -> $RDMA_BUILD_DIR: "build/examples/rdma-sim -c
examples/configs/tiny.ini" is the build's program on the tree's file, and
every out/ and fig/ an example writes lands in W. A bare example name
(rdma-fat-tree) is build/examples/NAME. $RDMA_LTO_DIR is W, which holds no
rdma-sim.path, so a script that picks its rdma-sim (sweep.py) picks the
build's too, not a `make run` build of whatever tree made it last. An
example passes if it exits 0.

Four kinds are not run as written, each in a table below that the test
keeps current (an entry whose text no document holds any more fails):

* make commands run as "make -n" in the tree: each installs packages,
  builds, tests or benchmarks for minutes; the dry run checks that the
  target and its variables exist and its recipe expands.
* LONG: examples that take more than a few seconds (a study's point, a
  sweep, a benchmark). Each is checked in the form its entry names:
  rdma-sim with --check appended (every check a run makes: keys, values,
  files, the workload drawn, the output folder; nothing run), a Python
  script's own argument parsing and checks (its parse_args, or its parser),
  a shell script's syntax (bash -n) and the options it handles, a TestSuite
  the runner lists.
* TEMPLATES: examples with placeholders (SIDE, OUT_DIR, <checkout>); each is
  run, or checked as LONG says, in the instances listed.
* REFUSED: examples a document shows being refused (its literal block
  holds the message); each must exit with the status listed, print the
  message's first words and write no output folder.

The guards: a --group.key any document names must be a key rdma-sim lists
(README once named --cc.dcqcn.Rai); a bogus key must make an example fail
through the same runner; the extraction must find the examples it is known
to find, in sh blocks, literal blocks and inline code. The C++ fragments of
doc/rdma.rst's Usage section use variables the text describes, so they are
not compiled: every type, member and attribute name they use must be
declared by the module's or ns-3's headers.
The whole file takes about a minute on two cores.
"""

import argparse
import inspect
import os
import re
import runpy
import shlex
import subprocess
import sys

import pytest

from conftest import TOP
import doc_examples as de

TIMEOUT = 120

#: Scripts that build ns-3 from source: an example naming one must be in LONG.
BUILDS_NS3 = {'check-compat.sh'}

#: Examples that take long, with why and the check run instead:
#: 'check' = rdma-sim ... --check; 'parse' = the script's argument checks;
#: 'shell' = bash -n and the options in the script; 'suite' = the runner lists it.
LONG = {
    'build/examples/rdma-sim -c examples/configs/slow-receiver.ini':
        ('the slow-receiver study point, ~4 s', 'check'),
    'build/examples/rdma-sim -c examples/configs/slow-receiver.ini '
    '--cache.mtt.PageBytes=2097152 --output.dir=out/slow-receiver-2m':
        ('the slow-receiver study point, ~4 s', 'check'),
    'scripts/slow_receiver.py -o out/slow-receiver-sweep --page 4096,2097152 '
    '--entries 2048,16384 --footprint 64MiB,256MiB,1GiB':
        ('12 study points, ~50 s', 'parse'),
    'scripts/loss_sweep.py --out out/loss-sweep':
        ('7 loss rates x 2 recoveries x 2 set-ups, minutes', 'parse'),
    'scripts/bench.py --runs 3':
        ('the benchmark: needs make bench\'s LTO build, minutes', 'parse'),
    'scripts/bench_fastforward.py --runs 3':
        ('each case on and off three times, minutes', 'parse'),
    'build/examples/rdma-sim -c examples/configs/collective-gpt7b-rail.ini '
    '--topology.rail.Servers=16 '
    '--job.workload=data/aicb/G13B-M1-C01_GPT13B_megatron_tp8_pp1_mbs1_A100.txt '
    '--job.ranks=128 --job.workloadCommScale=1 --sim.stopTime=10s --sim.fastForward=on '
    '--output.dir=out/gpt13b-fast':
        ('AICB\'s GPT-13B on 128 GPUs, an iteration, ~2 min', 'check'),
    'RDMA_COMPAT_LTO=1 RDMA_COMPAT_PGO=1 ns3-module/check-compat.sh --build-only':
        ('builds ns-3 from source twice, ~25 min', 'shell'),
    'build/test/rdma-test-runner --suite=rdma-cc-network --verbose':
        ('a system TestSuite that CTest runs already', 'suite'),
}
LONG['scripts/launch_mpi.py -n 64 --mem-per-rank 6GiB --sbatch run.sbatch --nodes 4 '
     '--time 02:00:00 -- -c examples/configs/fat-tree-k8-permutation.ini --topology.k=32 '
     '--sim.partition=parts.txt --output.dir=/shared/out/k32'] = (
    'a cluster\'s launch: needs the MPI build and a partition file of the user\'s', 'parse')
LONG['scripts/launch_mpi.py -n 2 -- -c examples/configs/fat-tree-k8-permutation.ini '
     '--output.dir=out/k8-on-2'] = (
    'mpirun with the MPI build: test_mpi_launch.py runs it', 'parse')
LONG['rdma-sim -c examples/configs/hpcc-fat-ws-dcqcn.ini --cc.preset=nvidia '
     '--traffic.flowFile=data/flows/ws_fat_l30_t0.005.txt'] = (
    'the 5 ms HPCC file with the nvidia preset, ~2 min', 'check')
LONG['rdma-sim -c examples/configs/collective-ring.ini --topology.k=8 --job.ranks=128 '
     '--cc.algorithm=hpcc --transport.recovery=irn --transport.irn.ReorderWindow=64 '
     '--switch.LoadBalancing=Spray --output.dir=out/hpcc-ring-spray'] = (
    'HPCC\'s k=8 ring all-reduce under spraying, ~2 min', 'check')
_SWEEP = ('scripts/sweep.py -c examples/configs/tiny.ini -o out/sweep --grid traffic.load=0.3,0.5 '
          '--grid cc.algorithm=dcqcn,hpcc --seeds 1,2')
LONG[_SWEEP + ' --scheduler tcp://host:8786'] = ('needs a Dask scheduler at host:8786', 'parse')

# doc/planes.rst, "The study"
LONG['scripts/fabric_study.py --out out/fabric-study --figure doc/figures/fabric-study'] = (
    '27 runs on a k=4 fat tree, ~25 s (test_fabric_study runs it small)', 'parse')

# doc/rdma.rst, "Collectives on an oversubscribed fabric" and "Collectives at scale"
LONG['scripts/collective_study.py -o out/collective-study --figure doc/figures/collective-study'] = (
    'ten runs of 128 ranks on a k=8 fat-tree, an hour here', 'parse')
LONG['scripts/collective_study.py -o out/collective-study'] = (
    'the same study, README', 'parse')
LONG['scripts/collective_study.py -o out/collective-study-256 --set collective.bytes=256MiB '
     '--set sim.stopTime=2s'] = ('the same study at 256 MiB, hours here', 'parse')
# doc/rdma.rst, "Collectives and jobs": storage beside training
LONG['scripts/background_study.py -o out/background-study --figure doc/figures/background-study'] = (
    '30 runs of 32 ranks and up to 60,000 flows, ~5 min (test_background_study runs it small)',
    'parse')
LONG['scripts/background_study.py -o out/background-study'] = ('the same study, README', 'parse')
LONG['build/examples/rdma-sim --topology.type=fat-tree --topology.k=16 --traffic.pattern=collective '
     '--collective.bytes=2MiB --cc.algorithm=none --transport.pathMtu=4096 '
     '--output.qlenInterval=0s --output.dir=out/scale/allreduce-1024'] = (
    'a 1,024-rank all-reduce, minutes', 'check')
LONG['build/examples/rdma-sim -c examples/configs/fat-tree-k8-permutation.ini --topology.k=16 '
     '--cc.algorithm=none --transport.pathMtu=4096 --output.dir=out/scale/permutation-k16'] = (
    'the 1,024-host permutation, minutes', 'check')

#: Examples with placeholders -> the instances run (or checked, if LONG has them).
TEMPLATES = {
    'scripts/compare_hpcc.py OURS_DIR THEIRS_FCT_TXT':
        ['scripts/compare_hpcc.py out/rdma-sim test/data/hpcc-sim/fct-hpcc.txt'],
    'make bench-peers HPCC_SRC=<checkout of the simulator>':
        ['make bench-peers HPCC_SRC=/path/to/High-Precision-Congestion-Control'],
    'make bench-peers HPCC_SRC=<checkout>':
        ['make bench-peers HPCC_SRC=/path/to/High-Precision-Congestion-Control'],
    'ns3-module/install-into-ns3.sh <ns-3 dir>':
        ['ns3-module/install-into-ns3.sh /path/to/ns-3'],
    'build/examples/rdma-sim -c examples/configs/irn-vs-roce-SIDE.ini --traffic.load=L '
    '--cc.algorithm=CC':
        ['build/examples/rdma-sim -c examples/configs/irn-vs-roce-%s.ini --traffic.load=%s '
         '--cc.algorithm=%s' % (side, load, cc)
         for side in ('roce', 'irn') for load, cc in (('0.5', 'dcqcn'), ('0.7', 'none'))],
}
for _side in ('roce', 'irn'):
    for _load, _cc in (('0.5', 'dcqcn'), ('0.7', 'none')):
        LONG['build/examples/rdma-sim -c examples/configs/irn-vs-roce-%s.ini --traffic.load=%s '
             '--cc.algorithm=%s' % (_side, _load, _cc)] = ('a k=4 fat-tree study point', 'check')
LONG['build/examples/rdma-sim -c examples/configs/collective-gpt7b-rail.ini '
     '--job.workloadCommScale=1 --sim.stopTime=150ms --output.dir=out/gpt7b-rail-1'] = (
    'one GPT-7B iteration at full size: 25 minutes', 'check')
LONG['build/examples/rdma-sim -c examples/configs/collective-gpt7b-rail.ini'] = (
    'SimAI\'s GPT-7B on 64 GPUs at 1/1024 of its bytes, ~15 s', 'check')
for _scale, _tag, _wall in (('0.015625', '64', '~80 s'), ('0.0625', '16', '~6 min')):
    LONG['build/examples/rdma-sim -c examples/configs/collective-gpt7b-rail.ini '
         '--job.workloadCommScale=%s --output.dir=out/gpt7b-rail-%s' % (_scale, _tag)] = (
        'SimAI\'s GPT-7B on 64 GPUs at 1/%s of its bytes, %s' % (_tag, _wall), 'check')
LONG['ns3-module/install-into-ns3.sh /path/to/ns-3'] = (
    'needs an ns-3 source tree (test_install_into_ns3.py installs into one)', 'shell')
# doc/rdma.rst, "Side by side with the HPCC simulator": its literal blocks
_HPCC_SIDE = 'build/examples/rdma-sim -c examples/configs/hpcc-fat-ws-%s.ini --cc.preset=hpcc-sim '
for _tail in ('dcqcn --output.dir=out/dcqcn-deq',
              'dcqcn --switch.EcnAtDequeue=false --output.dir=out/dcqcn-enq',
              'hpcc --output.dir=out/hpcc'):
    _cc, _, _options = _tail.partition(' ')
    LONG[_HPCC_SIDE % _cc + _options] = ('the 1 ms WebSearch file on 320 hosts, ~15 s', 'check')
LONG[_HPCC_SIDE % 'dcqcn' + '--traffic.flowFile=data/flows/ws_fat_l30_t0.005.txt --sim.seed=2 '
     '--output.dir=out/dcqcn-5ms-s2'] = ('the 5 ms WebSearch file on 320 hosts, minutes', 'check')
# README, "A first study": the sweep runs nine default experiments; the plot
# reads the results.csv the sweep would write.
LONG['scripts/sweep.py -o out/cc --set traffic.load=0.5 --grid cc.algorithm=dcqcn,hpcc,none '
     '--seeds 1,2,3'] = ('nine runs of the default experiment, ~20 s of CPU', 'parse')
LONG['scripts/plot_fct.py -o fig/cc out/cc/results.csv --group-by cc.algorithm '
     '--label cc.algorithm=dcqcn=DCQCN --label cc.algorithm=hpcc=HPCC'] = (
    'reads the sweep above, which is checked, not run', 'parse')
# doc/rdma.rst, the figures of the HPCC experiments and of load balancing
LONG['scripts/plot_fct.py -o fig/hpcc-websearch out/hpcc out/dcqcn-deq --label hpcc=HPCC '
     '--label dcqcn-deq=DCQCN'] = ('reads two 320-host runs, which are checked, not run', 'parse')
LONG['scripts/sweep.py -c examples/configs/fat-tree-k8-permutation.ini -o out/lb '
     '--set topology.k=4 --grid switch.LoadBalancing=Ecmp,Spray,Drill,LetFlow,Adaptive '
     '--grid transport.recovery=go-back-n,irn'] = ('ten k=4 permutations, a minute of CPU', 'parse')
LONG['scripts/plot_metric.py -o fig/load-balancing out/lb/results.csv --x switch.LoadBalancing '
     '--metric completed_gbps --label transport.recovery=go-back-n=go-back-N '
     '--label transport.recovery=irn=IRN'] = ('reads the sweep above, which is checked, not run',
                                             'parse')
# doc/mpi.rst: the MPI build and its benchmark's cases
LONG['RDMA_COMPAT_MPI=1 ns3-module/check-compat.sh --build-only'] = (
    'builds ns-3 from source with MPI, ~27 min', 'shell')
LONG['scripts/bench_mpi.py --sim $SIM --cases hpcc-5ms'] = (
    'needs make mpi\'s build: minutes', 'parse')
LONG['scripts/bench_mpi.py --sim $SIM --ranks 2 --cases k16-permutation'] = (
    'needs make mpi\'s build: minutes', 'parse')
LONG['scripts/bench_mpi.py --sim $SIM --ranks 2 --cases k8-allreduce'] = (
    'needs make mpi\'s build: minutes', 'parse')
LONG['scripts/memory_costs.py --sim build/examples/rdma-sim --fit --large'] = (
    'builds ten fabrics up to k=32 (about 3 GiB), minutes', 'parse')
# out/dcqcn-deq is what a LONG run above would write; the stored hand-made
# pair of test_compare_hpcc.py (an rdma-sim folder, the simulator's fct.txt
# and pfc.txt) stands for both sides.
TEMPLATES['scripts/compare_hpcc.py out/dcqcn-deq THEIR_DCQCN/fct.txt '
          '--theirs-pfc THEIR_DCQCN/pfc.txt'] = [
    'scripts/compare_hpcc.py test/data/hpcc-compare/ours test/data/hpcc-compare/theirs-fct.txt '
    '--theirs-pfc test/data/hpcc-compare/theirs-pfc.txt']

# doc/rdma.rst, "Side by side with ConWeave's simulator": the files make
# doc/rdma.rst, "The many-paths study", and doc/benchmarks.rst, "Load balancers"
LONG['scripts/multipath_study.py --out out/multipath --parts permutation --k16-points'] = (
    'nine 128-host and three 1,024-host permutation points, tens of minutes', 'parse')
LONG['scripts/multipath_study.py --out out/multipath --parts alistorage,failure,permutation '
     '--duration 1ms --fail-at 500us --fail-balancers Ecmp,Spray,Adaptive --figure doc/figures/multipath'] = (
    'sixteen 128-host AliStorage points and nine permutations, tens of minutes', 'parse')
LONG['scripts/multipath_study.py --out out/multipath'] = (
    'the whole study at the configs\' sizes, hours on two cores', 'parse')
# doc/trimming.rst, "Side by side with UEC's simulator": it needs htsim_uec built
LONG['scripts/bench_uec.py --htsim-uec PATH/htsim/sim/datacenter/htsim_uec --plan sender --cases '
     'single,bidir,incast16,incast128,incast1024,incast3-1,outcast-incast,perm16,perm16-inc,'
     'perm16-1path,perm1024,perm1024-inc,perm1024-1path,oversub4,oversub8'] = (
    "needs UEC's htsim_uec built from a uet-htsim checkout; minutes", 'parse')
# doc/trimming.rst, single-path cases over 30 placements each
LONG['scripts/bench_uec.py --htsim-uec PATH/htsim/sim/datacenter/htsim_uec --plan rcv --cases '
     'perm16-1path --seeds 30'] = (
    "needs UEC's htsim_uec built from a uet-htsim checkout; seconds", 'parse')
# doc/trimming.rst, the same timed with make run's build (LTO_RDMA_SIM: its rdma-sim)
LONG['scripts/bench_uec.py --htsim-uec PATH/htsim/sim/datacenter/htsim_uec --sim LTO_RDMA_SIM '
     '--plan sender --runs 3 --cases single,bidir,incast16,incast128,incast1024,incast3-1,'
     'outcast-incast,perm16,perm16-inc,perm16-1path,perm1024,perm1024-inc,perm1024-1path,'
     'oversub4,oversub8'] = (
    "needs UEC's htsim_uec built from a uet-htsim checkout and make run's build; ten minutes",
    'parse')
# doc/trimming.rst, instructions counted under callgrind (make run's build)
LONG['scripts/bench_uec.py --htsim-uec PATH/htsim/sim/datacenter/htsim_uec --sim LTO_RDMA_SIM '
     '--instructions --cases single,bidir,incast16,incast3-1,outcast-incast,perm16,perm16-inc,'
     'perm16-1path'] = (
    "needs UEC's htsim_uec built from a uet-htsim checkout and make run's build; minutes",
    'parse')
# doc/planes.rst, "Beside UEC's simulator": htsim_uec built with its planes assert removed
LONG['scripts/bench_uec.py --htsim-uec PATH/htsim/sim/datacenter/htsim_uec --cases perm16,'
     'perm16-2planes'] = ("needs UEC's htsim_uec built from a uet-htsim checkout", 'parse')
# doc/rdma.rst, ConWeave's other balancers: they need its simulator built
LONG['scripts/bench_conweave.py --conweave-tree /var/tmp/peer-conweave --lb fecmp,letflow,drill,'
     'conga --recovery pfc,irn --time 0.005 --resume --out out/bench-conweave-lbs'] = (
    "needs ConWeave's simulator built and its outputs kept; a minute or two a case", 'parse')
LONG['scripts/multipath_study.py --out out/multipath-iba --parts alistorage --duration 1ms '
     '--set transport.timeout=14 --set transport.gbn.NakInterval=0s --set cc.cnp.CnpOnNak=false '
     '--set transport.irn.RecoverAll=false --set switch.lb.ControlByHash=false '
     '--set switch.drill.MemoryPerDestination=false --set transport.irn.RtoLow=100us '
     '--set transport.irn.RtoHigh=320us'] = ('ten 128-host AliStorage points, minutes', 'parse')
# bench-conweave writes stand for the stored ones of test_conweave_fidelity.py
TEMPLATES['build/examples/rdma-sim --hpcc.config=out/bench-conweave/theirs/config.txt '
          '--cc.preset=hpcc-sim --output.dir=out/cw-before'] = [
    'build/examples/rdma-sim --hpcc.config=test/data/conweave-sim/config.txt '
    '--cc.preset=hpcc-sim --output.dir=out/cw-before']
TEMPLATES['scripts/compare_hpcc.py out/cw-before out/bench-conweave/theirs/out_fct.txt'] = [
    'scripts/compare_hpcc.py out/cw-before test/data/conweave-sim/fct-fecmp.txt']
TEMPLATES['make bench-conweave CONWEAVE_SRC=CW CONWEAVE_TIME=0.01'] = [
    'make bench-conweave CONWEAVE_SRC=/path/to/conweave-ns3 CONWEAVE_TIME=0.01']
# doc/rdma.rst, every balancer: a case's config with a variant of the preset
TEMPLATES['build/examples/rdma-sim --hpcc.config=out/bench-conweave/theirs/config.txt '
          '--switch.drill.MemoryPerDestination=false --output.dir=out/cw-drill-group'] = [
    'build/examples/rdma-sim --hpcc.config=test/data/conweave-sim/config.txt '
    '--switch.drill.MemoryPerDestination=false --output.dir=out/cw-drill-group']
TEMPLATES['scripts/compare_hpcc.py out/cw-drill-group out/bench-conweave/theirs/out_fct.txt'] = [
    'scripts/compare_hpcc.py out/cw-drill-group test/data/conweave-sim/fct-fecmp.txt']

#: Examples a document shows being refused -> (exit status, the first words
#: of the message the document shows); the run must end so and write no
#: output folder.
REFUSED = {
    'rdma-sim --topology.k=32 --traffic.pattern=permutation --traffic.size=1000 '
    '--sim.stopTime=1us --sim.maxMemory=100MB --output.dir=out/k32':
        (2, 'rdma-sim: sim.maxMemory: this fabric alone needs about'),
    'rdma-sim --traffic.pattern=collective --topology.type=rail '
    '--topology.rail.Servers=1152 --topology.rail.GpusPerServer=8 '
    '--pfc.BufferSize=1GiB --job.workload=data/simai/workload_analytical.txt '
    '--sim.maxMemory=20GiB --output.dir=out/simai-9216':
        (2, 'rdma-sim: sim.maxMemory: data/simai/workload_analytical.txt:8: REDUCESCATTER_DP_EP'),
}

#: what the workspace links to in the tree
_LINKED = ('examples', 'data', 'scripts', 'test', 'ns3-module', 'doc')


@pytest.fixture(scope='module')
def workspace(build_dir, tmp_path_factory):
    """W: a fresh folder with build -> the build and the tree's folders."""
    w = tmp_path_factory.mktemp('doc-examples')
    os.symlink(build_dir, w / 'build')
    for name in _LINKED:
        os.symlink(os.path.join(TOP, name), w / name)
    return w


def instances(example):
    """The commands that stand for one example (itself, or a template's)."""
    return TEMPLATES.get(example.text, [example.text])


def env_and_argv(text):
    """(environment, argv) of a command as a document writes it: leading
    VAR=value words go into the environment, a bare example name (rdma-sim)
    is build/examples/NAME."""
    words = shlex.split(text)
    env = dict(os.environ)
    while words and re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', words[0]):
        name, _, value = words.pop(0).partition('=')
        env[name] = value
    if words and words[0] in de.EXAMPLE_PROGRAMS:
        words[0] = os.path.join('build', 'examples', words[0])
    return env, words


def _parse_python(argv, cwd):
    """A script's own argument checks: its parse_args(argv) if it has one,
    else its build_parser().parse_args(argv) (the plot scripts), else its
    main(argv) (main() with sys.argv = argv, if main takes no arguments)
    with ArgumentParser.parse_args stopping after the parse. Returns '' or
    the error."""
    script = os.path.join(cwd, argv[0])

    class Parsed(Exception):
        pass

    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        original(self, args, namespace)
        raise Parsed()

    old_cwd, old_path, old_argv = os.getcwd(), list(sys.path), sys.argv
    os.chdir(cwd)
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(script))
    try:
        module = runpy.run_path(script, run_name='doc_example')
        if 'parse_args' in module:
            module['parse_args'](argv[1:])
            return ''
        if 'build_parser' in module:
            module['build_parser']().parse_args(argv[1:])
            return ''
        argparse.ArgumentParser.parse_args = parse_then_stop
        main = module['main']
        main(*([argv[1:]] if inspect.signature(main).parameters else []))
        return 'main() returned without parsing its arguments'
    except Parsed:
        return ''
    except SystemExit as e:
        return 'argument error (exit %s)' % e.code
    finally:
        argparse.ArgumentParser.parse_args = original
        os.chdir(old_cwd)
        sys.path[:] = old_path
        sys.argv = old_argv


def _check_shell(argv, cwd):
    """bash -n on the script, and every option of the example in its text."""
    script = os.path.join(cwd, argv[0])
    r = subprocess.run(['bash', '-n', script], capture_output=True, text=True)
    if r.returncode != 0:
        return 'bash -n: ' + r.stderr
    with open(script) as f:
        text = f.read()
    missing = [a for a in argv[1:] if a.startswith('-') and a not in text]
    return 'options not handled by %s: %s' % (argv[0], missing) if missing else ''


def run_command(text, cwd):
    """Run (or check, for LONG) one command in W; '' on success, else why not."""
    env, argv = env_and_argv(text)
    env['RDMA_LTO_DIR'] = cwd
    if not argv:
        return 'no command in %r' % text
    mode = LONG[text][1] if text in LONG else 'run'
    if mode == 'run' and os.path.basename(argv[0]) in BUILDS_NS3:
        # Run as written, it would build ns-3 from source (a quarter of an
        # hour, into the machine's shared cache): list it in LONG.
        return '%s builds ns-3 from source: add the command to LONG' % argv[0]
    if argv[0] == 'make':
        argv = ['make', '-n', '-C', TOP] + argv[1:]
    elif mode == 'check':
        argv = argv + ['--check']
    elif mode == 'parse':
        return _parse_python(argv, cwd)
    elif mode == 'shell':
        return _check_shell(argv, cwd)
    elif mode == 'suite':
        suite = [a.split('=', 1)[1] for a in argv if a.startswith('--suite=')]
        argv = [argv[0], '--list']
    try:
        r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except OSError as e:
        return 'cannot run %s: %s' % (argv[0], e)
    except subprocess.TimeoutExpired:
        return 'still running after %d s' % TIMEOUT
    if text in REFUSED:
        status, shown = REFUSED[text]
        if r.returncode != status or shown not in r.stderr:
            return 'expected exit %d and %r, got exit %d: %s' % (status, shown, r.returncode,
                                                                 r.stderr[-800:])
        written = [a.split('=', 1)[1] for a in argv if a.startswith('--output.dir=')]
        return 'wrote %s' % written if any(os.path.exists(os.path.join(cwd, d))
                                           for d in written) else ''
    if r.returncode != 0:
        return 'exit %d: %s' % (r.returncode, (r.stderr or r.stdout)[-800:])
    if mode == 'suite' and not set(suite) <= set(r.stdout.split()):
        return 'the runner lists no suite %s' % suite
    if mode == 'check' and 'configuration checked' not in r.stdout:
        return '--check printed no verdict: ' + r.stdout[-300:]
    return ''


EXAMPLES = de.all_examples()


def _ids(examples):
    """source:line, with ' (2)', ' (3)' for further examples on one line."""
    seen, ids = {}, []
    for e in examples:
        seen[e.where] = seen.get(e.where, 0) + 1
        ids.append(e.where + (' (%d)' % seen[e.where] if seen[e.where] > 1 else ''))
    return ids


@pytest.mark.parametrize('example', EXAMPLES, ids=_ids(EXAMPLES))
def test_example_runs_as_written(example, workspace):
    for text in instances(example):
        why = run_command(text, str(workspace))
        assert not why, '%s: %s\n  -> %s' % (example.where, text, why)


def test_tables_name_only_examples_the_documents_hold():
    texts = {e.text for e in EXAMPLES}
    expanded = {i for e in EXAMPLES for i in instances(e)}
    assert not set(TEMPLATES) - texts, 'stale TEMPLATES entries'
    assert not set(REFUSED) - expanded, 'stale REFUSED entries'
    assert not set(LONG) - expanded, 'stale LONG entries'


def _rdma_sim_keys(build_dir):
    r = subprocess.run([os.path.join(build_dir, 'examples', 'rdma-sim'), '--help'],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return set(re.findall(r'^  --(\S+) \(default:', r.stdout, re.M))


def test_every_key_the_documents_name_exists(build_dir):
    keys = _rdma_sim_keys(build_dir)
    assert {'cc.dcqcn.AiRate', 'traffic.load', 'output.dir'} <= keys  # the parse works
    mentions = [(k, where) for k, where in de.key_mentions() if not k.startswith('group.')]
    assert len(mentions) >= 10
    unknown = ['%s: --%s' % (where, k) for k, where in mentions if k not in keys]
    assert not unknown, 'keys rdma-sim does not have: %s' % unknown


def test_a_bogus_key_fails_the_runner(build_dir, workspace):
    # README once said --cc.dcqcn.Rai: the runner must report it, run or checked.
    assert 'cc.dcqcn.Rai' not in _rdma_sim_keys(build_dir)
    bad = 'build/examples/rdma-sim -c examples/configs/tiny.ini --cc.dcqcn.Rai=5Mb/s ' \
          '--output.dir=out/bogus'
    why = run_command(bad, str(workspace))
    assert why.startswith('exit 2') and 'cc.dcqcn.Rai' in why, why
    LONG[bad] = ('self-check', 'check')
    try:
        why = run_command(bad, str(workspace))
    finally:
        del LONG[bad]
    assert why.startswith('exit 2') and 'cc.dcqcn.Rai' in why, why
    assert not os.path.exists(workspace / 'out' / 'bogus')
    # A script's parse check fails on an option the script does not have.
    assert _parse_python(['scripts/sweep.py', '-o', 'out/x', '--no-such-option'],
                         str(workspace)).startswith('argument error')


def _extracted(path, text):
    """(kind, line, text) of the examples of a made-up document."""
    path.write_text(text)
    return [(e.kind, e.line, e.text) for e in de.examples_of(str(path))]


def test_extraction_finds_the_known_examples(tmp_path):
    texts = [e.text for e in EXAMPLES]
    assert 'build/examples/rdma-sim --help' in texts
    assert 'rdma-fat-tree --k=4 --bytes=1048576' in texts  # an inline rst literal
    readme = [e.text for e in EXAMPLES if e.source == 'README.md' and e.kind == 'block']
    assert 'make test' in readme and len(readme) >= 5  # the two commands, the first study
    assert sum(e.kind == 'block' for e in EXAMPLES) >= 30
    literal = [e.text for e in EXAMPLES if e.kind == 'literal']  # rst "::" blocks
    assert 'scripts/compare_hpcc.py out/dcqcn-deq THEIR_DCQCN/fct.txt ' \
           '--theirs-pfc THEIR_DCQCN/pfc.txt' in literal
    assert 'scripts/memory_costs.py --sim build/examples/rdma-sim --fit --large' in literal
    assert len(literal) >= 7
    # The rules on a made-up document: continuations, comments, '...', spans.
    found = _extracted(tmp_path / 'x.md',
                       'Run `scripts/plot_fct.py -o f out/a` or see `scripts/sweep.py`.\n'
                       '```sh\nscripts/sweep.py -o out/s \\\n    --seeds 1,2   # two\n'
                       'scripts/sweep.py ... --list\n```\n')
    assert found == [('inline', 1, 'scripts/plot_fct.py -o f out/a'),
                     ('block', 3, 'scripts/sweep.py -o out/s --seeds 1,2'),
                     ('block', 5, 'scripts/sweep.py -o out/s --seeds 1,2 --list')]
    found = _extracted(tmp_path / 'x.rst', 'Commands: ``build/examples/rdma-sim -c a.ini\n'
                       '--x.Y=1`` and ``rdma-sim``.\n')
    assert found == [('inline', 1, 'build/examples/rdma-sim -c a.ini --x.Y=1')]
    # Literal blocks: only the lines that start with a program, continuations
    # and a prompt as in sh blocks; output, formulas and a comment's body are
    # not examples, a note's body is text.
    found = _extracted(tmp_path / 'y.rst',
                       'Run it::\n\n  $ rdma-sim --a.B=1 \\\n      --c.D=2\n  rdma-sim: refused\n'
                       '  H = 2 x delay   # bytes\n\n'
                       '..\n   A comment, not a literal block::\n\n     scripts/x.py --y\n\n'
                       '.. note::\n\n   Then::\n\n     scripts/sweep.py -o out/s\n'
                       '     scripts/sweep.py ... --list\n\n'
                       'Prose, not indented: rdma-sim --e.F=3\n')
    assert found == [('literal', 3, 'rdma-sim --a.B=1 --c.D=2'),
                     ('literal', 17, 'scripts/sweep.py -o out/s'),
                     ('literal', 18, 'scripts/sweep.py -o out/s --list')]


def _usage_snippets():
    """(first line, code) of each C++ literal block of doc/rdma.rst's Usage."""
    path = os.path.join(TOP, 'doc', 'rdma.rst')
    with open(path) as f:
        lines = f.read().split('\n')
    start = lines.index('Usage')
    end = next(i for i in range(start + 2, len(lines))
               if i + 1 < len(lines) and re.match(r'^\*{4,}$', lines[i + 1]))
    return [(first, '\n'.join(block)) for block, first, kind in de.rst_blocks(path)
            if kind == 'literal' and start < first <= end]


def test_cpp_snippets_name_only_real_api():
    """The C++ of doc/rdma.rst's Usage section is fragments (they use
    variables the text describes), so it is not compiled; every type,
    function, member and attribute it names must exist in the module's
    headers, ns-3's or the TypeIds' attribute names."""
    corpus = set()
    headers = [os.path.join(folder, n) for d in ('model', 'helper')
               for folder, _, names in os.walk(os.path.join(TOP, d))
               for n in names if n.endswith(('.h', '.cc'))]
    ns3 = '/usr/include/ns3'
    headers += [os.path.join(ns3, n) for n in os.listdir(ns3) if n.endswith('.h')]
    for h in headers:
        with open(h, errors='replace') as f:
            corpus.update(re.findall(r'\w+', f.read()))
    snippets = _usage_snippets()
    assert len(snippets) >= 6
    unknown = []
    for line, code in snippets:
        names = set(re.findall(r'"([A-Z][A-Za-z]+)"', code))  # attribute names
        code = re.sub(r'"[^"]*"', lambda m: ' ' + re.sub(r'\W', ' ', m.group(0)) + ' ', code)
        names |= set(re.findall(r'(?:->|\.|::)\s*([A-Za-z_]\w*)', code))
        names |= set(re.findall(r'\b([A-Z][a-z]\w*[A-Z]\w*)\b', code))  # CamelCase types
        unknown += ['doc/rdma.rst:%d: %s' % (line, n) for n in sorted(names) if n not in corpus]
    assert not unknown, 'names no header declares: %s' % unknown


#: what a reader cannot follow: this machine's folders, notes beside the
#: tree, and source files of other projects cited by path
UNFOLLOWABLE = re.compile(r'/work/|/home/|(?<!/var)/tmp/|\.\./shared|reference-data|FACTS\.md'
                          r'|rxe_[a-z]+\.c|drivers/infiniband')


def test_no_citation_points_outside_the_tree():
    """Docstrings, help texts and documents cite the IB spec, RFCs, IEEE
    clauses, papers or public repositories, never a machine path or a file
    that is not shipped (README once pointed at ../shared/DESIGN.md)."""
    roots = ['model', 'helper', 'examples', 'doc', 'scripts']
    files = [os.path.join(TOP, 'README.md'), os.path.join(TOP, 'data', 'README.md'),
             os.path.join(TOP, 'bindings', 'README.md')]
    for root in roots:
        for folder, _, names in os.walk(os.path.join(TOP, root)):
            files += [os.path.join(folder, n) for n in names
                      if n.endswith(('.h', '.cc', '.rst', '.md', '.py', '.ini', '.sh'))]
    files += [os.path.join(TOP, 'test', n) for n in os.listdir(os.path.join(TOP, 'test'))
              if n.endswith(('.h', '.cc'))]  # the TestSuites' headers cite sources too
    assert len(files) > 100
    bad = []
    for path in files:
        with open(path, errors='replace') as f:
            for n, line in enumerate(f, start=1):
                if UNFOLLOWABLE.search(line):
                    bad.append('%s:%d: %s' % (os.path.relpath(path, TOP), n, line.strip()))
    assert not bad, '\n'.join(bad)
    assert UNFOLLOWABLE.search('see ../shared/DESIGN.md')  # the guard matches
    assert not UNFOLLOWABLE.search('default /var/tmp/rdma-compat')  # a work folder is no citation
