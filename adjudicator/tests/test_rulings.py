"""Ruling ids are random hex, never repeat, and a forked worker never replays its parent's."""

from __future__ import annotations

import os

from adjudicator.rulings import new_ruling_id


def test_ids_are_hex_and_distinct():
    ids = [new_ruling_id() for _ in range(2000)]  # several batches
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in ids)


def test_a_forked_child_draws_its_own_ids():
    new_ruling_id()  # the parent now holds a batch
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(write_end, new_ruling_id().encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        child_id = pipe.read().decode()
    os.waitpid(pid, 0)
    assert len(child_id) == 32
    assert child_id != new_ruling_id()
