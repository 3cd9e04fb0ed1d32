"""Directors' passwords: argon2id through argon2-cffi, with parameters chosen by measurement.

argon2-cffi's own default (RFC 9106's low-memory profile: 64 MiB, 3 passes, 4 lanes) took
0.65–0.9 s a check on the 2-core event laptop under load, and a login paid it once or twice. The
parameters here are a row of OWASP's Password Storage Cheat Sheet table for argon2id (19 MiB,
2 passes, 1 lane: its first recommendation), which `benchmarks/argon2_params.py` measured at
0.14× that, a whole login at under 0.2 s (docs/explanation/benchmarks.md). A hash made with other parameters (the old
default) still verifies, and is rehashed with these at the account's next login
(`needs_rehash`, argon2-cffi's `check_needs_rehash`).

A login of an unknown name verifies against a dummy hash made with the same parameters, so a
wrong name and a wrong password take the same time. The dummy is made when the app starts
(`dummy_hash`), before gunicorn forks its workers: made lazily, each worker's first unknown name
paid a hash and a verify, twice a real login's time, which told that the name has no account.
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH = 10
MAX_LENGTH = 256

# OWASP's argon2id rows (memory KiB, passes, lanes), each as strong as the others: the
# benchmark measures them all; the service uses OWASP_ROWS[CHOSEN].
OWASP_ROWS = ((47104, 1, 1), (19456, 2, 1), (12288, 3, 1), (9216, 4, 1), (7168, 5, 1))
CHOSEN = 1  # m=19 MiB, t=2, p=1
MEMORY_KIB, TIME_COST, PARALLELISM = OWASP_ROWS[CHOSEN]


def make_hasher(memory_kib: int, time_cost: int, parallelism: int) -> PasswordHasher:
    """An argon2id hasher with these parameters (a 16-byte salt, a 32-byte hash)."""
    return PasswordHasher(
        time_cost=time_cost,
        memory_cost=memory_kib,
        parallelism=parallelism,
        hash_len=32,
        salt_len=16,
        type=Type.ID,
    )


@cache
def hasher() -> PasswordHasher:
    return make_hasher(MEMORY_KIB, TIME_COST, PARALLELISM)


@cache
def dummy_hash() -> str:
    """What an unknown name's login verifies against: made at start-up, so no login pays for it
    (see the module's note)."""
    return hasher().hash("not a password anyone has")


def hash_password(password: str) -> str:
    """The stored hash of a password (one the account may have: `directors.check_password`)."""
    return hasher().hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """True when `password` matches; with no stored hash the work is done anyway, so the time
    taken does not tell whether an account exists."""
    try:
        return hasher().verify(stored or dummy_hash(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether `stored` was made with other parameters (then the login rehashes it)."""
    try:
        return hasher().check_needs_rehash(stored)
    except InvalidHashError:
        return False
