"""Every `ADJUDICATOR_*` setting declared once (adjudicator.settings: the fields of one frozen,
typed `Settings`), checked at the start, read as attributes of that object everywhere, and the
settings reference (docs/reference/settings.md) generated from the declaration, the one place
the settings are listed."""

from __future__ import annotations

import ast
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator import configured_app, create_app, settings
from adjudicator.settings import ConfigError, Settings, current_settings
from adjudicator.settings.__main__ import main as settings_main
from adjudicator.settings.reference import markdown_table

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
        ("SESSION_HOURS", "abc"),
        ("CACHE_MAX_AGE", "-5"),
        ("WORKERS", "abc"),
        ("THREADS", "0"),
        ("METRICS", "maybe"),
        ("LOG_FORMAT", "xml"),
        ("VERIFY_TIME_SHARE", "nan"),
        ("VERIFY_TIME_SHARE", "0"),
        ("MODE", "club"),
        ("ERROR_LOG", "/nonexistent/dir/error.log"),
        ("ACCESS_LOG", "/nonexistent/dir/access.log"),
    ],
)
def test_a_bad_value_in_the_environment_stops_the_app_naming_it(monkeypatch, name, value):
    monkeypatch.setenv(f"ADJUDICATOR_{name}", value)
    with pytest.raises(ConfigError, match=f"ADJUDICATOR_{name} must be"):
        configured_app()


SWITCHES = [name.upper() for name, f in Settings.model_fields.items() if f.annotation is bool]


@pytest.mark.parametrize("name", SWITCHES)
@pytest.mark.parametrize("value", ["t", "Y", "n", "F"])
def test_a_switch_takes_only_the_words_the_docs_list(monkeypatch, name, value):
    """pydantic also reads `t`, `y`, `n` and `f` as a switch (ADJUDICATOR_METRICS=t was on);
    the settings take only 1/true/yes/on and 0/false/no/off, in any case."""
    monkeypatch.setenv(f"ADJUDICATOR_{name}", value)
    wanted = "one of 1, true, yes, on, 0, false, no, off"
    with pytest.raises(ConfigError) as raised:
        settings.read()
    assert str(raised.value) == f"ADJUDICATOR_{name} must be {wanted}, not {value!r}"
    monkeypatch.setenv(f"ADJUDICATOR_{name}", f" {'On' if value in 'tY' else 'OFF'} ")
    assert getattr(settings.read(), name.lower()) is (value in "tY")


def test_a_bad_value_in_a_test_config_stops_the_app_naming_it():
    with pytest.raises(ConfigError, match="ADJUDICATOR_CACHE_MAX_AGE must be a whole number ≥ 0"):
        configured_app({"CACHE_MAX_AGE": -5})
    with pytest.raises(ConfigError, match="ADJUDICATOR_DEVICE_DAYS must be a whole number, not"):
        configured_app({"DEVICE_DAYS": "abc"})


def test_values_are_typed_and_defaults_kept(monkeypatch):
    for name in [k for k in os.environ if k.startswith("ADJUDICATOR_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("ADJUDICATOR_MAX_CONTENT_LENGTH", " 2048 ")
    monkeypatch.setenv("ADJUDICATOR_JUDGE_PIN", "0042")  # text: the zeros stay
    monkeypatch.setenv("ADJUDICATOR_METRICS", "yes")
    monkeypatch.setenv("ADJUDICATOR_SQLITE_SYNCHRONOUS", "normal")
    monkeypatch.setenv("ADJUDICATOR_RULESET_DIR", "")  # empty: unset
    monkeypatch.setenv("ADJUDICATOR_CORS_ORIGINS", '["https://a.example/"]')  # a JSON list
    app = configured_app({"TESTING": True, "EVENT": 2027, "METRICS_ALLOW": ["10.0.0.0/8"]})
    found = current_settings(app)
    assert found.max_content_length == 2048 == app.config["MAX_CONTENT_LENGTH"]  # Flask's own
    assert found.judge_pin == "0042"
    assert found.metrics is True
    assert found.sqlite_synchronous == "NORMAL"
    assert found.ruleset_dir is None
    assert found.event == "2027" and found.event_key == "2027"
    assert found.cors_origins == {"https://a.example"}
    assert [str(n) for n in found.metrics_allow] == ["10.0.0.0/8"]
    assert app.config["TESTING"] is True  # not a setting: Flask's config
    assert found.cache_max_age == 60 and found.session_seconds == 12 * 3600
    assert found.lexicon_dir.endswith(os.path.join("instance", "lexicons"))


def test_the_settings_are_one_frozen_object_never_in_flasks_config(lexicon_dir):
    """The settings, and what follows from them (the event's key, the lexicon folder), are the
    object's attributes: nothing is written back into the config for a module to read."""
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "EVENT": "NM 2027"})
    found = current_settings(app)
    with pytest.raises(ValueError, match="frozen"):
        found.mode = "tournament"  # type: ignore[misc]
    names = {name.upper() for name in Settings.model_fields} | {"EVENT_KEY"}
    assert names & set(app.config) == {"MAX_CONTENT_LENGTH"}  # Flask's own, set from the object
    assert found.event_key == "nm 2027" and not found.tournament


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
    [
        ("MAX_CONTENT_LENGTH", "abc"),
        ("SESSION_HOURS", "abc"),
        ("CACHE_MAX_AGE", "-5"),
        ("METRICS", "t"),
        ("ERROR_LOG", "/nonexistent/dir/error.log"),  # was gunicorn's "isn't writable", exit 1
    ],
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
    assert settings_main(["--check"]) == 2
    err = capsys.readouterr().err
    assert "ADJUDICATOR_BIND must be" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("value", GOOD_BINDS)
