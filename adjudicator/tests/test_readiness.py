"""readyz tells the truth, and a reload swaps in sound builds and refuses broken ones."""

from __future__ import annotations

import shutil
import time

from adjudicator import create_app, rundir
from adjudicator.process.hotswap import reload_app
from adjudicator.tests.conftest import build_lexicon
from compiler.install import install


def _deployment(tmp_path, lexicon_dir):
    """The test lexicons installed, as an operator would, into a deployment directory."""
    return install(sorted(lexicon_dir.glob("*.json")), tmp_path / "deploy")[0].manifest.parent


def _ready(app):
    r = app.test_client().get("/api/v1/readyz")
    return r.status_code, r.json


def _challenge(app, ruleset, words):
    url = f"/api/v1/rulesets/{ruleset}/challenge"
    return app.test_client().post(url, json={"words": words}).json


def test_all_rulesets_serving_is_ready(app):
    status, body = _ready(app)
    assert status == 200 and body["ready"] is True and body["unavailable_rulesets"] == []
    assert all(v["available"] and len(v["sha256"]) == 64 for v in body["rulesets"].values())
    assert all(s == {"state": "same"} for s in body["on_disk"].values())
    assert body["workers"]["abnormal_exits"] == 0


def test_partial_service_is_ready_only_when_allowed(tmp_path, lexicon_dir):
    deploy = _deployment(tmp_path, lexicon_dir)
    (deploy / "wswedish.json").unlink()
    strict = create_app({"TESTING": True, "LEXICON_DIR": str(deploy)})
    status, body = _ready(strict)
    assert status == 503 and body["unavailable_rulesets"] == ["ssf-1999"]
    partial = create_app({"TESTING": True, "LEXICON_DIR": str(deploy), "ALLOW_PARTIAL": 1})
    status, body = _ready(partial)
    assert status == 200 and body["partial_allowed"] is True
    assert body["unavailable_rulesets"] == ["ssf-1999"]
    only = create_app({"TESTING": True, "LEXICON_DIR": str(deploy), "RULESETS": "dsf-2015, naspa"})
    status, body = _ready(only)
    assert status == 200 and sorted(body["rulesets"]) == ["dsf-2015", "naspa"]


def test_nothing_loaded_is_not_ready_even_if_partial_is_allowed(tmp_path):
    app = create_app({"TESTING": True, "LEXICON_DIR": str(tmp_path), "ALLOW_PARTIAL": 1})
    assert _ready(app)[0] == 503


def test_repeated_worker_deaths_make_it_unready(tmp_path, lexicon_dir):
    run = tmp_path / "run"
    run.mkdir()
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "RUN_DIR": str(run)})
    rundir.mark_clean_exit(str(run), 101)
    rundir.record_exit(str(run), 101)  # a clean exit (reload, graceful stop) does not count
    assert _ready(app)[1]["workers"]["abnormal_exits"] == 0
    for pid in (102, 103):
        rundir.record_exit(str(run), pid)  # reaped without a clean mark: died
    status, body = _ready(app)
    assert status == 200 and body["workers"]["abnormal_exits"] == 2
    rundir.record_abnormal(str(run), 104, "timeout")
    status, body = _ready(app)
    assert status == 503 and body["workers"]["abnormal_exits"] == 3
    old = time.time() - 3600
    (run / rundir.EXITS).write_text(f"{old} 102 died\n{old} 103 died\n{old} 104 died\n")
    assert _ready(app)[0] == 200  # outside the window: recovered


def test_damage_on_disk_is_reported_while_the_loaded_build_serves(tmp_path, lexicon_dir):
    deploy = _deployment(tmp_path, lexicon_dir)
    app = create_app({"TESTING": True, "LEXICON_DIR": str(deploy)})
    served = _challenge(app, "ssf-1999", ["hej"])
    assert served["ruling"] == "valid"
    trie = next(
        p for p in deploy.glob("*.marisa") if p.name.startswith(served["lexicon"]["sha256"])
    )
    trie.chmod(0o644)
    shutil.copyfile(next(p for p in deploy.glob("*.marisa") if p != trie), trie)  # cp in place
    after = _challenge(app, "ssf-1999", ["hej"])
    assert after["ruling"] == "valid" and after["lexicon"] == served["lexicon"]
    status, body = _ready(app)
    assert status == 200  # it still serves the build it names
    assert body["on_disk"]["wswedish"]["state"] == "damaged"
    assert "checksum mismatch" in body["on_disk"]["wswedish"]["detail"]
    report = reload_app(app)  # a reload refuses the damaged files and keeps the loaded build
    assert report["lexicons"]["wswedish"] == served["lexicon"]["sha256"]
    assert "refused" in report["failed"]["wswedish.json"]
    assert _challenge(app, "ssf-1999", ["hej"])["lexicon"] == served["lexicon"]


def test_reload_swaps_in_a_newly_installed_build(tmp_path, lexicon_dir):
    deploy = _deployment(tmp_path, lexicon_dir)
    app = create_app({"TESTING": True, "LEXICON_DIR": str(deploy), "RUN_DIR": str(tmp_path)})
    before = _challenge(app, "ssf-1999", ["nyord"])
    assert before["ruling"] == "invalid"
    newer = build_lexicon(tmp_path / "new", "wswedish", "sv", ["hej", "nyord"])
    install([newer / "wswedish.json"], deploy)
    body = _ready(app)[1]
    assert body["on_disk"]["wswedish"]["state"] == "newer_installed"
    report = reload_app(app)
    after = _challenge(app, "ssf-1999", ["nyord"])
    assert after["ruling"] == "valid" and after["lexicon"]["sha256"] != before["lexicon"]["sha256"]
    assert report["ok"] and report["lexicons"]["wswedish"] == after["lexicon"]["sha256"]
    assert rundir.read_last_reload(str(tmp_path))["lexicons"] == report["lexicons"]


def test_reload_with_a_broken_ruleset_changes_nothing(tmp_path, lexicon_dir):
    deploy = _deployment(tmp_path, lexicon_dir)
    rules = tmp_path / "rules"
    rules.mkdir()
    app = create_app({"TESTING": True, "LEXICON_DIR": str(deploy), "RULESET_DIR": str(rules)})
    before = _challenge(app, "ssf-1999", ["hej"])["lexicon"]
    newer = build_lexicon(tmp_path / "new", "wswedish", "sv", ["hej"])
    install([newer / "wswedish.json"], deploy)
    (rules / "ssf-1999.toml").write_text('id = "ssf-1999"\n', encoding="utf-8")
    report = reload_app(app)
    assert report["ok"] is False and "ssf-1999.toml" in report["error"]
    assert _challenge(app, "ssf-1999", ["hej"])["lexicon"] == before
