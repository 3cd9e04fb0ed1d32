"""`adjudicator labels collisions` over the jury counts: their labels are keyed in the profile's
form, so two spellings kept from before the PRECIS profiles show as one."""

from sqlalchemy import text

from adjudicator.cli import main
from adjudicator.store import Store, migrate


def test_jury_counts_whose_labels_their_profiles_make_one_are_listed(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    store = Store(url)
    migrate.upgrade(store)
    with store.connection(write=True) as conn:
        for game, player in (("R3-T12", "Anna"), ("R3\u2212T12", "Anna"), ("g1", "Bob\ufe0f")):
            conn.execute(
                text(
                    "INSERT INTO jury_words (event, game, player, words, updated_at)"
                    " VALUES ('', :game, :player, 1, '2027-01-01 00:00:00')"
                ),
                {"game": game, "player": player},
            )
    store.dispose()
    assert main(["labels", "collisions", "--database-url", url]) == 1
    said = capsys.readouterr().out.splitlines()
    assert said == [
        "jury count: game 'r3-t12': 'R3-T12', 'R3\u2212T12' = 'R3\\u2212T12'",
        "jury count: player 'bob': 'Bob\ufe0f' = 'Bob\\ufe0f' (without U+FE0F VARIATION SELECTOR-16)",
        "2 label(s) made one by their profiles",
    ]
