"""Every `ADJUDICATOR_*` setting, declared once as a field of `Settings`: its type, default,
bounds, rule and the reason it exists.

`read` builds the one frozen, typed `Settings` object (pydantic-settings: the default, then the
environment's `ADJUDICATOR_<NAME>`, an empty variable counting as unset, then a test's mapping
of names, `{"MODE": "tournament"}`). The app keeps it (`current_settings()`); `adjudicator
serve`, the other commands and gunicorn's settings read it before the app exists. A bad value
stops the start with one line naming its variable (`ConfigError`), never a traceback. What is
worked out from the settings (the event's key, the lexicon folder, the run directory,
tournament mode) is a property of the object, never written anywhere. The settings reference
(docs/reference/settings.md) is generated from the fields (`adjudicator.settings.reference`).

What no operator would change is a constant in the module that uses it (the judge's timers,
the login and pairing lockouts, the crash window, how long an Idempotency-Key is kept).
"""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import re
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import tzinfo
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args, get_origin
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, EnvSettingsSource, NoDecode, SettingsConfigDict
from pydantic_settings.sources.utils import parse_env_vars

if TYPE_CHECKING:
    from flask import Flask

PREFIX = "ADJUDICATOR_"
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")
PORT_MAX = 65535
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Synchronous = Literal["FULL", "NORMAL"]  # SQLite's `synchronous` (adjudicator.store)


class ConfigError(ValueError):
    """A setting the service cannot start with; the message names its variable."""


def variable(name: str) -> str:
    """A field's environment variable: `mode` is `ADJUDICATOR_MODE`."""
    return PREFIX + name.upper()


# --- rules a type and bounds cannot say --------------------------------------------------


@functools.cache
def default_instance_dir() -> str:
    """Flask's instance folder for the package, never the current folder: `instance/` beside
    the package in a checkout (where `make serve` has always kept its state),
    `<venv>/var/adjudicator-instance` when installed. So `adjudicator serve` and `adjudicator
    reload` (or `db`) started in different folders agree on where the state is."""
    from flask import Flask

    return Flask("adjudicator").instance_path


def default_workers() -> int:
    """One per core, at least 2 (one dying leaves another serving), at most 4. Measured on 2
    cores (benchmarks/machinery.py, 5 December, group commit that takes what queues): at 16
    clients 4 workers gave 0.78-1.45x the throughput and 0.93-1.28x the CPU per ruling of 2,
    with more commits (0.20-0.35 a ruling against 0.18-0.26: more workers split the rulings in
    flight into smaller commits); 1 worker was within the noise of 2."""
    return max(2, min(4, os.cpu_count() or 1))


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


def _items(value: object, name: str) -> list[str]:
    """Comma-separated text, a JSON list (as the environment gives one), or a list."""
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            raise ConfigError(
                f"{variable(name)} must be a comma-separated list or a JSON list, not {value!r}"
            ) from None
    if isinstance(value, str):
        return [item.strip() for item in value.split(",")]
    if isinstance(value, list | tuple | set | frozenset):
        return [str(item).strip() for item in value]
    raise ConfigError(f"{variable(name)} must be a comma-separated list, not {value!r}")


def origins(value: object) -> frozenset[str]:
    """CORS origins (`https://app.example`, `*`), each `scheme://host[:port]`."""
    found = frozenset(item.rstrip("/") for item in _items(value, "cors_origins") if item)
    for origin in found:
        if origin != "*" and "://" not in origin:
            raise ConfigError(
                f"{PREFIX}CORS_ORIGINS: {origin!r} is not an origin (scheme://host[:port])"
            )
    return found


def networks(value: object) -> tuple[Network, ...]:
    """Networks from comma-separated text or a list (`127.0.0.1/8,::1`)."""
    try:
        return tuple(
            ipaddress.ip_network(item, strict=False) for item in _items(value, "metrics_allow")
        )
    except ValueError as exc:
        raise ConfigError(f"{PREFIX}METRICS_ALLOW: {exc}") from None


