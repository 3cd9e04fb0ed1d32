"""Logs as JSON lines for a log pipeline (`ADJUDICATOR_LOG_FORMAT=json`), or gunicorn's plain text.

One object per line: time, level, logger, message, pid, and for an access line the method, the
route's path (never the query string), status, bytes and milliseconds. Never a request body, and
so never a word: the bodies are where words travel.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask.logging import default_handler

FORMATS = ("plain", "json")


def log_format() -> str:
    """The configured format; an unknown one stops the start with the list of known ones."""
    value = os.environ.get("ADJUDICATOR_LOG_FORMAT", "plain").strip().lower() or "plain"
    if value not in FORMATS:
        raise SystemExit(
            f"adjudicator: cannot start: ADJUDICATOR_LOG_FORMAT={value!r}: use one of {FORMATS}"
        )
    return value


def access_log() -> str | None:
    """Where gunicorn writes its access log (`ADJUDICATOR_ACCESS_LOG`): nowhere by default,
    since nginx in front logs every request and gunicorn's own line costs 60-110 µs of a
    worker's CPU per request even written to /dev/null (benchmarks/ruling_cost.py); `-` is
    standard output, anything else a file, whose directory must exist."""
    value = os.environ.get("ADJUDICATOR_ACCESS_LOG", "off").strip()
    if value.lower() in ("", "off"):
        return None
    if value != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(value))):
        raise SystemExit(
            f"adjudicator: cannot start: ADJUDICATOR_ACCESS_LOG={value!r}: no such directory"
            " (use off, - for standard output, or a file in an existing directory)"
        )
    return value


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object; `extra={"fields": {...}}` adds members."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def _json_logger_class():
    from gunicorn.glogging import Logger

    class JsonLogger(Logger):
        """gunicorn's logger with JSON lines for both the error log and the access log."""

        def setup(self, cfg) -> None:
            super().setup(cfg)
            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.setFormatter(JsonFormatter())

        def access(self, resp, req, environ, request_time) -> None:
            if not (self.cfg.accesslog or self.cfg.logconfig or self.cfg.syslog):
                return
            fields = {
                "remote": environ.get("REMOTE_ADDR"),
                "method": environ.get("REQUEST_METHOD"),
                "path": environ.get("PATH_INFO"),  # never the query string
                "status": int(str(resp.status).split()[0]),
                "bytes": getattr(resp, "sent", None),
                "ms": round(request_time.total_seconds() * 1000, 3),
            }
            self.access_log.info("request", extra={"fields": fields})

    return JsonLogger


def gunicorn_logger_class() -> str | None:
    """For the gunicorn settings: the logger class to use, None for gunicorn's own."""
    return "adjudicator.logs.JsonLogger" if log_format() == "json" else None


def __getattr__(name: str):
    if name == "JsonLogger":  # imported lazily: gunicorn is not needed to import this module
        return _json_logger_class()
    raise AttributeError(name)


def init_app(app: Flask) -> None:
    """The app's own log lines (start-up, unexpected errors) in the same format."""
    if log_format() == "json":
        app.logger.removeHandler(default_handler)
        if not any(getattr(h, "adjudicator_json", False) for h in app.logger.handlers):
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(JsonFormatter())
            handler.adjudicator_json = True
            app.logger.addHandler(handler)
