"""`adjudicator serve` runs the service under gunicorn; `adjudicator reload` checks what a
running instance would load, then switches it over."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from pathlib import Path

from adjudicator import settings
from adjudicator.cli.common import EXIT_DISAGREE, EXIT_OK, UsageError
from adjudicator.environment import environment_for_child
from adjudicator.settings import ConfigError, Settings
from adjudicator.settings.reference import default_text
from lexicon.console import folder, seconds, whole_number


def add_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the HTTP service under gunicorn with the shipped settings",
        description="Run the service under gunicorn with the settings shipped in the package "
        "(adjudicator/process/gunicorn_conf.py: lexicons loaded once before forking, no access log "
        "unless ADJUDICATOR_ACCESS_LOG names one, never with bodies). Options override the ADJUDICATOR_* environment variables.",
    )
    p.add_argument(
        "--bind",
        type=_bind,
        metavar="HOST:PORT",
        help="address(es) to listen on, comma-separated (default: $ADJUDICATOR_BIND or "
        f"{Settings.model_fields['bind'].default})",
    )
    p.add_argument(
        "--workers",
        type=whole_number(*settings.bounds("WORKERS")),
        metavar="N",
        help="worker processes (default: $ADJUDICATOR_WORKERS or "
        f"{default_text(Settings.model_fields['workers'])})",
    )
    p.add_argument(
        "--lexicon-dir",
        type=folder,
        metavar="DIR",
        help="compiled lexicons to load (default: $ADJUDICATOR_LEXICON_DIR or the instance "
        "folder's lexicons/)",
    )
    p.set_defaults(handler=run_serve)


def _bind(value: str) -> str:
    """`--bind`, checked as `ADJUDICATOR_BIND` is."""
    try:
        return settings.bind(value)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_serve(args: argparse.Namespace) -> int:
    """Replace this process with gunicorn: signals (TERM, HUP, INT) then reach its master.
    Every setting is checked first (adjudicator.settings): a bad one is exit status 2 here,
    naming its variable, not a traceback from gunicorn nor a 500 later."""
    # each checked by argparse: as its setting is, within its bounds, an existing folder
    given = {"BIND": args.bind, "WORKERS": args.workers, "LEXICON_DIR": args.lexicon_dir}
    env = environment_for_child(**{k: v for k, v in given.items() if v is not None})
    settings.read(env)  # ConfigError: exit 2 (`_bad_input`)
    # gunicorn, quiet about a Ctrl-C while it starts (adjudicator.process.gunicorn_main). SIGINT stays
    # blocked across the exec until gunicorn_main is ready for it: a Ctrl-C meanwhile waits.
    argv = [
        sys.executable,
        "-m",
        "adjudicator.process.gunicorn_main",
        "-c",
        "python:adjudicator.process.gunicorn_conf",
    ]
    sys.stdout.flush()
    sys.stderr.flush()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        os.execve(sys.executable, [*argv, "adjudicator.process.wsgi:app"], env)
    finally:  # reached only when the exec failed: this process keeps its Ctrl-C
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return EXIT_OK  # not reached: execve does not return


def add_reload(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reload",
        help="check the installed lexicons and rulesets, then switch a running instance to them",
        description="Load the instance's lexicon and ruleset directories exactly as it will "
        "(its own environment and working directory, read from /proc); if anything fails, "
        "signal nothing and exit 2. Otherwise send SIGHUP and wait until every old worker "
        "has left, then print what is served.",
    )
    p.add_argument(
        "--run-dir",
        help="the instance's run directory (default: $ADJUDICATOR_RUN_DIR, else "
        "run/<first address of $ADJUDICATOR_BIND or 127.0.0.1:8000> in the instance folder, "
        "$ADJUDICATOR_INSTANCE_DIR)",
    )
    p.add_argument("--timeout", type=seconds(3600), default=30, help="seconds to wait (default 30)")
    p.set_defaults(handler=run_reload)


def _master_pid(run_dir: Path) -> int:
    from adjudicator.rundir import PIDFILE

    try:
        pid = int((run_dir / PIDFILE).read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        raise UsageError(f"no running instance with a pidfile in {run_dir}") from None
    return pid


def _workers(master: int) -> set[int]:
    """The master's child processes, from /proc."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            children.add(int(stat.parent.name))
    return children


def _check_as_instance(master: int) -> tuple[dict, dict]:
    """Load the lexicons and rulesets as the instance would (its ADJUDICATOR_* environment and
    working directory): the lexicons it would serve, and those that would fail."""
    import logging

    from adjudicator.lexicon_registry import LexiconRegistry
    from adjudicator.rulesets import RulesetFileError, load_rulesets

    proc = Path(f"/proc/{master}")
    try:
        raw = (proc / "environ").read_bytes().split(b"\0")
        cwd = os.readlink(proc / "cwd")
    except OSError as exc:
        raise UsageError(f"cannot read the instance's environment: {exc.strerror}") from None
    # decoded as the instance's own Python decoded it (os.environ): bytes that are no UTF-8 too
    env = dict(os.fsdecode(item).split("=", 1) for item in raw if b"=" in item)
    with contextlib.chdir(cwd):  # its relative folders are its working directory's
        try:
            config = settings.read(env)  # the instance's settings, as its app read them
        except ConfigError as exc:
            raise UsageError(f"not reloaded: the instance's settings: {exc}") from None
        try:
            load_rulesets(config.ruleset_dir)
        except RulesetFileError as exc:
            raise UsageError(f"not reloaded: {exc}") from None
        reg = LexiconRegistry(os.path.abspath(config.lexicon_dir))
        quiet = logging.getLogger("adjudicator.reload-check")
        quiet.disabled = True  # its failures are printed by run_reload
        reg.load_all(quiet)
    return {i: lex.identity()["sha256"] for i, lex in reg.loaded.items()}, reg.failed


def run_reload(args: argparse.Namespace) -> int:
    import time

    from adjudicator.rundir import read_last_reload

    run_dir = Path(args.run_dir or settings.read().run_directory)
    master = _master_pid(run_dir)
    installed, failed = _check_as_instance(master)
    if failed:
        for name, why in sorted(failed.items()):
            print(f"adjudicator reload: {name}: {why}", file=sys.stderr)
        raise UsageError("not reloaded: fix or reinstall the lexicons above; nothing changed")
    old = _workers(master)
    started = time.time()
    os.kill(master, signal.SIGHUP)
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        report = read_last_reload(str(run_dir))
        current = _workers(master)
        if report and report["time"] >= started and current and not current & old:
            break
        time.sleep(0.05)
    else:
        print(f"adjudicator reload: not finished after {args.timeout:g} s", file=sys.stderr)
        return EXIT_DISAGREE
    took = time.time() - started
    for lexicon_id, sha in sorted(report["lexicons"].items()):
        print(f"serving  {lexicon_id}  sha256 {sha[:16]}…")
    if not report["ok"] or report["failed"] or report["lexicons"] != installed:
        print(
            f"adjudicator reload: refused: {report['error'] or report['failed']}", file=sys.stderr
        )
        return EXIT_DISAGREE
    print(f"reloaded in {took:.2f} s: workers {sorted(old)} replaced by {sorted(current)}")
    return EXIT_OK
