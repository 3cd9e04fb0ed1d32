"""What `adjudicator serve` runs in place of `python -m gunicorn`: the same gunicorn, except that a
Ctrl-C while its master still loads the app (before gunicorn installs its own handlers, which
stop the workers and exit cleanly) stops it at once, in one line, instead of a KeyboardInterrupt
from deep inside an import. It still dies by SIGINT, as a shell expects of a Ctrl-C, and removes
the metrics folder the settings made for this instance and the pidfile if it wrote one.

That Ctrl-C is handled by a handler that ends the process itself (lexicon.console
.stop_on_interrupt), not by a KeyboardInterrupt: one raised while the app loads could be
swallowed (a library catching broad exceptions, a destructor it landed in), and the server went
on starting, deaf to it. gunicorn's own handlers replace it in `Arbiter.init_signals`."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys

from gunicorn.app.wsgiapp import run

from lexicon.console import stop_on_interrupt


def _remove_what_the_start_made() -> None:
    conf = sys.modules.get("adjudicator.process.gunicorn_conf")  # gunicorn read the settings
    if conf is None:
        return
    shutil.rmtree(conf.metrics_dir, ignore_errors=True)
    # gunicorn writes the pidfile just before it installs its handlers: it may not be there
    with contextlib.suppress(OSError):
        with open(conf.pidfile) as f:
            mine = f.read().strip() == str(os.getpid())
        if mine:
            os.unlink(conf.pidfile)


def main() -> None:
    stop_on_interrupt(
        "adjudicator: interrupted while starting; not started", _remove_what_the_start_made
    )
    # `adjudicator serve` blocked SIGINT before the exec, so that a Ctrl-C while Python
    # imported this module waited; it arrives now, if it came, to the handler above.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    run(prog="gunicorn")


if __name__ == "__main__":
    main()