def access_log(value: str) -> str | None:
    """Where gunicorn writes its access log: nowhere by default (`off`), since nginx in front
    logs every request and gunicorn's own line costs 60-110 µs of a worker's CPU per request
    even written to /dev/null (benchmarks/ruling_cost.py); `-` is standard output, anything
    else a file, whose directory must exist."""
    value = value.strip()
    if value.lower() in ("", "off"):
        return None
    return log_file(value, "access_log", "off, - (standard output)")


def log_file(value: str, name: str, stream: str) -> str:
    """A gunicorn log: `-`, or a file whose directory exists, so that a wrong path stops the
    start naming its variable, not gunicorn's "isn't writable" (exit 1)."""
    if value != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(value))):
        raise ConfigError(
            f"{variable(name)} must be {stream} or a file in an existing directory, not"
            f" {value!r}: no such directory"
        )
    return value


# A host name as gunicorn resolves it: dot-separated labels of letters, digits and inner hyphens.
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


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


def event(name: str) -> str:
    """`EVENT`: empty, or a name under the event's PRECIS profile (Nickname) of at most
    LABEL_MAX characters once compared, as the jury counts' key column holds; in the profile's
    form, as it is shown."""
    if not name.strip():
        return ""
    from adjudicator.store import labelforms  # loaded only for an event: PRECIS's tables

    try:
        shown = labelforms.shown("event", name)
        compared = labelforms.key("event", shown)
    except labelforms.Refused as refused:
        raise ConfigError(f"{PREFIX}EVENT is not a valid name: it has {refused}") from None
    if len(compared) > labelforms.LABEL_MAX or len(shown) > labelforms.LABEL_MAX:
        raise ConfigError(
            f"{PREFIX}EVENT must be text of at most {labelforms.LABEL_MAX} characters"
        )
    return shown


def _setting(default: Any, why: str, shown: str | None = None, **rules: Any) -> Any:
    """A field: its default (a callable is called when read), why it exists (the settings
    reference's meaning), and its default as the reference shows it where it is computed."""
    extra = {"shown": shown} if shown is not None else None
    given = {"default_factory": default} if callable(default) else {"default": default}
    return Field(**given, description=why, json_schema_extra=extra, **rules)


# --- the declaration ---------------------------------------------------------------------


