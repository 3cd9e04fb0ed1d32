"""Issue 28 item 2: every `ADJUDICATOR_*` setting declared once (adjudicator.settings), checked
at the start, and the settings reference (docs/reference/settings.md) generated from the
declaration, the one place the settings are listed."""

from __future__ import annotations

import ast
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator import configured_app, settings
from adjudicator.settings import ConfigError

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "adjudicator"
# The `adjudicator` command, as its console script runs it, from this checkout.
ADJUDICATOR = [
    sys.executable,
    "-c",
    "import sys; from adjudicator.cli import main; sys.exit(main())",
]


def clean_env(**values: str) -> dict[str, str]:
    """This process's environment without its ADJUDICATOR_* values, plus `values`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
    env["PYTHONPATH"] = str(ROOT)
    return env | {f"ADJUDICATOR_{k}": v for k, v in values.items()}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MAX_CONTENT_LENGTH", "abc"),
        ("JUDGE_RESULT_SECONDS", "abc"),
        ("CACHE_MAX_AGE", "-5"),
        ("WORKERS", "abc"),
        ("THREADS", "0"),
        ("METRICS", "maybe"),
        ("LOG_FORMAT", "xml"),
        ("CRASH_WINDOW_SECONDS", "nan"),
    ],
)
def test_a_bad_value_in_the_environment_stops_the_app_naming_it(monkeypatch, name, value):
    monkeypatch.setenv(f"ADJUDICATOR_{name}", value)
    with pytest.raises(ConfigError, match=f"ADJUDICATOR_{name} must be"):
        configured_app()


def test_a_bad_value_in_a_test_config_stops_the_app_naming_it():
    with pytest.raises(ConfigError, match="ADJUDICATOR_CACHE_MAX_AGE"):
        configured_app({"CACHE_MAX_AGE": -5})
    with pytest.raises(ConfigError, match="ADJUDICATOR_JUDGE_RESULT_SECONDS"):
        configured_app({"JUDGE_RESULT_SECONDS": "abc"})


def test_values_are_typed_and_defaults_kept(monkeypatch):
    for name in [k for k in os.environ if k.startswith("ADJUDICATOR_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("ADJUDICATOR_MAX_CONTENT_LENGTH", " 2048 ")
    monkeypatch.setenv("ADJUDICATOR_JUDGE_PIN", "0042")  # text: the zeros stay
    monkeypatch.setenv("ADJUDICATOR_METRICS", "yes")
    monkeypatch.setenv("ADJUDICATOR_SQLITE_SYNCHRONOUS", "normal")
    monkeypatch.setenv("ADJUDICATOR_RULESET_DIR", "")  # empty: unset
    config = configured_app({"TESTING": True, "EVENT": 2027}).config
    assert config["MAX_CONTENT_LENGTH"] == 2048
    assert config["JUDGE_PIN"] == "0042"
    assert config["METRICS"] is True
    assert config["SQLITE_SYNCHRONOUS"] == "NORMAL"
    assert config["RULESET_DIR"] is None
    assert config["EVENT"] == "2027"
    assert config["TESTING"] is True  # not a setting: passed through
    assert config["CACHE_MAX_AGE"] == 60 and config["JUDGE_RESULT_SECONDS"] == 10
    assert config["LEXICON_DIR"].endswith(os.path.join("instance", "lexicons"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_with_a_bad_workers_value_exits_2_naming_it(tmp_path):
    env = clean_env(WORKERS="abc", RUN_DIR=str(tmp_path / "run"))
    done = subprocess.run(
        [*ADJUDICATOR, "serve", "--bind", f"127.0.0.1:{free_port()}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "ADJUDICATOR_WORKERS" in done.stderr
    assert "Traceback" not in done.stderr and "invalid literal" not in done.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [("MAX_CONTENT_LENGTH", "abc"), ("JUDGE_RESULT_SECONDS", "abc"), ("CACHE_MAX_AGE", "-5")],
)
def test_serve_checks_every_setting_before_gunicorn(tmp_path, name, value):
    env = clean_env(**{name: value}, RUN_DIR=str(tmp_path / "run"))
    done = subprocess.run(
        [*ADJUDICATOR, "serve", "--bind", f"127.0.0.1:{free_port()}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert f"ADJUDICATOR_{name}" in done.stderr and "Traceback" not in done.stderr


BAD_BINDS = [
    "127.0.0.1:99999",
    "127.0.0.1:-1",
    "127.0.0.1:",
    "127.0.0.1:8000,",
    ",127.0.0.1:8000",
    "::1:8000",
    "[::1:8000",
    "[::g]:8000",
    "[::1]8000",
    "999.1.1.1:80",
    "host_name:80",
    "127.0.0.1:٣",
    "unix:",
    "fd://x",
    " ",
]
GOOD_BINDS = [
    "127.0.0.1:8000",
    "[::1]:8000",
    "localhost",
    "0.0.0.0:80, [::]:80",
    "unix:/run/a.sock",
    "fd://3",
]


@pytest.mark.parametrize("value", BAD_BINDS)
def test_a_bind_gunicorn_cannot_take_fails_the_check(monkeypatch, capsys, value):
    """Issue 35 (break 7): `--check` said ok to a port past 65535, and gunicorn then ended in a
    traceback. Every address is checked with the other settings."""
    monkeypatch.setenv("ADJUDICATOR_BIND", value)
    assert settings.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert "ADJUDICATOR_BIND must be" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("value", GOOD_BINDS)
def test_every_form_of_bind_gunicorn_takes_is_accepted(monkeypatch, value):
    monkeypatch.setenv("ADJUDICATOR_BIND", value)
    assert settings.read()["BIND"] == value


@pytest.mark.parametrize("how", ["environment", "option"])
def test_serve_with_a_port_past_65535_exits_2_naming_it(tmp_path, how):
    bad = "127.0.0.1:99999"
    env = clean_env(
        RUN_DIR=str(tmp_path / "run"), **({"BIND": bad} if how == "environment" else {})
    )
    done = subprocess.run(
        [*ADJUDICATOR, "serve", *(["--bind", bad] if how == "option" else [])],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "ADJUDICATOR_BIND must be" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "module", ["adjudicator.process.gunicorn_conf", "adjudicator.process.wsgi"]
)
def test_gunicorn_settings_and_the_wsgi_app_stop_with_status_2(tmp_path, module):
    """Started without `adjudicator serve` (gunicorn -c python:adjudicator.process.gunicorn_conf)."""
    env = clean_env(
        THREADS="many",
        RUN_DIR=str(tmp_path / "run"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'a.db'}",
    )
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "ADJUDICATOR_THREADS" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "run").exists()


def test_the_settings_reference_is_the_declarations():
    """The docs page renders `markdown_table()` when the site is built; nothing else lists the
    settings in a table, so there is no hand-kept copy to go stale."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import docs_hooks
    finally:
        sys.path.remove(str(ROOT / "tools"))
    page = (ROOT / "docs" / "reference" / "settings.md").read_text("utf-8")
    assert page.count("<!-- generated: settings -->") == 1
    assert docs_hooks.GENERATORS["settings"]() == settings.markdown_table()
    rows = re.compile(r"^\| `ADJUDICATOR_\w+`", re.M)
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        assert not rows.search(path.read_text("utf-8")), (
            f"{path.relative_to(ROOT)} keeps a settings table by hand: link to the settings "
            "reference (docs/reference/settings.md), which is generated"
        )


