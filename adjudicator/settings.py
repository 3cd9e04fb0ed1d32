"""Every `ADJUDICATOR_*` setting, declared once: its type, default, bounds and meaning.

The app (`adjudicator.configured_app`), `adjudicator serve`, the other commands and gunicorn's
settings (`adjudicator.process.gunicorn_conf`) all read their settings through `read`, so a bad value
stops the start naming its variable, instead of a 500 on the first request that uses it.

A value comes from the environment (text) or from a test's config mapping (Python values: `8`,
`True`, a list of origins). An empty variable counts as unset. A setting is added by one
`Setting(...)` line in `DECLARED`; the docs site's settings reference (docs/reference/settings.md)
is `markdown_table()`, rendered when the site is built, so it cannot drift from this list.
"""

from __future__ import annotations

import functools
import importlib
import ipaddress
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

PREFIX = "ADJUDICATOR_"
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


class ConfigError(ValueError):
    """A setting the service cannot start with; the message names its variable."""


@dataclass(frozen=True)
class Setting:
    """One setting: `ADJUDICATOR_<name>` in the environment, `<name>` in the app's config."""

    name: str
    type: type  # int, float, bool, str, or list (comma-separated text, or a list)
    default: Any  # a callable is called when the setting is read (a default from the machine)
    description: str  # one line, for the settings reference
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()  # compared without case; the value is the choice as written
    check: Callable[[Any], Any] | str | None = None  # "module:function" is imported when used
    default_doc: str | None = None  # the default as the table shows it, where it is computed
    internal: bool = False  # set by the service itself, not by an operator: not in the table

    @property
    def variable(self) -> str:
        return PREFIX + self.name

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default

    def fail(self, value: object, wanted: str) -> ConfigError:
        return ConfigError(f"{self.variable} must be {wanted}, not {value!r}")

    def parse(self, value: Any) -> Any:
        """The value as the service uses it, checked; ConfigError naming the variable if not."""
        if value is None:
            if self.default_value() is None:
                return None
            raise self.fail(value, "set")
        parsed = _PARSERS[self.type](self, value)
        if self.choices:
            wanted = f"one of {', '.join(self.choices)}"
            if not isinstance(parsed, str):
                raise self.fail(value, wanted)
            by_case = {c.lower(): c for c in self.choices}
            if parsed.strip().lower() not in by_case:
                raise self.fail(value, wanted)
            parsed = by_case[parsed.strip().lower()]
        if self.minimum is not None and parsed < self.minimum:
            raise self.fail(value, f"a {_kind(self)} ≥ {self.minimum:g}")
        if self.maximum is not None and parsed > self.maximum:
            raise self.fail(value, f"a {_kind(self)} ≤ {self.maximum:g}")
        if self.check is not None:
            check = _resolve(self.check)
            try:
                parsed = check(parsed)
            except ConfigError:
                raise
            except ValueError as exc:
                raise ConfigError(f"{self.variable}: {exc}") from None
        return parsed


def _kind(setting: Setting) -> str:
    return "whole number" if setting.type is int else "number"


def _resolve(check: Callable[[Any], Any] | str) -> Callable[[Any], Any]:
    if callable(check):
        return check
    module, _, name = check.partition(":")
    return getattr(importlib.import_module(module), name)


def _int(setting: Setting, value: Any) -> int:
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit() and text.isascii():
            return int(text)
    elif isinstance(value, int) and not isinstance(value, bool):
        return value
    raise setting.fail(value, "a whole number")


def _float(setting: Setting, value: Any) -> float:
    number: float | None = None
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            pass
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    if number is None or not math.isfinite(number):
        raise setting.fail(value, "a number")
    return number