class Settings(BaseSettings):
    """The service's settings, read once: `ADJUDICATOR_<NAME>` for the field `<name>`."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX,
        env_ignore_empty=True,  # an empty variable counts as unset
        frozen=True,
        extra="forbid",
        allow_inf_nan=False,
        coerce_numbers_to_str=True,  # `EVENT: 2027` in a test's mapping, `JUDGE_PIN: 4711`
        validate_default=True,
    )

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, **files):  # type: ignore[override]
        """A test's or a command's values, then the environment: this process's, or the one
        `read` was given. No .env file, no secrets folder."""
        environ = _ENVIRON.get()
        return init_settings, env_settings if environ is None else _Environment(environ)

    # The rules a type and bounds cannot say (before the fields, whose names they share).
    _instance_dir = field_validator("instance_dir")(lambda v: os.path.abspath(v))
    _cors_origins = field_validator("cors_origins", mode="before")(origins)
    _metrics_allow = field_validator("metrics_allow", mode="before")(networks)
    _bind = field_validator("bind")(bind)
    _access_log = field_validator("access_log")(access_log)
    _error_log = field_validator("error_log")(
        lambda v: log_file(v, "error_log", "- (standard error)")
    )
    _event = field_validator("event")(event)
    _time_zone = field_validator("time_zone")(time_zone)
    _rulesets = field_validator("rulesets", mode="before")(
        lambda v: tuple(sorted({i for i in _items(v, "rulesets") if i}))
    )

    # fmt: off
    # Where things are
    instance_dir: str = _setting(default_instance_dir, "the service's state, whichever folder "
        "a command starts in: the default home of the lexicons (`lexicons/`), the SQLite store "
        "(`adjudicator.db`) and the run directories (`run/<first bind address>`)",
        "`instance/` beside the package in a checkout; `<venv>/var/adjudicator-instance` when "
        "installed")
    lexicon_dir: str = _setting(lambda data: os.path.join(data.get("instance_dir", ""),
        "lexicons"), "compiled lexicons, when they are kept apart from the state; all `*.json` "
        "there are loaded", "`<instance>/lexicons`")
    ruleset_dir: str | None = _setting(None, "a deployment's rulesets: `<id>.toml` adds or "
        "replaces one; `lexicons.toml` maps ruleset id → lexicon id", "none")
    rulesets: Annotated[tuple[str, ...], NoDecode] = _setting((), "the rulesets the deployment "
        "must serve (comma-separated): `readyz` is 503 while one of them cannot",
        "all known rulesets")
    database_url: str | None = _setting(None, "the store ([PostgreSQL](../how-to/postgresql.md"
        "#the-store)); `postgresql+psycopg://USER:PASSWORD@HOST/DB` for several boxes",
        "`sqlite:///<instance>/adjudicator.db`")
    database_auto_upgrade: bool = _setting(True, "`0`: an embedded SQLite store is not "
        "migrated at start either (`adjudicator db upgrade`)")
    sqlite_synchronous: Synchronous = _setting("FULL", "SQLite's `synchronous`: "
        "`FULL` survives a power cut, `NORMAL` only a crashed process")
    run_dir: str | None = _setting(None, "this instance's pidfile, gunicorn control socket, "
        "worker-exit log, last reload, where two instances share an instance folder",
        "`<instance>/run/<first bind address>`")
    # Requests
    max_content_length: int = _setting(16 * 1024, "largest request body, in bytes (`games/"
        "verify` takes up to 64 KiB: a whole record)", ge=1)
    verify_time_share: float | None = _setting(None, "share of each worker's time `games/verify`"
        " may take over a sliding second; past it `429 verify_busy` with Retry-After (1 turns it"
        " off)", "0.05", gt=0, le=1)
    public_url: str | None = _setting(None, "the URL the service is published at (`https://"
        "scrabble.example`); `openapi.json`'s `servers` is built from it, else from the "
        "request's own host", "none")
    cors_origins: Annotated[frozenset[str], NoDecode] = _setting(frozenset(), "origins whose "
        "browser apps may call the API: `https://app.example,https://club.example`, or `*` for "
        "any", "none (CORS off)")
    cache_max_age: int = _setting(60, "seconds `/lexicons`, `/rulesets` and `/openapi.json` may "
        "be cached: longer behind a caching proxy, 0 while the lexicons are being changed", ge=0)
    # gunicorn
    bind: str = _setting("127.0.0.1:8000", "gunicorn bind address(es), comma-separated, each "
        "`HOST:PORT` (port 0–65535), `[IPv6]:PORT`, `unix:PATH` or `fd://N`; `0.0.0.0:8000` "
        "serves the venue's network ([the judge's tablet](../how-to/judge-tablets.md"
        "#the-judges-tablet-judgeruleset))")
    workers: int = _setting(default_workers, "gunicorn worker processes: as the machine's cores "
        "allow", "one per core, at least 2, at most 4",
        ge=1, le=256)
    threads: int = _setting(8, "threads per worker (gthread), so that rulings answered at the "
        "same moment share one commit of the audit log; `1` runs gunicorn's sync worker",
        ge=1, le=1024)
    access_log: str | None = _setting("off", "gunicorn's access log: `off` (nginx in front logs "
        "every request; the line costs a worker 60-110 µs), `-` standard output, or a file",
        "`off`")
    error_log: str = _setting("-", "gunicorn's error log: `-` standard error (the journal), or a "
        "file where nothing collects standard error")
    log_level: Literal["debug", "info", "warning", "error", "critical"] = _setting("info",
        "the error log's level: `debug` while tracing a fault, `warning` for a quieter log")
    log_format: Literal["plain", "json"] = _setting("plain", "`json`: every log line one JSON "
        "object (no request bodies, so no words)")
    # Operations
    metrics: bool = _setting(False, "`1` serves `/metrics` (Prometheus) to "
        "`ADJUDICATOR_METRICS_ALLOW` ([Metrics](../how-to/monitoring.md#metrics-and-logs))",
        "off")
    metrics_allow: Annotated[tuple[Network, ...], NoDecode] = _setting("127.0.0.1/8,::1",
        "networks that may scrape `/metrics`", "`127.0.0.1/8,::1`")
    allow_partial: bool = _setting(False, "`1`: `readyz` stays ready while some required "
        "rulesets cannot serve (at least one must)")
    # The judge's tablet
    judge_pin: str | None = _setting(None, "the director's PIN (kept as text: `0042` stays "
        "`0042`)", "unset: nothing unlocks")
    # Who is asking
    mode: Literal["open", "tournament"] = _setting("open", "`tournament`: lexicon answers need "
        "a credential")
    rate_rulings_per_minute: int = _setting(20, "rulings in any 60 s per judge device and per "
        "app key, tournament mode", ge=1)
    session_hours: int = _setting(12, "a director's session: longer for an event's long day",
        ge=1)
    device_days: int = _setting(7, "a paired judge device, unless revoked before: the length "
        "of the event", ge=1)
    open_mode_audit: Literal["all", "none"] = _setting("all", "what open mode records in the "
        "audit log: `all` rulings or `none` (tournament mode always records every ruling)")
    trusted_proxies: int = _setting(0, "proxies whose `X-Forwarded-For`/`-Proto`/`-Host` are "
        "believed (nginx in front: 1)", ge=0)
    # The event
    jury_limit: Literal["ruleset", "on", "off"] = _setting("ruleset", "`on`: this event counts "
        "jury words (a national tournament); `off`: it does not; `ruleset`: as the ruleset's "
        "`jury_limit_applies` says")
    event: str = _setting("", "the event (a name of at most 64 characters, under PRECIS "
        "Nickname: an invisible character stops the start, named): every ruling is recorded "
        "under it, and the jury counts belong to it", "empty")
    time_zone: str = _setting("", "the event's IANA time zone (`Europe/Copenhagen`): every page "
        "and spreadsheet export shows times in it (the JSON export and API keep UTC)",
        "the machine's zone")
    # fmt: on

    @field_validator("*", mode="before")
    @classmethod
    def _as_written(cls, value: Any, info: ValidationInfo) -> Any:
        """Text as an operator writes it: a choice in any case, a number or switch with spaces
        around it, a switch as any of TRUE or FALSE (nothing else)."""
        if not isinstance(value, str):
            return value
        kind = cls.model_fields[info.field_name].annotation  # type: ignore[index]
        if get_origin(kind) is Literal:
            return {c.lower(): c for c in get_args(kind)}.get(value.strip().lower(), value)
        if kind is bool:  # pydantic would also take `t`, `y`, `n`, `f`, which no doc lists
            if value.strip().lower() not in TRUE + FALSE:
                raise PydanticCustomError("bool_parsing", "not a switch")
            return value.strip().lower() in TRUE
        return value.strip() if kind in (int, float, float | None) else value

    # --- what follows from the settings ----------------------------------------------------

    @property
    def tournament(self) -> bool:
        return self.mode == "tournament"

    @property
    def records_rulings(self) -> bool:
        """Whether a ruling goes to the audit log: always in tournament mode."""
        return self.tournament or self.open_mode_audit == "all"

    @property
    def event_key(self) -> str:
        """The event as the jury counts are kept under: its compared form ("" for none)."""
        if not self.event:
            return ""
        from adjudicator.store import labelforms

        return labelforms.key("event", self.event)

    @property
    def zone(self) -> tzinfo | None:
        """The event's time zone (`TIME_ZONE`); None for the machine's own."""
        return ZoneInfo(self.time_zone) if self.time_zone else None  # one instance per name

    @property
    def session_seconds(self) -> int:
        return self.session_hours * 3600

    @property
    def device_seconds(self) -> int:
        return self.device_days * 86400

    @property
    def run_directory(self) -> str:
        """`RUN_DIR`, else `<instance>/run/127.0.0.1-8000` for the first bind address: one
        folder per instance. gunicorn's settings and `adjudicator reload` both take it here."""
        if self.run_dir:
            return self.run_dir
        first = self.bind.split(",")[0].strip()
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", first.removeprefix("unix:")).strip("-.")
        return os.path.abspath(os.path.join(self.instance_dir, "run", name or "default"))