def test_every_form_of_bind_gunicorn_takes_is_accepted(monkeypatch, value):
    monkeypatch.setenv("ADJUDICATOR_BIND", value)
    assert settings.read().bind == value


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
    assert docs_hooks.GENERATORS["settings"]() == markdown_table()
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
    undeclared = {n: where for n, where in named.items() if not settings.is_setting(n)}
    assert not undeclared, f"declare these in adjudicator/settings/__init__.py: {undeclared}"


def test_each_declaration_is_complete(monkeypatch):
    for name, field in Settings.model_fields.items():
        assert name.islower() and field.description, name  # why it exists: the reference says
        assert "\n" not in field.description and "|" not in field.description
    for name in [k for k in os.environ if k.startswith("ADJUDICATOR_")]:
        monkeypatch.delenv(name)
    settings.read()  # every default passes its own rule


def test_the_instance_folder_is_the_same_from_any_folder(tmp_path, monkeypatch):
    """Issue 28 item 8: the state's home is Flask's instance folder for the package, not the
    current folder; the lexicons, the SQLite store and the run directory default to it."""
    from adjudicator.store import default_url

    for name in [k for k in os.environ if k.startswith("ADJUDICATOR_")]:
        monkeypatch.delenv(name)
    home = settings.read().instance_dir
    monkeypatch.chdir(tmp_path)
    assert settings.read().instance_dir == home == str(ROOT / "instance")
    app = configured_app({"TESTING": True})
    assert app.instance_path == home
    assert current_settings(app).lexicon_dir == os.path.join(home, "lexicons")
    assert settings.read().run_directory == os.path.join(home, "run", "127.0.0.1-8000")
    assert default_url(app.instance_path) == f"sqlite:///{home}/adjudicator.db"
    monkeypatch.setenv("ADJUDICATOR_INSTANCE_DIR", "state")  # relative: from where it starts
    assert settings.read().instance_dir == str(tmp_path / "state")
    assert current_settings(configured_app()).lexicon_dir == str(tmp_path / "state" / "lexicons")


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


def test_only_the_settings_and_environment_modules_read_or_write_the_environment():
    """Settings are declared once: the environment is read in adjudicator.settings only (by
    pydantic-settings, and `read` given another process's), and written, with what a process
    passes on to the processes it starts, in adjudicator.environment."""
    allowed = {PACKAGE / "environment.py", *(PACKAGE / "settings").glob("*.py")}
    uses = []
    for package in ("adjudicator", "compiler", "lexicon"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "tests" in path.relative_to(ROOT).parts or path in allowed:
                continue
            uses += _environment_uses(path)
    assert uses == []


NAMES = {name.upper() for name in Settings.model_fields}


def _string_reads(path: Path) -> list[str]:
    """Each read of a setting by its name as a string in a module: `config["MODE"]`,
    `config.get("MODE", …)`, `getattr(config, "MODE")`, `config.MODE`, as `path:line: NAME`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        name = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            name = node.slice.value if isinstance(node.slice, ast.Constant) else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("get", "pop", "setdefault") and node.args:
                first = node.args[0]
                name = first.value if isinstance(first, ast.Constant) else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "getattr" and len(node.args) > 1:
                second = node.args[1]
                name = second.value if isinstance(second, ast.Constant) else None
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            name = node.attr
        if isinstance(name, str) and name in NAMES:
            found.append(f"{path}:{node.lineno}: {name}")
    return found


def test_the_scan_sees_every_form_of_a_string_read(tmp_path):
    module = tmp_path / "reads.py"
    module.write_text(
        'a = app.config["MODE"]\nb = current_app.config.get("EVENT", "")\n'
        'c = getattr(config, "BIND")\nd = config.WORKERS\napp.config["TESTING"] = True\n'
        "e = settings.mode\n",
        encoding="utf-8",
    )
    reads = [line.rsplit(": ", 1)[1] for line in _string_reads(module)]
    assert reads == ["MODE", "EVENT", "BIND", "WORKERS"]


def test_no_module_reads_a_setting_by_its_name():
    """A setting is read as an attribute of the one object (`current_settings().mode`), never
    by its name from Flask's config or a mapping, where a default would be repeated and a typo
    would read nothing. Only the factory (adjudicator/__init__.py) hands Flask its own limit."""
    reads = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "tests" not in path.relative_to(PACKAGE).parts:
            reads += _string_reads(path)
    assert reads == []


def test_another_processes_environment_is_read_alone(monkeypatch):
    """`adjudicator reload` reads the running instance's settings from its environment
    (/proc/PID/environ), not from its own: the same rules, an empty variable unset."""
    monkeypatch.setenv("ADJUDICATOR_MODE", "tournament")
    theirs = settings.read({"ADJUDICATOR_THREADS": " 2 ", "ADJUDICATOR_EVENT": "", "HOME": "/"})
    assert theirs.threads == 2 and theirs.mode == "open" and theirs.event == ""
    with pytest.raises(ConfigError, match="ADJUDICATOR_THREADS must be a whole number ≥ 1"):
        settings.read({"ADJUDICATOR_THREADS": "0"})
