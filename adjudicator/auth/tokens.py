"""Secrets handed to callers: long random tokens, stored only as their SHA-256.

A token has 256 bits of entropy, so a plain digest is enough at rest (no salt or slow hash is
needed against guessing); passwords, which people choose, are hashed with argon2 instead. The
prefix says what a token is, so a leaked one is recognisable and a lookup needs one table only.
"""

from __future__ import annotations

import hashlib
import secrets

DEVICE_PREFIX = "adj_dev_"
APP_PREFIX = "adj_app_"
SESSION_PREFIX = "adj_ses_"

# Pairing codes are read off a screen and typed on a tablet: no 0/O, 1/I/L.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
CODE_MAX = 32  # a code as typed: its letters, with room for the spaces and dashes it may carry


def new_token(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_pairing_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What the tablet typed → the code: case, spaces and dashes do not matter."""
    return "".join(c for c in text.upper() if c not in " -\t")


def show_code(code: str) -> str:
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"