_ENVIRON: ContextVar[Mapping[str, str] | None] = ContextVar("environ", default=None)


class _Environment(EnvSettingsSource):
    """pydantic-settings' reading of the variables, from another process's environment."""

    def __init__(self, environ: Mapping[str, str]):
        self.environ = environ
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return parse_env_vars(self.environ, False, True, None)


BOUNDS = {"ge": "≥", "gt": ">", "le": "≤"}
WANTED = {  # pydantic's error types, as the settings' messages have always said them
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "int_type": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
    "finite_number": "a number",
    "bool_parsing": f"one of {', '.join(TRUE + FALSE)}",
    "bool_type": f"one of {', '.join(TRUE + FALSE)}",
}


def _message(exc: ValidationError) -> str:
    """The first bad value as one line naming its variable (`ADJUDICATOR_<NAME> must be …`)."""
    error = exc.errors()[0]
    name = str(error["loc"][0])
    value, kind, context = error.get("input"), error["type"], error.get("ctx") or {}
    if isinstance(context.get("error"), ConfigError):
        return str(context["error"])
    annotation = Settings.model_fields[name].annotation
    number = "whole number" if annotation is int else "number"
    bound = next((f"{sign} {context[b]:g}" for b, sign in BOUNDS.items() if b in context), "")
    if kind == "literal_error":
        wanted = "one of " + ", ".join(get_args(annotation))
    elif bound:
        wanted = f"a {number} {bound}"
    else:
        wanted = WANTED.get(kind, "text" if kind.startswith("string") else error["msg"].lower())
    return f"{variable(name)} must be {wanted}, not {value!r}"


