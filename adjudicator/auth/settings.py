"""The auth settings, read once from the app's config (defaults, then `ADJUDICATOR_*`)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from adjudicator.auth.lockout import Policy

MODES = ("open", "tournament")
# What open mode writes to the audit log: every ruling, or none (an app at scale would fill the
# disk with anonymous rulings). Tournament mode always records every ruling.
OPEN_MODE_AUDIT = ("all", "none")

DEFAULTS = {
    "MODE": "open",  # open: anonymous callers allowed; tournament: every ruling needs a credential
    "RATE_RULINGS_PER_MINUTE": 20,  # per judge device and per app key, in tournament mode
    "LOGIN_ATTEMPTS": 5,  # wrong passwords per account per client in the window
    "LOGIN_WINDOW_SECONDS": 900,
    "LOGIN_ACCOUNT_ATTEMPTS": 20,  # from all clients: then clients that failed are slowed down
    "LOGIN_SLOWDOWN_SECONDS": 10,
    "PAIRING_ATTEMPTS": 10,  # wrong pairing codes per client in the window
    "PAIRING_WINDOW_SECONDS": 600,
    "SESSION_HOURS": 12,  # a director's session
    "DEVICE_DAYS": 7,  # a paired judge device, unless revoked before
    "PAIRING_MINUTES": 5,  # a pairing code
    "TRUSTED_PROXIES": 0,  # proxies in front (nginx: 1) whose X-Forwarded-* headers are believed
    "OPEN_MODE_AUDIT": "all",  # open mode: record every ruling (all) or none (OPEN_MODE_AUDIT)
}


class ConfigError(ValueError):
    """A setting the service cannot start with; the message names it."""


@dataclass(frozen=True)
class Settings:
    mode: str
    rulings_per_minute: int
    login: Policy
    pairing: Policy
    session_seconds: int
    device_seconds: int
    pairing_seconds: int
    trusted_proxies: int
    open_mode_audit: str = "all"

    @property
    def tournament(self) -> bool:
        return self.mode == "tournament"

    @property
    def records_rulings(self) -> bool:
        """Whether a ruling goes to the audit log: always in tournament mode."""
        return self.tournament or self.open_mode_audit == "all"


def _int(app: Flask, key: str, minimum: int = 1) -> int:
    value = app.config[key]
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"ADJUDICATOR_{key} must be a whole number ≥ {minimum}, not {value!r}")
    return value


def load(app: Flask) -> Settings:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    mode = app.config["MODE"]
    if mode not in MODES:
        raise ConfigError(f"ADJUDICATOR_MODE must be one of {', '.join(MODES)}, not {mode!r}")
    open_mode_audit = str(app.config["OPEN_MODE_AUDIT"]).lower()
    if open_mode_audit not in OPEN_MODE_AUDIT:
        raise ConfigError(
            f"ADJUDICATOR_OPEN_MODE_AUDIT must be one of {', '.join(OPEN_MODE_AUDIT)},"
            f" not {app.config['OPEN_MODE_AUDIT']!r}"
        )
    window = _int(app, "LOGIN_WINDOW_SECONDS")
    return Settings(
        mode=mode,
        rulings_per_minute=_int(app, "RATE_RULINGS_PER_MINUTE"),
        login=Policy(
            attempts=_int(app, "LOGIN_ATTEMPTS"),
            window=window,
            account_attempts=_int(app, "LOGIN_ACCOUNT_ATTEMPTS"),
            slowdown=_int(app, "LOGIN_SLOWDOWN_SECONDS", 0),
        ),
        pairing=Policy(
            attempts=_int(app, "PAIRING_ATTEMPTS"), window=_int(app, "PAIRING_WINDOW_SECONDS")
        ),
        session_seconds=_int(app, "SESSION_HOURS") * 3600,
        device_seconds=_int(app, "DEVICE_DAYS") * 86400,
        pairing_seconds=_int(app, "PAIRING_MINUTES") * 60,
        trusted_proxies=_int(app, "TRUSTED_PROXIES", 0),
        open_mode_audit=open_mode_audit,
    )


def settings() -> Settings:
    return current_app.extensions["auth"]