def _bool(setting: Setting, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise setting.fail(value, f"one of {', '.join(TRUE + FALSE)}")


def _text(setting: Setting, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):  # `2027`, `42` in a test mapping
        return str(value)
    raise setting.fail(value, "text")


def _list(setting: Setting, value: Any) -> str | list[str]:
    """Comma-separated text, or a list: a JSON list in the environment, or a Python one."""
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            raise setting.fail(value, "a comma-separated list or a JSON list") from None
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple | set | frozenset):
        return [str(item) for item in value]
    raise setting.fail(value, "a comma-separated list")


_PARSERS: dict[type, Callable[[Setting, Any], Any]] = {
    int: _int,
    float: _float,
    bool: _bool,
    str: _text,
    list: _list,
}


# --- rules a type and bounds cannot say --------------------------------------------------


def time_zone(name: str) -> str:
    """An IANA zone's name (`Europe/Copenhagen`), or empty for the machine's own zone."""
    if name:
        try:
            ZoneInfo(name)
        except (ValueError, ZoneInfoNotFoundError):  # ValueError: a path, not a zone's name
            raise ConfigError(
                f"{PREFIX}TIME_ZONE must be an IANA time zone (Europe/Copenhagen), not {name!r}"
            ) from None
    return name


def networks(value: object) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Networks from comma-separated text or a list (`127.0.0.1/8,::1`)."""
    items = value.split(",") if isinstance(value, str) else list(value or ())  # type: ignore[call-overload]
    try:
        return tuple(ipaddress.ip_network(str(item).strip(), strict=False) for item in items)
    except ValueError as exc:
        raise ConfigError(f"{PREFIX}METRICS_ALLOW: {exc}") from None


def _checked_networks(value: Any) -> Any:
    networks(value)
    return value


def access_log(value: str) -> str | None:
    """Where gunicorn writes its access log: nowhere by default (`off`), since nginx in front
    logs every request and gunicorn's own line costs 60-110 µs of a worker's CPU per request
    even written to /dev/null (benchmarks/ruling_cost.py); `-` is standard output, anything
    else a file, whose directory must exist."""
    value = value.strip()
    if value.lower() in ("", "off"):
        return None
    if value != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(value))):
        raise ConfigError(
            f"{PREFIX}ACCESS_LOG must be off, - (standard output) or a file in an existing"
            f" directory, not {value!r}: no such directory"
        )
    return value


# A host name as gunicorn resolves it: dot-separated labels of letters, digits and inner hyphens.
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")
PORT_MAX = 65535


def _bind_address(item: str) -> str | None:
    """What is wrong with one address of `BIND` in gunicorn's syntax (`HOST:PORT`, `HOST`,
    `[IPv6]:PORT`, `unix:PATH`, `fd://N`), or None."""
    if not item:
        return "an empty address"
    if item.startswith("unix:"):
        return None if item.removeprefix("unix:") else "unix: without a path"
    if item.startswith("fd://"):
        number = item.removeprefix("fd://")
        return None if number.isascii() and number.isdigit() else "not fd://N"
    host, port = item, None
    if item.startswith("["):  # [IPv6] or [IPv6]:PORT
        inside, closed, rest = item[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            return "an IPv6 address is written [::1]:8000"
        host, port = inside, rest[1:] if rest else None
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return f"{host!r} is not an IPv6 address"
    else:
        if item.count(":") > 1:
            return "an IPv6 address is written in brackets, [::1]:8000"
        host, colon, after = item.partition(":")
        port = after if colon else None
        if not all(_HOST_LABEL.fullmatch(label) for label in host.split(".")):
            return f"{host!r} is not a host name or IPv4 address"
        if host.replace(".", "").isdigit():  # numbers only: an IPv4 address or nothing
            try:
                ipaddress.IPv4Address(host)
            except ValueError:
                return f"{host!r} is not an IPv4 address"
    if port is not None and not (port.isascii() and port.isdigit() and int(port) <= PORT_MAX):
        return f"the port must be a number from 0 to {PORT_MAX}, not {port!r}"
    return None


def bind(value: str) -> str:
    """`BIND`: gunicorn's addresses, comma-separated, each checked here, so that a port past
    65535 or a stray comma stops the start naming the variable, not a traceback from gunicorn
    (`--check` says so too)."""
    for item in value.split(","):
        wrong = _bind_address(item.strip())
        if wrong is not None:
            where = f"{item.strip()!r}: " if "," in value else ""
            raise ConfigError(
                f"{PREFIX}BIND must be HOST:PORT, [IPv6]:PORT, unix:PATH or fd://N,"
                f" comma-separated, not {value!r}: {where}{wrong}"
            )
    return value


def _share(value: float) -> float:
    if value <= 0:
        raise ConfigError(f"{PREFIX}VERIFY_TIME_SHARE must be a number > 0 and ≤ 1, not {value!r}")
    return value


@functools.cache
def default_instance_dir() -> str:
    """Flask's instance folder for the package, never the current folder: `instance/` beside
    the package in a checkout (where `make serve` has always kept its state),
    `<venv>/var/adjudicator-instance` when installed. So `adjudicator serve` and `adjudicator
    reload` (or `db`) started in different folders agree on where the state is."""
    from flask import Flask

    return Flask("adjudicator").instance_path


def absolute_path(value: str) -> str:
    """A folder as an absolute path: a relative one is taken from where the process starts."""
    return os.path.abspath(value)


def lexicon_dir(values: Mapping[str, Any]) -> str:
    """Where the lexicons are: `LEXICON_DIR`, else the instance folder's `lexicons/`."""
    return values["LEXICON_DIR"] or os.path.join(values["INSTANCE_DIR"], "lexicons")