def read(
    environ: Mapping[str, str] | None = None, overrides: Mapping[str, Any] | None = None
) -> Settings:
    """The settings, checked: the default, then the environment's `ADJUDICATOR_<NAME>` (this
    process's, or `environ`), then `overrides` by name (`{"MODE": "tournament"}`: a test's, or
    a command's options). The first bad value raises ConfigError naming its variable."""
    given = {name.lower(): v for name, v in (overrides or {}).items() if is_setting(name)}
    token = _ENVIRON.set(environ)
    try:
        return Settings(**given)
    except ValidationError as exc:
        raise ConfigError(_message(exc)) from None
    finally:
        _ENVIRON.reset(token)


def is_setting(name: str) -> bool:
    """Whether `name` (`MODE`) names a setting: a test's mapping holds others (`TESTING`)."""
    return name.lower() in Settings.model_fields


def bounds(name: str) -> tuple[int, int]:
    """A whole-number setting's (minimum, maximum), for a command's option that sets it."""
    rules = {type(m).__name__: m for m in Settings.model_fields[name.lower()].metadata}
    low, high = getattr(rules.get("Ge"), "ge", 0), getattr(rules.get("Le"), "le", sys.maxsize)
    return int(low), int(high)


def init_app(app: Flask, settings: Settings) -> None:
    """Give `app` its settings, which `current_settings` reads back."""
    app.extensions["settings"] = settings
    app.config["MAX_CONTENT_LENGTH"] = settings.max_content_length  # Flask's own limit


def current_settings(app: Flask | None = None) -> Settings:
    """The settings of `app`, or of the app handling the request: the one way code reads one."""
    if app is None:
        from flask import current_app

        app = current_app
    return app.extensions["settings"]
