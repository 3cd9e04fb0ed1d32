"""Directors' passwords: argon2id through argon2-cffi, with its maintained default parameters."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH = 10
MAX_LENGTH = 256


class PasswordPolicyError(ValueError):
    """A password the account cannot have; the message says why."""


@cache
def hasher() -> PasswordHasher:
    return PasswordHasher()


@cache
def _dummy_hash() -> str:
    return hasher().hash("not a password anyone has")


def check_policy(password: str) -> None:
    if len(password) < MIN_LENGTH:
        raise PasswordPolicyError(f"a password needs at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise PasswordPolicyError(f"a password has at most {MAX_LENGTH} characters")


def hash_password(password: str) -> str:
    check_policy(password)
    return hasher().hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """True when `password` matches; with no stored hash the work is done anyway, so the time
    taken does not tell whether an account exists."""
    try:
        return hasher().verify(stored or _dummy_hash(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return hasher().check_needs_rehash(stored)