def default_workers() -> int:
    """One per core, at least 2 (one dying leaves another serving), at most 4. Measured on 2
    cores (benchmarks/machinery.py): 4 workers gave a quarter less throughput, 30-40 % more
    CPU per ruling and twice the commits of 2, since more workers split the rulings in flight
    into smaller group commits and contend for the same cores."""
    return max(2, min(4, os.cpu_count() or 1))


# --- the declaration ---------------------------------------------------------------------

S = Setting
DECLARED: tuple[Setting, ...] = (
    # Where things are
    S("INSTANCE_DIR", str, default_instance_dir, "the service's state, whichever folder a "
      "command starts in: the default home of the lexicons (`lexicons/`), the SQLite store "
      "(`adjudicator.db`) and the run directories (`run/<first bind address>`)",
      check=absolute_path, default_doc="`instance/` beside the package in a checkout; "
      "`<venv>/var/adjudicator-instance` when installed"),
    S("LEXICON_DIR", str, None, "compiled lexicons; all `*.json` there are loaded",
      default_doc="`<instance>/lexicons`"),
    S("RULESET_DIR", str, None, "a deployment's rulesets: `<id>.toml` adds or replaces one; "
      "`lexicons.toml` maps ruleset id → lexicon id", default_doc="none"),
    S("RULESETS", str, None, "the rulesets the deployment must serve (comma-separated): "
      "`readyz` is 503 while one of them cannot", default_doc="all known rulesets"),
    S("DATABASE_URL", str, None, "the store ([PostgreSQL](../how-to/postgresql.md#the-store)); "
      "`postgresql+psycopg://USER:PASSWORD@HOST/DB` for several boxes",
      default_doc="`sqlite:///<instance>/adjudicator.db`"),
    S("DATABASE_AUTO_UPGRADE", bool, True, "`0`: an embedded SQLite store is not migrated at "
      "start either (`adjudicator db upgrade`)", default_doc="`1`"),
    S("SQLITE_SYNCHRONOUS", str, "FULL", "SQLite's `synchronous`: `FULL` survives a power cut, "
      "`NORMAL` only a crashed process", choices=("FULL", "NORMAL")),
    S("RUN_DIR", str, None, "this instance's pidfile, gunicorn control socket, worker-exit log, "
      "last reload", default_doc="`<instance>/run/<first bind address>`"),
    # Requests
    S("MAX_CONTENT_LENGTH", int, 16 * 1024, "largest request body, in bytes (`games/verify` "
      "takes up to 64 KiB: a whole record)", minimum=1),
    S("VERIFY_TIME_SHARE", float, None, "share of each worker's time `games/verify` may take over "
      "a sliding second; past it `429 verify_busy` with Retry-After (1 turns it off)",
      maximum=1, check=_share, default_doc="0.05"),
    S("IDEMPOTENCY_TTL_SECONDS", int, 86400, "how long an `Idempotency-Key` is remembered "
      "([retries](../reference/http-api.md#retries-idempotency-key))", minimum=0),
    S("PUBLIC_URL", str, None, "the URL the service is published at (`https://scrabble.example`); "
      "`openapi.json`'s `servers` is built from it, else from the request's own host",
      default_doc="none"),
    S("CORS_ORIGINS", list, "", "origins whose browser apps may call the API: "
      "`https://app.example,https://club.example`, or `*` for any",
      check="adjudicator.web.cors:checked_origins", default_doc="none (CORS off)"),
    S("CACHE_MAX_AGE", int, 60, "seconds `/lexicons`, `/rulesets` and `/openapi.json` may be "
      "cached", minimum=0),
    # gunicorn
    S("BIND", str, "127.0.0.1:8000", "gunicorn bind address(es), comma-separated, each "
      "`HOST:PORT` (port 0–65535), `[IPv6]:PORT`, `unix:PATH` or `fd://N`; "
      "`0.0.0.0:8000` serves the venue's network "
      "([the judge's tablet](../how-to/judge-tablets.md#the-judges-tablet-judgeruleset))",
      check=bind),
    S("WORKERS", int, default_workers, "gunicorn worker processes", minimum=1, maximum=256,
      default_doc="one per core, at least 2, at most 4"),
    S("THREADS", int, 8, "threads per worker (gthread), so that rulings answered at the same "
      "moment share one commit of the audit log; `1` runs gunicorn's sync worker", minimum=1,
      maximum=1024),
    S("ACCESS_LOG", str, "off", "gunicorn's access log: `off` (nginx in front logs every "
      "request; the line costs a worker 60-110 µs), `-` standard output, or a file",
      check=access_log),
    S("ERROR_LOG", str, "-", "gunicorn's error log (`-`: standard error)"),
    S("LOG_LEVEL", str, "info", "the error log's level",
      choices=("debug", "info", "warning", "error", "critical")),
    S("LOG_FORMAT", str, "plain", "`json`: every log line one JSON object (no request bodies, "
      "so no words)", choices=("plain", "json")),
    # Operations
    S("METRICS", bool, False, "`1` serves `/metrics` (Prometheus) to `ADJUDICATOR_METRICS_ALLOW` "
      "([Metrics](../how-to/monitoring.md#metrics-and-logs))", default_doc="off"),
    S("METRICS_ALLOW", list, "127.0.0.1/8,::1", "networks that may scrape `/metrics`",
      check=_checked_networks),
    S("ALLOW_PARTIAL", bool, False, "`1`: `readyz` stays ready while some required rulesets "
      "cannot serve (at least one must)", default_doc="`0`"),
    S("CRASH_LIMIT", int, 3, "`readyz` is 503 after this many abnormal worker exits within "
      "`ADJUDICATOR_CRASH_WINDOW_SECONDS`", minimum=1),
    S("CRASH_WINDOW_SECONDS", float, 60, "the window `ADJUDICATOR_CRASH_LIMIT` counts in",
      minimum=0),
    # The judge's tablet
    S("JUDGE_PIN", str, None, "the director's PIN (kept as text: `0042` stays `0042`)",
      default_doc="unset: nothing unlocks"),
    S("JUDGE_RESULT_SECONDS", float, 10, "how long a verdict stays", minimum=0),
    S("JUDGE_TAP_GUARD_SECONDS", float, 0.5, "taps ignored after a verdict appears", minimum=0),
    S("JUDGE_IDLE_SECONDS", float, 60, "half-typed words are cleared after this long without a "
      "touch or key (checking five words against the board takes longer than 15 s)", minimum=0),
    S("JUDGE_IDLE_WARNING_SECONDS", float, 10, "the last seconds of the idle time, counted down "
      "on the screen", minimum=0),
    S("JUDGE_LOCK_SECONDS", float, 15, "the PIN screen and the unlocked menu lock again after "
      "this long idle", minimum=0),
    S("JUDGE_REQUEST_SECONDS", float, 8, "then the page shows \"no answer\"", minimum=0),
    S("JUDGE_PIN_ATTEMPTS", int, 5, "wrong PINs per tablet in the window", minimum=1),
    S("JUDGE_PIN_WINDOW_SECONDS", int, 900, "the window wrong PINs are counted in", minimum=1),
    # Who is asking
    S("MODE", str, "open", "`tournament`: lexicon answers need a credential",
      choices=("open", "tournament")),
    S("RATE_RULINGS_PER_MINUTE", int, 20, "rulings in any 60 s per judge device and per app key, "
      "tournament mode", minimum=1),
    S("LOGIN_ATTEMPTS", int, 5, "wrong passwords per account and client in the window",
      minimum=1),
    S("LOGIN_WINDOW_SECONDS", int, 900, "the window wrong passwords are counted in", minimum=1),
    S("LOGIN_ACCOUNT_ATTEMPTS", int, 20, "failures of an account from all clients before clients "
      "that failed are slowed down", minimum=1),
    S("LOGIN_SLOWDOWN_SECONDS", int, 10, "the slow-down after the latest failure", minimum=0),
    S("PAIRING_ATTEMPTS", int, 10, "wrong pairing codes per client in the window", minimum=1),
    S("PAIRING_WINDOW_SECONDS", int, 600, "the window wrong pairing codes are counted in",
      minimum=1),
    S("SESSION_HOURS", int, 12, "a director's session", minimum=1),
    S("DEVICE_DAYS", int, 7, "a paired judge device, unless revoked before", minimum=1),
    S("PAIRING_MINUTES", int, 5, "a pairing code", minimum=1),
    S("OPEN_MODE_AUDIT", str, "all", "what open mode records in the audit log: `all` rulings or "
      "`none` (tournament mode always records every ruling)", choices=("all", "none")),
    S("TRUSTED_PROXIES", int, 0, "proxies whose `X-Forwarded-For`/`-Proto`/`-Host` are believed "
      "(nginx in front: 1)", minimum=0),
    # The event
    S("JURY_LIMIT", str, "ruleset", "`on`: this event counts jury words (a national tournament); "
      "`off`: it does not; `ruleset`: as the ruleset's `jury_limit_applies` says",
      choices=("ruleset", "on", "off")),
    S("EVENT", str, "", "the event (a name of at most 64 characters, under PRECIS Nickname: an "
      "invisible character stops the start, named): every ruling is recorded under it, and the "
      "jury counts belong to it",
      check="adjudicator.audit.jury:checked_event", default_doc="empty"),
    S("TIME_ZONE", str, "", "the event's IANA time zone (`Europe/Copenhagen`): every page and "
      "spreadsheet export shows times in it (the JSON export and API keep UTC)", check=time_zone,
      default_doc="the machine's zone"),
    # Set by the service itself
    S("METRICS_DIR_OWNER", str, None, "the gunicorn master that made the metrics folder",
      internal=True),
)  # fmt: skip
del S

