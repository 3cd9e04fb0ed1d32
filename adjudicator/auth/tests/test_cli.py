"""`adjudicator directors|devices|keys` against a store on disk."""

from __future__ import annotations

import io

import pytest

from adjudicator.cli import main

from .conftest import JUDGE_HEADER, PASSWORD, bearer, challenge, login, pair, pairing_code


@pytest.fixture
def store_env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", url)
    return url


def run(capsys, monkeypatch, *argv, stdin: str | None = None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_directors_add_list_remove(store_env, capsys, monkeypatch, make_app):
    code, out, _ = run(
        capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD + "\n"
    )
    assert code == 0 and "added" in out
    code, _, err = run(
        capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD + "\n"
    )
    assert code == 2 and "already exists" in err
    code, _, err = run(
        capsys, monkeypatch, "directors", "add", "bo", "--password-stdin", stdin="short\n"
    )
    assert code == 2 and "at least 10" in err
    app = make_app(DATABASE_URL=store_env)
    assert login(app.test_client()).status_code == 303
    code, out, _ = run(capsys, monkeypatch, "directors", "list")
    assert "anna" in out and "UTC" in out
    assert run(capsys, monkeypatch, "directors", "remove", "anna")[0] == 0
    assert run(capsys, monkeypatch, "directors", "remove", "anna")[0] == 2


def test_add_without_a_terminal_needs_password_stdin(store_env, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "directors", "add", "anna", stdin="")
    assert code == 2 and "--password-stdin" in err


def test_unlock_clears_a_lockout(store_env, capsys, monkeypatch, make_app, lockouts):
    run(capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    lockouts(LOGIN={"attempts": 1})
    app = make_app(DATABASE_URL=store_env)
    client = app.test_client()
    login(client, password="wrong wrong wrong")
    assert login(client).status_code == 429
    code, out, _ = run(capsys, monkeypatch, "directors", "unlock", "anna")
    assert code == 0 and "1 failed login" in out
    assert login(client).status_code == 303


def test_keys_create_list_revoke(store_env, capsys, monkeypatch, make_app):
    code, out, err = run(
        capsys, monkeypatch, "keys", "create", "--role", "app", "--name", "scorer",
        "--scope", "ssf-1999",
    )  # fmt: skip
    assert code == 0 and "shown only now" in err
    key = out.strip()
    assert key.startswith("adj_app_") and len(key) > 40
    app = make_app(DATABASE_URL=store_env, MODE="tournament")
    client = app.test_client()
    assert challenge(client, headers=bearer(key)).status_code == 200
    code, out, _ = run(capsys, monkeypatch, "keys", "list")
    assert "scorer" in out and "ssf-1999" in out and key[:12] in out and key not in out
    assert "never" not in out.splitlines()[1]  # last use is shown
    bad = run(capsys, monkeypatch, "keys", "create", "--role", "app", "--name", "x", "--scope", "y")
    assert bad[0] == 2 and "unknown ruleset 'y'" in bad[2]
    assert run(capsys, monkeypatch, "keys", "revoke", "scorer")[0] == 0
    assert challenge(client, headers=bearer(key)).status_code == 401
    assert run(capsys, monkeypatch, "keys", "revoke", "scorer")[0] == 2


def test_keys_revoke_by_name_else_by_id(store_env, capsys, monkeypatch):
    for name in ("scorer", "1", "timer"):  # ids 1, 2 and 3
        run(capsys, monkeypatch, "keys", "create", "--role", "app", "--name", name)
    assert run(capsys, monkeypatch, "keys", "revoke", "1")[0] == 0  # the key named "1"
    assert run(capsys, monkeypatch, "keys", "revoke", "1")[0] == 2  # revoked already
    assert run(capsys, monkeypatch, "keys", "revoke", "3")[0] == 0  # no key named "3": id 3
    assert run(capsys, monkeypatch, "keys", "revoke", "99")[0] == 2  # no such key
    for name in ("²", "9" * 20):  # a digit but no number; a number no id can be
        code, _, err = run(capsys, monkeypatch, "keys", "revoke", name)
        assert code == 2 and f"no active key named {name!r}" in err
    rows = run(capsys, monkeypatch, "keys", "list")[1].splitlines()
    states = {line.split()[1]: "revoked" in line for line in rows[1:] if line.strip()}
    assert states == {"scorer": False, "1": True, "timer": True}, rows


def test_a_key_and_a_director_are_refused_a_bad_name_alike(store_env, capsys, monkeypatch):
    """One rule for both names (directors.check_name), each said in its own words."""
    code, out, err = run(capsys, monkeypatch, "keys", "create", "--name", "two words")
    assert (code, out) == (2, "")
    assert "a key's name is 1 to 64 letters, digits or . _ @ - (not 'two words')" in err
    code, _, err = run(capsys, monkeypatch, "directors", "add", "two words", stdin="")
    assert code == 2
    assert "a director's name is 1 to 64 letters, digits or . _ @ - (not 'two words')" in err


def test_devices_list_and_revoke(store_env, capsys, monkeypatch, make_app):
    run(capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    app = make_app(DATABASE_URL=store_env, MODE="tournament")
    director = app.test_client()
    login(director)
    tablet = app.test_client()
    pair(tablet, pairing_code(director, "Table 4"))
    code, out, _ = run(capsys, monkeypatch, "devices", "list")
    assert "Table 4" in out and "active" in out and "anna" in out
    assert run(capsys, monkeypatch, "devices", "revoke", "1")[0] == 0
    assert challenge(tablet, headers=JUDGE_HEADER).status_code == 401
    assert "Table 4" not in run(capsys, monkeypatch, "devices", "list")[1]
    assert "revoked" in run(capsys, monkeypatch, "devices", "list", "--all")[1]
    assert run(capsys, monkeypatch, "devices", "revoke", "1")[0] == 2


NEW_PASSWORD = "another horse battery"


def test_passwd_changes_the_password_and_ends_the_sessions(
    store_env, capsys, monkeypatch, make_app
):
    run(capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    run(capsys, monkeypatch, "directors", "add", "bo", "--password-stdin", stdin=PASSWORD)
    app = make_app(DATABASE_URL=store_env)
    laptop, phone, other = app.test_client(), app.test_client(), app.test_client()
    assert login(laptop).status_code == 303 and login(phone).status_code == 303
    assert login(other, "bo").status_code == 303
    code, out, _ = run(
        capsys, monkeypatch, "directors", "passwd", "anna", "--password-stdin",
        stdin=NEW_PASSWORD + "\n",
    )  # fmt: skip
    assert code == 0 and "changed; 2 session(s) ended" in out
    assert laptop.get("/director/").status_code == 303  # logged out at once
    assert phone.get("/director/").status_code == 303
    assert other.get("/director/").status_code == 200  # another director keeps theirs
    assert login(app.test_client()).status_code == 401  # the old password is gone
    assert login(app.test_client(), password=NEW_PASSWORD).status_code == 303


def test_passwd_follows_the_rules_of_add(store_env, capsys, monkeypatch):
    run(capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    code, _, err = run(
        capsys, monkeypatch, "directors", "passwd", "anna", "--password-stdin", stdin="short\n"
    )
    assert code == 2 and "at least 10" in err
    code, _, err = run(
        capsys, monkeypatch, "directors", "passwd", "nobody", "--password-stdin", stdin=PASSWORD
    )
    assert code == 2 and "no director named 'nobody'" in err
    code, _, err = run(capsys, monkeypatch, "directors", "passwd", "anna", stdin="")
    assert code == 2 and "--password-stdin" in err
    code, _, err = run(
        capsys, monkeypatch, "directors", "passwd", "anna", "--password-stdin", stdin="\n"
    )
    assert code == 2 and "no password" in err


def test_passwd_asks_twice_on_a_terminal(store_env, capsys, monkeypatch, make_app):
    run(capsys, monkeypatch, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter([NEW_PASSWORD, NEW_PASSWORD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert main(["directors", "passwd", "anna"]) == 2
    assert "the two passwords differ" in capsys.readouterr().err
    answers = iter([NEW_PASSWORD, NEW_PASSWORD])
    assert main(["directors", "passwd", "anna"]) == 0
    app = make_app(DATABASE_URL=store_env)
    assert login(app.test_client(), password=NEW_PASSWORD).status_code == 303


def test_keys_create_needs_no_role_while_there_is_one(store_env, capsys, monkeypatch, make_app):
    """`app` is the only role a key can have: `--role` may be left out (and still given)."""
    code, out, err = run(capsys, monkeypatch, "keys", "create", "--name", "scorer")
    assert code == 0, err
    assert out.startswith("adj_app_")
    code, out, _ = run(capsys, monkeypatch, "keys", "list")
    assert "scorer" in out and "app" in out