def test_every_adjudicator_variable_named_in_the_package_is_declared():
    named: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        if "tests" in path.relative_to(PACKAGE).parts:
            continue
        for match in re.finditer(r"ADJUDICATOR_([A-Z0-9_]*[A-Z0-9])", path.read_text("utf-8")):
            named.setdefault(match[1], str(path.relative_to(ROOT)))
    undeclared = {n: where for n, where in named.items() if n not in settings.SETTINGS}
    assert not undeclared, f"declare these in adjudicator/settings.py: {undeclared}"


def test_each_declaration_is_complete():
    for setting in settings.DECLARED:
        assert setting.name.isupper() and setting.description, setting.name
        assert "\n" not in setting.description and "|" not in setting.description
        setting.parse(setting.default_value())  # every default passes its own rule


def test_the_instance_folder_is_the_same_from_any_folder(tmp_path, monkeypatch):
    """Issue 28 item 8: the state's home is Flask's instance folder for the package, not the
    current folder; the lexicons, the SQLite store and the run directory default to it."""
    from adjudicator.rundir import run_dir_for
    from adjudicator.store import default_url

    for name in [k for k in os.environ if k.startswith("ADJUDICATOR_")]:
        monkeypatch.delenv(name)
    home = settings.value("INSTANCE_DIR")
    monkeypatch.chdir(tmp_path)
    assert settings.value("INSTANCE_DIR") == home == str(ROOT / "instance")
    app = configured_app({"TESTING": True})
    assert app.instance_path == home
    assert app.config["LEXICON_DIR"] == os.path.join(home, "lexicons")
    assert run_dir_for(settings.read()) == os.path.join(home, "run", "127.0.0.1-8000")
    assert default_url(app.instance_path) == f"sqlite:///{home}/adjudicator.db"
    monkeypatch.setenv("ADJUDICATOR_INSTANCE_DIR", "state")  # relative: from where it starts
    assert settings.value("INSTANCE_DIR") == str(tmp_path / "state")
    assert configured_app().config["LEXICON_DIR"] == str(tmp_path / "state" / "lexicons")


ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def _environment_uses(path: Path) -> list[str]:
    """`os.environ`, `os.getenv`… (or imported from os) in a module, as `path:line`."""
    uses = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT:
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                uses.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in ENVIRONMENT for alias in node.names):
                uses.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return uses


def test_only_the_settings_module_reads_or_writes_the_environment():
    """Settings are declared once: the environment is read and written in adjudicator.settings
    only (its `read`, and what a process passes on to the processes it starts)."""
    uses = []
    for package in ("adjudicator", "compiler", "lexicon"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "tests" in path.relative_to(ROOT).parts or path == PACKAGE / "settings.py":
                continue
            uses += _environment_uses(path)
    assert uses == []
