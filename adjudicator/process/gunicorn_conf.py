"""gunicorn settings for the adjudicator, shipped in the package so an installed service has them:
`adjudicator serve`, or `gunicorn -c python:adjudicator.process.gunicorn_conf adjudicator.process.wsgi:app`
(`deploy/gunicorn.conf.py` in the repository reads this module).

`preload_app` builds the app, and so loads every lexicon, in the master before forking: the
workers then share the trie pages instead of each holding a private copy.

Worker class: `gthread`, `ADJUDICATOR_THREADS` (default 8) threads per worker. Each ruling is
committed to the audit log before its answer, and rulings waiting for a commit at the same
moment share it (adjudicator.audit.groupcommit): that takes several requests in flight per
worker, where a sync worker has one and so commits once per ruling. `ADJUDICATOR_THREADS=1`
runs gunicorn's sync worker instead. gunicorn runs behind nginx (deploy/nginx.conf.template),
which buffers whole requests and responses, so a thread is never held by a slow client. Either
worker sends each answer in one write (adjudicator.process.gunicorn_worker), so a killed worker never
leaves nginx half an answer it could not retry. gunicorn's request limits are its defaults
(a request line of 4,094 bytes, 100 headers of at most 8,190 bytes each); what it refuses
itself leaves as a problem document like every other error (adjudicator.process.gunicorn_worker).

Each instance has its own run directory (`ADJUDICATOR_RUN_DIR`, default
`run/<first bind address>` in the instance folder, `ADJUDICATOR_INSTANCE_DIR`): pidfile,
control socket, worker-exit log, last reload.
SIGHUP (`adjudicator reload`) loads installed lexicons and rulesets in the master and replaces
the workers (adjudicator.process.hotswap).

Every `ADJUDICATOR_*` value is read and checked here (adjudicator.settings), before gunicorn
starts anything: a bad one stops the start with one line naming it, exit status 2.
"""

import os
import shutil
import tempfile

from adjudicator import environment as _environment
from adjudicator import rundir as _rundir
from adjudicator import settings as _settings
from adjudicator.process import cannot_start as _cannot_start
from adjudicator.process import gunicorn_worker as _worker


def _metrics_dir() -> str:
    """A fresh directory per instance for prometheus_client's multiprocess files, set before the
    app (and so prometheus_client) is imported. Kept across a HUP, which re-reads this file in
    the same master (the directory's name says its master); a directory inherited from another
    process is not reused."""
    mine = f"adjudicator-metrics-{os.getpid()}-"
    current = _environment.multiprocess_metrics_dir()
    if current and os.path.basename(current).startswith(mine) and os.path.isdir(current):
        return current
    path = tempfile.mkdtemp(prefix=mine)
    _environment.set_multiprocess_metrics_dir(path)
    return path


try:  # first: a bad value leaves nothing behind
    _values = _settings.read()
except _settings.ConfigError as exc:
    _cannot_start(exc)
run_dir = _values.run_directory
try:
    os.makedirs(run_dir, exist_ok=True)
except OSError as exc:  # a file in its place, no permission
    _cannot_start(f"{_settings.variable('run_dir')}: cannot make {run_dir!r}: {exc.strerror}")
metrics_dir = _metrics_dir()

bind = _values.bind.split(",")
workers = _values.workers
threads = _values.threads
worker_class = _worker.worker_class(threads)
preload_app = True
timeout = 30
graceful_timeout = 10

_environment.set_for_children(RUN_DIR=run_dir)  # the app (readyz, reload) finds it there
pidfile = os.path.join(run_dir, _rundir.PIDFILE)
control_socket = os.path.join(run_dir, _rundir.CONTROL_SOCKET)

# Access logs carry method, path, status and time: never request bodies, so never the words.
# Off unless ADJUDICATOR_ACCESS_LOG says where (nginx in front logs every request already).
accesslog = _values.access_log
errorlog = _values.error_log
loglevel = _values.log_level
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# ADJUDICATOR_LOG_FORMAT=json: one JSON object per line, access lines without the query string.
if _values.log_format == "json":
    logger_class = "adjudicator.web.logs.JsonLogger"


def pre_fork(server, worker):
    """Move everything the master built (lexicon objects included) out of the GC's reach.

    Without this, the first collection in each worker walks and writes every inherited object,
    turning shared copy-on-write pages into private copies. Then hold the stop signals across
    the fork, so that a Ctrl-C or the master's SIGQUIT reaching the worker before its handlers
    do stops it instead of being lost (adjudicator.process.gunicorn_worker.hold_stop_signals).
    """
    import gc

    gc.freeze()
    _worker.hold_stop_signals()


def on_reload(server):
    """HUP: load the installed lexicons and rulesets before the new workers fork.

    Never raises: an exception here would stop the master; a failure keeps what serves.
    """
    from adjudicator.process.hotswap import reload_app

    try:
        report = reload_app(server.app.wsgi())
    except Exception:
        server.log.exception("reload failed; the running lexicons and rulesets keep serving")
        return
    server.log.info("reload: %s", report)


def worker_exit(server, worker):
    """In the worker, leaving through Python: a clean exit."""
    _rundir.mark_clean_exit(run_dir, worker.pid)


def worker_abort(worker):
    """In the worker, killed for a timeout (SIGABRT): abnormal, although it leaves through Python."""
    _rundir.record_abnormal(run_dir, worker.pid, "timeout")


def child_exit(server, worker):
    """In the master, reaping a worker: without a clean mark it died (SIGKILL, SIGSEGV, OOM).
    Its metrics files stay (its counts still count); its live gauges are marked dead."""
    _rundir.record_exit(run_dir, worker.pid)
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, metrics_dir)


def on_exit(server):
    """The master is leaving: the instance's metrics files go with it."""
    shutil.rmtree(metrics_dir, ignore_errors=True)


def when_ready(server):
    """Say where to point the tablets: the addresses bound, and for 0.0.0.0 (or ::) this
    machine's network addresses; a bind to loopback only is said to be unreachable."""
    from adjudicator.web.netaddrs import startup_lines

    addresses = [listener.sock.getsockname() for listener in server.LISTENERS]
    bound = [address[:2] for address in addresses if isinstance(address, tuple)]  # not unix
    for line in startup_lines(bound):
        server.log.info(line)