SETTINGS: dict[str, Setting] = {s.name: s for s in DECLARED}


def bounds(name: str) -> tuple[int, int]:
    """A whole-number setting's (minimum, maximum), for a command's option that sets it."""
    setting = next(s for s in DECLARED if s.name == name)
    return int(setting.minimum or 0), int(setting.maximum or sys.maxsize)


def read(
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    names: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The settings by name (`MODE`, not `ADJUDICATOR_MODE`), checked: the default, then the
    environment's `ADJUDICATOR_<name>` (an empty one counts as unset), then `overrides` (a test's
    config). The first bad value raises ConfigError naming its variable."""
    environ = os.environ if environ is None else environ
    overrides = overrides or {}
    values: dict[str, Any] = {}
    for name in SETTINGS if names is None else names:
        setting = SETTINGS[name]
        if name in overrides:
            values[name] = setting.parse(overrides[name])
        elif environ.get(setting.variable, "") != "":
            values[name] = setting.parse(environ[setting.variable])
        else:
            values[name] = setting.parse(setting.default_value())
    return values


def value(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """One setting, checked (the commands that need one or two)."""
    return read(environ, names=(name,))[name]


def read_or_exit(environ: Mapping[str, str] | None = None, names: Iterable[str] | None = None):
    """`read` for a start outside the app (gunicorn's settings): a bad value ends the process
    with one line and exit status 2, never a traceback."""
    try:
        return read(environ, names=names)
    except ConfigError as exc:
        sys.stderr.write(f"adjudicator: cannot start: {exc}\n")
        sys.stderr.flush()
        raise SystemExit(2) from None


# --- the environment a process passes on -------------------------------------------------
# The other modules neither read nor write `os.environ`: `adjudicator serve` hands its settings
# to gunicorn, and gunicorn's master to its app and workers, through these.

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's own variable, not a setting


def environment_for_child(**values: Any) -> dict[str, str]:
    """This process's environment with `ADJUDICATOR_<name>` set to each of `values`: for a
    process it starts (`adjudicator serve` replaces itself with gunicorn)."""
    return dict(os.environ) | {SETTINGS[name].variable: str(v) for name, v in values.items()}


def set_for_children(**values: Any) -> None:
    """Settings the gunicorn master decides (its run directory, the metrics folder's owner),
    put in its environment: the app it builds and the workers it forks read them in `read`."""
    os.environ.update({SETTINGS[name].variable: str(v) for name, v in values.items()})


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


def _default_text(setting: Setting) -> str:
    if setting.default_doc is not None:
        return setting.default_doc
    default = setting.default
    if isinstance(default, bool):
        return f"`{int(default)}`"
    if isinstance(default, str):
        return f"`{default}`" if default else "empty"
    return f"{default:g}" if isinstance(default, float) else str(default)


def _rule_text(setting: Setting) -> str:
    if setting.choices:
        return "one of " + ", ".join(f"`{c}`" for c in setting.choices)
    kinds = {int: "whole number", float: "number", bool: "`0` or `1`", list: "comma-separated"}
    kind = kinds.get(setting.type, "text")
    bounds = []
    if setting.minimum is not None:
        bounds.append(f"≥ {setting.minimum:g}")
    if setting.maximum is not None:
        bounds.append(f"≤ {setting.maximum:g}")
    return " ".join([kind, *bounds]).strip()


def markdown_table() -> str:
    """The settings as a Markdown table: the docs site's settings reference, links relative to it."""
    lines = ["| variable | default | allowed | meaning |", "|---|---|---|---|"]
    for setting in DECLARED:
        if setting.internal:
            continue
        cells = [f"`{setting.variable}`", _default_text(setting), _rule_text(setting)]
        lines.append("| " + " | ".join([*cells, setting.description]) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m adjudicator.settings --markdown`: print the table; `--check`: read the
    environment's settings and say whether the service could start with them."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--markdown"]:
        sys.stdout.write(markdown_table())
        return 0
    if args == ["--check"]:
        try:
            read()
        except ConfigError as exc:
            print(f"adjudicator: {exc}", file=sys.stderr)
            return 2
        print("settings: ok")
        return 0
    print("usage: python -m adjudicator.settings --markdown | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
