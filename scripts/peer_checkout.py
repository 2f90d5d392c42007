"""The peer simulators' checkouts, as bench_peers.py (the HPCC simulator)
and bench_conweave.py (ConWeave's) take them: copied or extracted once into
a folder of their own, built there with their waf in ns-3's optimized
profile (Python 2.7, as ns-3.17's waf needs), and their run.py read, not
run. Nothing of a peer is in this tree; its source is the checkout given.
"""

import os
import re
import shutil
import subprocess


class BenchError(Exception):
    """A failed step; the message says which and where its log is."""


def find_python2():
    """A Python 2.7 for ns-3.17's waf: $PYTHON2, pyenv's, or python2.7 on PATH."""
    home = os.path.expanduser('~')
    candidates = [os.environ.get('PYTHON2', '')]
    pyenv = os.path.join(home, '.pyenv', 'versions')
    if os.path.isdir(pyenv):
        candidates += [os.path.join(pyenv, v, 'bin', 'python2.7')
                       for v in sorted(os.listdir(pyenv)) if v.startswith('2.7')]
    candidates.append(shutil.which('python2.7') or '')
    for c in candidates:
        if c and os.access(c, os.X_OK) and subprocess.call(
                [c, '-c', 'import sys; sys.exit(sys.version_info[:2] != (2, 7))'],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
            return c
    raise BenchError('no Python 2.7 for the simulator\'s waf: set PYTHON2=/path/python2.7 '
                     '(e.g. pyenv install 2.7.18)')


def populate(src, tree, sub='', log=print):
    """Put the simulator's tree at `tree` (once: nothing if it holds a
    wscript): the folder `sub` of src ('' for src itself) copied from a work
    tree, or extracted from a git directory's HEAD. BenchError if src is
    neither."""
    if os.path.isfile(os.path.join(tree, 'wscript')):
        return
    os.makedirs(os.path.dirname(tree), exist_ok=True)
    where = os.path.join(src, sub) if sub else src
    if os.path.isfile(os.path.join(where, 'wscript')):
        log('copying %s to %s' % (where, tree))
        shutil.copytree(where, tree, symlinks=True, ignore=shutil.ignore_patterns('.git'))
        return
    git = subprocess.run(['git', '--git-dir', src, 'archive', 'HEAD'] + ([sub] if sub else []),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if git.returncode != 0:
        raise BenchError('%s: neither a checkout with %s nor a git directory (%s)'
                         % (src, (sub + '/') if sub else 'a wscript', git.stderr.decode().strip()))
    # An archive of a folder holds it by name: extract beside, as `tree`.
    into = os.path.dirname(tree) if sub else tree
    log('extracting %s from %s into %s' % ((sub + '/') if sub else 'HEAD', src, into))
    os.makedirs(into, exist_ok=True)
    subprocess.run(['tar', '-x', '-C', into], input=git.stdout, check=True)


def waf_build(tree, peer_dir, jobs, modules, minutes, log=print):
    """Configure the tree (once) in ns-3's optimized profile with `modules`
    and build it with -j jobs, logs in peer_dir/configure.log and
    build.log; BenchError naming the log if waf fails. `minutes`: what the
    first build takes, for the message."""
    env = dict(os.environ)
    env.pop('CXXFLAGS', None)  # waf drops its profile's flags when CXXFLAGS is set
    cache = os.path.join(tree, 'build', 'c4che', '_cache.py')
    py2 = find_python2()
    if not (os.path.isfile(cache) and "BUILD_PROFILE = 'optimized'" in open(cache).read()):
        log('configuring the simulator (log %s/configure.log)' % peer_dir)
        with open(os.path.join(peer_dir, 'configure.log'), 'w') as out:
            if subprocess.call([py2, './waf', 'configure', '--build-profile=optimized',
                                '--enable-modules=' + ','.join(modules),
                                '--disable-python', '--disable-tests', '--disable-examples'],
                               cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT):
                raise BenchError('waf configure failed: %s/configure.log' % peer_dir)
    log('building the simulator with -j%d (log %s/build.log; ~%d min the first time)'
        % (jobs, peer_dir, minutes))
    with open(os.path.join(peer_dir, 'build.log'), 'w') as out:
        if subprocess.call([py2, './waf', 'build', '-j%d' % jobs], cwd=tree, env=env,
                           stdout=out, stderr=subprocess.STDOUT):
            raise BenchError('waf build failed: %s/build.log' % peer_dir)


def run_py_template(tree):
    """run.py's config_template, read from the tree (not run); BenchError if none."""
    path = os.path.join(tree, 'run.py')
    m = re.search(r'config_template\s*=\s*"""(.*?)"""', open(path).read(), re.S)
    if not m:
        raise BenchError('%s: no config_template' % path)
    return m.group(1)


#: the ns-3 modules both peers' scratch programs need
MODULES = ('applications', 'point-to-point', 'internet')


def build(src, peer_dir, name, sub, jobs, minutes, log=print):
    """populate() peer_dir/name from src (its folder sub) and waf_build() it
    with MODULES and -j jobs; return the tree."""
    tree = os.path.join(peer_dir, name)
    populate(src, tree, sub, log)
    waf_build(tree, peer_dir, jobs, MODULES, minutes, log)
    return tree
