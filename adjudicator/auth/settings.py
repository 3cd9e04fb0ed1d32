"""The auth settings, read once from the app's config (declared in adjudicator.settings)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from adjudicator.auth.lockout import Policy
from adjudicator.settings import SETTINGS, ConfigError

MODES = SETTINGS["MODE"].choices
# What open mode writes to the audit log: every ruling, or none (an app at scale would fill the
# disk with anonymous rulings). Tournament mode always records every ruling.
OPEN_MODE_AUDIT = SETTINGS["OPEN_MODE_AUDIT"].choices

__all__ = ["MODES", "OPEN_MODE_AUDIT", "ConfigError", "Settings", "load", "settings"]


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


def load(app: Flask) -> Settings:
    """The auth settings from the app's config, which `configured_app` has already checked
    against their declarations (adjudicator.settings)."""
    config = app.config
    return Settings(
        mode=config["MODE"],
        rulings_per_minute=config["RATE_RULINGS_PER_MINUTE"],
        login=Policy(
            attempts=config["LOGIN_ATTEMPTS"],
            window=config["LOGIN_WINDOW_SECONDS"],
            account_attempts=config["LOGIN_ACCOUNT_ATTEMPTS"],
            slowdown=config["LOGIN_SLOWDOWN_SECONDS"],
        ),
        pairing=Policy(
            attempts=config["PAIRING_ATTEMPTS"], window=config["PAIRING_WINDOW_SECONDS"]
        ),
        session_seconds=config["SESSION_HOURS"] * 3600,
        device_seconds=config["DEVICE_DAYS"] * 86400,
        pairing_seconds=config["PAIRING_MINUTES"] * 60,
        trusted_proxies=config["TRUSTED_PROXIES"],
        open_mode_audit=config["OPEN_MODE_AUDIT"],
    )


def settings() -> Settings:
    return current_app.extensions["auth"]
