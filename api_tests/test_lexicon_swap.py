"""Lexicons under a running gunicorn: in-place overwrites, damaged files, and a hot swap under
load. Each test is bounded in requests and seconds."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from adjudicator.tests.conftest import build_lexicon
from api_tests.conftest import LEXICON_DIR, ROOT, start_server
from api_tests.load import CHALLENGE, SWEDISH_PROBE, Load, summary
from compiler.install import install
from lexicon import artifact

# Slow (lexicons swapped under load): `make test-quick` leaves these out.
pytestmark = pytest.mark.slow

ADJUDICATOR = Path(sys.executable).with_name("adjudicator")


def _replacement(tmp_path: Path) -> Path:
    """Another build of `wswedish` in which every probe word is valid."""
    return build_lexicon(tmp_path / "new", "wswedish", "sv", SWEDISH_PROBE) / "wswedish.json"


def _truth(manifest: Path) -> tuple[str, str]:
    """(sha256, the play-policy ruling on the probe) of a build, computed in process."""
    lex = artifact.load(manifest)
    valid = all(lex.normaliser.query(w) in lex for w in SWEDISH_PROBE)
    return lex.identity()["sha256"], "valid" if valid else "invalid"


def _reload(server) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ADJUDICATOR), "reload", "--run-dir", str(server.run_dir), "--timeout", "20"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def _challenge(server) -> dict:
    return requests.post(server.api("/rulesets/ssf-1999/challenge"), json=CHALLENGE.json).json()


def test_in_place_overwrite_never_answers_from_another_lexicon(tmp_path):
    plain = tmp_path / "lexicons"  # the `make serve` layout: <id>.marisa beside <id>.json
    shutil.copytree(LEXICON_DIR, plain)
    served_sha, served_ruling = _truth(plain / "wswedish.json")
    new_manifest = _replacement(tmp_path)
    assert _truth(new_manifest)[1] != served_ruling
    server = start_server(tmp_path, ADJUDICATOR_LEXICON_DIR=str(plain))
    try:
        assert _challenge(server)["lexicon"]["sha256"] == served_sha
        # `cp new.marisa wswedish.marisa`: the same inode, truncated and rewritten
        shutil.copyfile(new_manifest.with_suffix(".marisa"), plain / "wswedish.marisa")
        with Load(server.url, mix=[CHALLENGE], threads=2, max_requests=200, max_seconds=15) as load:
            outcomes = load.wait()
        assert len(outcomes) == 200 and not load.failures(), summary(outcomes)
        assert {(o.sha, o.body["ruling"]) for o in outcomes} == {(served_sha, served_ruling)}
        ready = requests.get(server.api("/readyz")).json()
        assert ready["on_disk"]["wswedish"]["state"] == "damaged"
        assert "checksum mismatch" in ready["on_disk"]["wswedish"]["detail"]
        # the reload command refuses, naming the file, and signals nothing
        done = _reload(server)
        assert done.returncode == 2 and "wswedish.json" in done.stderr, done.stderr
        assert "checksum mismatch" in done.stderr and "nothing changed" in done.stderr
        # a bare SIGHUP refuses the damaged build too: the loaded one keeps serving
        server.process.send_signal(1)
        time.sleep(2)
        assert _challenge(server)["lexicon"]["sha256"] == served_sha
        failed = {
            f["file"]: f["reason"] for f in requests.get(server.api("/readyz")).json()["failed"]
        }
        assert "refused" in failed["wswedish.json"]
    finally:
        server.stop()


def test_a_damaged_artifact_makes_readyz_say_so(tmp_path):
    deploy = tmp_path / "deploy"
    install(sorted(LEXICON_DIR.glob("*.json")), deploy)
    sha = artifact.read_manifest(deploy / "wswedish.json")["marisa"]["sha256"]
    trie = deploy / f"{sha}.marisa"
    trie.chmod(0o644)
    data = bytearray(trie.read_bytes())
    data[len(data) // 2] ^= 0xFF
    trie.write_bytes(bytes(data))
    server = start_server(tmp_path, ADJUDICATOR_LEXICON_DIR=str(deploy))
    try:
        r = requests.get(server.api("/readyz"))
        body = r.json()
        assert r.status_code == 503 and body["ready"] is False
        assert body["unavailable_rulesets"] == ["ssf-1999"]
        assert body["failed"][0]["file"] == "wswedish.json"
        assert "checksum mismatch" in body["failed"][0]["reason"]
        r = requests.post(server.api("/rulesets/ssf-1999/challenge"), json=CHALLENGE.json)
        assert r.status_code == 503 and r.json()["code"] == "ruleset_unavailable"
    finally:
        server.stop()


def test_hot_swap_under_load_fails_nothing_and_ends_on_the_new_build(tmp_path):
    deploy = tmp_path / "deploy"
    install(sorted(LEXICON_DIR.glob("*.json")), deploy)
    old_sha, old_ruling = _truth(deploy / "wswedish.json")
    new_manifest = _replacement(tmp_path)
    new_sha, new_ruling = _truth(new_manifest)
    server = start_server(tmp_path, ADJUDICATOR_LEXICON_DIR=str(deploy))
    try:
        load = Load(server.url, threads=3, pause=0.01, max_requests=20000, max_seconds=90)
        with load:
            time.sleep(1)
            install([new_manifest], deploy)
            done = _reload(server)
            switched = time.monotonic()
            time.sleep(1.5)
        outcomes = load.outcomes
        then = [_challenge(server) for _ in range(20)]  # after the switch, one by one
        assert {a["lexicon"]["sha256"] for a in then} == {new_sha}
        assert done.returncode == 0, done.stdout + done.stderr
        assert "reloaded in" in done.stdout and f"wswedish  sha256 {new_sha[:16]}" in done.stdout
        assert not load.failures(), summary(outcomes)
        swedish = [o for o in outcomes if o.body and o.body.get("ruleset") == "ssf-1999"]
        truth = {old_sha: old_ruling, new_sha: new_ruling}
        assert all(truth[o.sha] == o.body["ruling"] for o in swedish)  # never a mixed answer
        after = [o for o in swedish if o.start > switched]
        assert after and {o.sha for o in after} == {new_sha}
        assert any(o.sha == old_sha for o in swedish)
    finally:
        server.stop()
