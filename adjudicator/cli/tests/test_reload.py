"""`adjudicator reload` reads the running instance's environment from /proc, as the instance's
own Python read it: a value that is not UTF-8 (a Latin-1 locale's `café`) is no traceback."""

import os
import subprocess

from adjudicator.cli import main
from adjudicator.rundir import PIDFILE


def test_an_instance_environment_that_is_not_utf8_is_read(tmp_path, capsys):
    missing = tmp_path / "no-lexicons"
    env = {
        b"PATH": os.environb.get(b"PATH", b"/usr/bin:/bin"),
        b"GREETING": b"caf\xe9",  # Latin-1: no UTF-8
        b"ADJUDICATOR_LEXICON_DIR": bytes(missing),
    }
    instance = subprocess.Popen([b"sleep", b"120"], env=env)  # stands in for gunicorn's master
    try:
        run_dir = tmp_path / "run"
        run_dir.mkdir()
        (run_dir / PIDFILE).write_text(str(instance.pid))
        assert main(["reload", "--run-dir", str(run_dir)]) == 2
        assert instance.poll() is None  # nothing signalled
    finally:
        instance.kill()
        instance.wait()
    err = capsys.readouterr().err
    assert f"adjudicator reload: {missing}: lexicon directory does not exist" in err
    assert "not reloaded: fix or reinstall the lexicons above; nothing changed" in err
