"""Render deploy/nginx.conf.template: nginx in front of one or more gunicorn instances.

    python deploy/nginx_conf.py --upstream 127.0.0.1:8001 > /etc/nginx/conf.d/adjudicator.conf
    python deploy/nginx_conf.py --upstream 10.0.0.11:8001 --upstream 10.0.0.12:8001 --listen 80

`--standalone DIR` writes a whole nginx.conf whose pid, logs and temporary files live in DIR, to
run nginx without touching /etc (`nginx -p DIR -c DIR/nginx.conf`): the tests do this.
Run it with the project's Python (`.venv/bin/python`): nginx's own refusals (413, 429, 408, no
instance answering) are rendered as the service's problem documents by `adjudicator.errors`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from adjudicator.errors import ApiError  # noqa: E402
from adjudicator.problems import Problem  # noqa: E402

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
HEADER_BUFFER = 8192  # bytes: the longest request line or header nginx takes
# nginx's own refusals, as the service words its errors (status, code, detail).
PROBLEMS = {
    413: (
        Problem.BODY_TOO_LARGE,
        "the request body is larger than this endpoint accepts (16 KiB; games/verify 256 KiB)",
    ),
    429: (Problem.TOO_MANY_REQUESTS, "too many requests from this address; retry shortly"),
    503: (Problem.SERVICE_UNAVAILABLE, "no adjudicator instance answered; retry shortly"),
    408: (Problem.REQUEST_TIMEOUT, "the request was not received in time"),
    # nginx reads the request line and each header into buffers of HEADER_BUFFER bytes at most
    # (large_client_header_buffers): longer ones are refused before any location is chosen.
    414: (
        Problem.REQUEST_LINE_TOO_LONG,
        f"the request line is too long (limit {HEADER_BUFFER} bytes)",
    ),
    431: (
        Problem.HEADERS_TOO_LARGE,
        f"a request header is too large (limit {HEADER_BUFFER} bytes)",
    ),
    400: (Problem.BAD_REQUEST, "the request is not valid HTTP"),
    404: (Problem.NOT_FOUND, "nothing is served at this address"),
}


def problem_body(status: int) -> str:
    """The problem document for one of nginx's refusals, safe inside nginx's single quotes."""
    code, detail = PROBLEMS[status]
    text = json.dumps(ApiError(code, detail, status=status).to_dict(), ensure_ascii=False)
    if any(c in text for c in "'$\\"):
        raise ValueError(f"{code}: text nginx would not return verbatim")
    return text


DEFAULTS = {"rate": 50, "burst": 100, "connections": 64}


def upstream_lines(upstreams: list[str], max_fails: int = 1, fail_timeout: int = 5) -> str:
    """One `server` line per instance, checked passively: after `max_fails` failures an
    instance is skipped for `fail_timeout` seconds. A single instance is listed twice, so a
    request that a killed worker dropped is retried on a new connection to the same instance
    (another worker accepts it); nginx never skips its only instance."""
    if len(upstreams) == 1:
        line = f"    server {upstreams[0]} max_fails=0;"
        return f"{line}\n{line}   # the same instance: a second try on a new connection"
    return "\n".join(
        f"    server {u} max_fails={max_fails} fail_timeout={fail_timeout}s;" for u in upstreams
    )


def _unix(address: str) -> str:
    return address if ":" in address or address.startswith("unix:") else f"unix:{address}"


def render(
    upstreams: list[str],
    listen: str = "80",
    server_name: str = "_",
    access_log: str = "/var/log/nginx/adjudicator.log",
    rate: int = DEFAULTS["rate"],
    burst: int = DEFAULTS["burst"],
    connections: int = DEFAULTS["connections"],
) -> str:
    if not upstreams:
        raise ValueError("at least one --upstream (host:port or a unix socket path)")
    values = {
        "SERVERS": upstream_lines([_unix(u) for u in upstreams]),
        "LISTEN": listen,
        "SERVER_NAME": server_name,
        "ACCESS_LOG": access_log,
        "RATE": str(rate),
        "BURST": str(burst),
        "CONNECTIONS": str(connections),
        "HEADER_BUFFER": str(HEADER_BUFFER),
        **{f"PROBLEM_{status}": problem_body(status) for status in PROBLEMS},
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    if "{{" in text:
        raise ValueError(f"unfilled placeholder in {TEMPLATE}")
    return text


def standalone(prefix: Path, site: str, workers: int = 1) -> str:
    """A whole nginx.conf around `site`, with every path under `prefix`."""
    for sub in ("tmp", "logs"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    user = "user root root;\n" if os.geteuid() == 0 else ""  # root: workers may use prefix
    temp = "\n".join(
        f"    {kind}_temp_path {prefix}/tmp/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes {workers};\n"
        f"pid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/logs/error.log warn;\n"
        "events { worker_connections 1024; }\n"
        "http {\n"
        f"{temp}\n"
        "    default_type application/octet-stream;\n"
        f"{site}"
        "}\n"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--upstream", action="append", required=True, metavar="HOST:PORT|SOCKET")
    p.add_argument("--listen", default="80", help="nginx listen argument (default 80)")
    p.add_argument("--server-name", default="_")
    p.add_argument("--access-log", default="/var/log/nginx/adjudicator.log")
    p.add_argument("--rate", type=int, default=DEFAULTS["rate"], help="requests/s per client")
    p.add_argument("--burst", type=int, default=DEFAULTS["burst"], help="burst above the rate")
    p.add_argument(
        "--connections", type=int, default=DEFAULTS["connections"], help="per client address"
    )
    p.add_argument("--standalone", metavar="DIR", help="write DIR/nginx.conf, paths under DIR")
    args = p.parse_args(argv)
    site = render(
        args.upstream,
        args.listen,
        args.server_name,
        args.access_log,
        args.rate,
        args.burst,
        args.connections,
    )
    if args.standalone:
        prefix = Path(args.standalone).resolve()
        (prefix / "nginx.conf").write_text(standalone(prefix, site), encoding="utf-8")
        print(prefix / "nginx.conf")
    else:
        sys.stdout.write(site)
    return 0


if __name__ == "__main__":
    sys.exit(main())
