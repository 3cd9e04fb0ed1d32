"""Malformed input at the HTTP level reaches a 400 in JSON, never a 500 or a dropped connection:
bad chunked framing, duplicate JSON keys, numbers past every bound."""

from __future__ import annotations

import pytest
import requests

from adjudicator.tests.letters import SAMPLE, letter_bodies
from api_tests.conftest import exchange


def _raw(server, request: bytes) -> tuple[int, bytes]:
    head, _, body = exchange(server.url, request).partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), head + b"\n\n" + body


@pytest.mark.parametrize(
    "chunks",
    [
        b"ZZ\r\n{}\r\n0\r\n\r\n",  # a chunk size that is not hex
        b'5\r\n{"words"\r\n0\r\n\r\n',  # a chunk longer than its size says, no CRLF
        b"ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n",  # a size past any body limit
        b"2\r\n{}",  # the body ends before its last chunk
    ],
)
def test_bad_chunked_framing_is_a_json_400(server, chunks):
    request = (
        b"POST /api/v1/rulesets/naspa/challenge HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        b"Connection: close\r\n\r\n" + chunks
    )
    status, text = _raw(server, request)
    assert 400 <= status < 500, text.decode(errors="replace")
    assert b"application/problem+json" in text or status in (400, 413), text


def test_duplicate_keys_are_refused(server, http):
    r = http.post(
        server.api("/rulesets/naspa/challenge"),
        data=b'{"words": ["cat"], "words": ["dog"]}',
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 400 and r.json()["code"] == "duplicate_key", r.text
    nested = b'{"players": [{"name": "a", "name": "b", "score": 1}], "ending": "out"}'
    r = http.post(
        server.api("/rulesets/naspa/games/final-score"),
        data=nested,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 400 and r.json()["code"] == "duplicate_key", r.text


@pytest.mark.parametrize(
    "path, body",
    [
        ("/rulesets/naspa/games/final-score",
         b'{"players": [{"name": "a", "score": 18446744073709551616}, {"name": "b", "score": 1}],'
         b' "ending": "out", "went_out": "a"}'),
        ("/rulesets/naspa/games/verify",
         b'{"gcg": "#player1 a a\\n#player2 b b\\n>a: ABC 8H CAT +' + b"9" * 25 + b' 10\\n"}'),
        ("/rulesets/naspa/games/verify",
         b'{"gcg": "#player1 a a\\n#player2 b b\\n>a: ABC 8H CAT +' + b"9" * 4400 + b' 10\\n"}'),
    ],
)  # fmt: skip
def test_numbers_past_their_bounds_are_a_400(server, http, path, body):
    r = http.post(server.api(path), data=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["field"]


# (A query of thousands of digits never reaches the app: gunicorn answers 414 itself, a
# problem all the same: api_tests/test_parse_errors_http.py.)
@pytest.mark.parametrize("bag", ["18446744073709551616", "9" * 400, "1e3", "٣", "201"])
def test_query_numbers_past_their_bounds_are_a_400(server, http, bag):
    r = http.get(server.api("/rulesets/naspa/exchange-allowed"), params={"bag": bag})
    assert r.status_code == 400 and r.json()["field"] == "bag", r.text


@pytest.mark.parametrize(
    "path",
    [
        "/rulesets/naspa/challenge",
        "/rulesets/naspa/moves/validate",
        "/rulesets/naspa/games/verify",
        "/rulesets/naspa/games/final-score",
        "/rulesets/naspa/games/draw-order",
    ],
)
def test_deep_nesting_is_a_400_not_a_recursion_error(server, http, path):
    """About 600 lists deep was a RecursionError in a gunicorn worker (a 500 and a 150 KB
    traceback in the log, issue 27); beyond the parser's 1024 it is refused the same way."""
    for depth, field in ((600, "words"), (2000, "$")):
        body = b'{"words": ' + b"[" * depth + b"]" * depth + b"}"
        r = http.post(server.api(path), data=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "too_deep" and r.json()["field"] == field, r.text


@pytest.mark.parametrize("char", SAMPLE)
def test_letters_whose_capital_is_two_letters_are_refused(server, http, char):
    """ß, ﬁ, ŉ, ǰ, t + U+0308: a 4xx naming the field wherever a tile or notation is read,
    never a 500 (issue 27)."""
    for path, body in letter_bodies(f"CA{char}", char):
        r = http.post(server.api(f"/rulesets/naspa/{path}"), json=body, timeout=10)
        assert r.status_code < 500, (path, body, r.text)
        if r.status_code >= 400:
            assert r.json()["field"], r.text


def test_the_server_log_holds_no_traceback(server):
    assert "Traceback" not in server.log.read_text(errors="replace")
    requests.get(server.api("/healthz"), timeout=5)
