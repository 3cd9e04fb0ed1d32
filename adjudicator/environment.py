"""What a process passes on in its environment, and reads there beside its settings.

The other modules neither read nor write `os.environ` (the settings are read by pydantic-settings,
adjudicator.settings): `adjudicator serve` hands its options to gunicorn, and gunicorn's master
its run directory and metrics folder to its app and workers, through these.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from adjudicator.settings import variable

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's own variable, not a setting


def environment_for_child(**values: Any) -> dict[str, str]:
    """This process's environment with `ADJUDICATOR_<NAME>` set to each of `values`: for a
    process it starts (`adjudicator serve` replaces itself with gunicorn)."""
    return dict(os.environ) | {variable(name): str(v) for name, v in values.items()}


def set_for_children(**values: Any) -> None:
    """Settings the gunicorn master decides (its run directory), put in its environment: the
    app it builds and the workers it forks read them with the others."""
    os.environ.update({variable(name): str(v) for name, v in values.items()})


def terminal_locale(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's locale as POSIX chooses it (`LC_ALL`, else `LC_MESSAGES`, else `LANG`;
    `da_DK.UTF-8`), empty when none is set: the language a command writes a report in when it
    is not told (`adjudicator audit export`)."""
    environ = os.environ if environ is None else environ
    return next((environ[n] for n in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(n)), "")


def multiprocess_metrics_dir() -> str | None:
    """prometheus_client's folder for several processes' counts; None in one process (tests,
    the development server), where the counts stay in the process."""
    return os.environ.get(MULTIPROC_DIR) or None


def set_multiprocess_metrics_dir(path: str) -> None:
    """Set before prometheus_client is imported, which reads it then, in the master and so in
    every worker it forks."""
    os.environ[MULTIPROC_DIR] = path
