"""What `adjudicator serve` runs in place of `python -m gunicorn`: the same gunicorn, except that a
Ctrl-C while its master still loads the app (before gunicorn installs its own handlers, which
stop the workers and exit cleanly) stops it in one line instead of a KeyboardInterrupt traceback
from deep inside an import, which reads like a crash. It still dies by SIGINT, as a shell
expects of a Ctrl-C, and removes the metrics folder the settings made for this instance."""

from __future__ import annotations

import os
import shutil
import signal
import sys

from gunicorn.app.wsgiapp import run


def main() -> None:
    try:
        # `adjudicator serve` blocked SIGINT before the exec, so that a Ctrl-C while Python
        # imported this package waited for this `try`; it arrives now, if it came.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        run(prog="gunicorn")
    except KeyboardInterrupt:
        conf = sys.modules.get(
            "adjudicator.process.gunicorn_conf"
        )  # gunicorn imported the settings
        if conf is not None:
            shutil.rmtree(conf.metrics_dir, ignore_errors=True)
        sys.stderr.write("adjudicator: interrupted while starting; not started\n")
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)


if __name__ == "__main__":
    main()
