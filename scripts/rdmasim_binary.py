"""Which rdma-sim a script runs when its --sim option is not given: one rule
for scripts/sweep.py (and slow_receiver.py through it) and loss_sweep.py.

In order:

1. $RDMA_SIM, when set;
2. `make run`'s build, the fast one (ns-3 in its release profile, static with
   link-time optimization): the path written in LTO_DIR/rdma-sim.path by
   `make bench-lto` (which `make run` and `make bench` run first), where
   LTO_DIR is $RDMA_LTO_DIR, else the Makefile's default
   /var/tmp/rdma-compat-lto; passed over when that file is missing or names
   no executable file;
3. `make build`'s build/examples/rdma-sim of this tree (against Debian's
   libns3, whose logs and asserts are compiled in: slower).

Both builds write byte-identical outputs for the same configuration; the
scripts print the binary they chose and why on their first line.
"""

import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the Makefile's LTO_DIR when $RDMA_LTO_DIR is not set
LTO_DIR = '/var/tmp/rdma-compat-lto'
#: the file in LTO_DIR that names the binary (ns3-module/check-compat.sh --build-only)
PATH_FILE = 'rdma-sim.path'


def lto_dir(environ=None):
    """The folder of `make run`'s build: $RDMA_LTO_DIR, else LTO_DIR (a str)."""
    environ = os.environ if environ is None else environ
    return environ.get('RDMA_LTO_DIR') or LTO_DIR


def default_sim(environ=None, top=TOP):
    """The rdma-sim to run when no --sim is given, by the rule above.

    environ: the environment to read (default os.environ); top: the tree
    whose build/examples/rdma-sim is the last resort. Returns (path, why):
    path a str (build/examples/rdma-sim's even when it is not built: running
    it then fails and says so), why a short phrase for the user naming
    where path came from. Never raises.
    """
    environ = os.environ if environ is None else environ
    if environ.get('RDMA_SIM'):
        return environ['RDMA_SIM'], '$RDMA_SIM'
    path_file = os.path.join(lto_dir(environ), PATH_FILE)
    debian = os.path.join(top, 'build', 'examples', 'rdma-sim')
    try:
        with open(path_file) as f:
            named = f.read().strip()
    except OSError:
        return debian, "make build's; no make run's build: no %s" % path_file
    if named and os.path.isfile(named) and os.access(named, os.X_OK):
        return named, "make run's build, named in %s" % path_file
    return debian, "make build's; no make run's build: %s names %r, not an executable file" % (
        path_file, named)
