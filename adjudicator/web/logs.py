"""Logs as JSON lines for a log pipeline (`ADJUDICATOR_LOG_FORMAT=json`), or gunicorn's plain text.

One object per line: time, level, logger, message, pid, and for an access line the method, the
route's path (never the query string), status, bytes and milliseconds. Never a request body, and
so never a word: the bodies are where words travel.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask.logging import default_handler
from gunicorn.glogging import Logger

from adjudicator.settings import current_settings


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


def init_app(app: Flask) -> None:
    """The app's own log lines (start-up, unexpected errors) in the same format."""
    if current_settings(app).log_format == "json":
        app.logger.removeHandler(default_handler)
        if not any(isinstance(h.formatter, JsonFormatter) for h in app.logger.handlers):
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(JsonFormatter())
            app.logger.addHandler(handler)
