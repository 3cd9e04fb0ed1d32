"""A streamed body (no Content-Length, the server ends it: gunicorn's chunked input) is held
to the endpoint's limit whole: longer is 413, never cut at the limit and read as if complete."""

from __future__ import annotations

import io

import pytest

CHALLENGE = "/api/v1/rulesets/ssf-1999/challenge"
LIMIT = 16 * 1024  # MAX_CONTENT_LENGTH


def streamed(client, body: bytes):
    """`body` as gunicorn hands a chunked one to the app: no CONTENT_LENGTH, input terminated."""
    return client.post(
        CHALLENGE,
        input_stream=io.BytesIO(body),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )


def padded(size: int) -> bytes:
    """A whole JSON challenge of exactly `size` bytes (spaces after the object)."""
    body = b'{"words": ["hej"]}'
    return body + b" " * (size - len(body))


def test_a_streamed_body_up_to_the_limit_is_read(client):
    assert streamed(client, padded(100)).status_code == 200
    assert streamed(client, padded(LIMIT)).status_code == 200  # exactly the limit


@pytest.mark.parametrize("size", [LIMIT + 1, 20_000, 1_000_000])
def test_a_streamed_body_past_the_limit_is_413_not_cut(client, size):
    """Before, Werkzeug cut it at the limit: the first 16 KiB of this body are a whole
    challenge, which was ruled on with the rest ignored."""
    answer = streamed(client, padded(LIMIT) + b"x" * (size - LIMIT))
    assert answer.status_code == 413, answer.json
    assert answer.json["code"] == "body_too_large"
    assert str(LIMIT) in answer.json["detail"]
