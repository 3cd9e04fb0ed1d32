import pytest

from adjudicator.game.gcg import (
    CHALLENGE,
    END_RACK,
    EXCHANGE,
    LANGUAGES,
    PASS,
    PLAY,
    TIME,
    WITHDRAWN,
    GcgError,
    UnsupportedLanguage,
    lexicon_language,
    parse_text,
    resolve_language,
)

SUPPORTED = ["da", "en", "nl", "sv"]
HEAD = b"#player1 ann Ann A\n#player2 bob Bob B\n"


def test_move_kinds_and_scores():
    text = HEAD.decode() + (
        ">ann: DEMJNOT  8d   JETON   +40   40  BE, ET\n"  # old style with cross-words after
        ">bob: ?AIOOOY -OOOY +0 0\n"
        ">ann: IIIU -4 +0 40\n"  # exchange by count
        ">bob: ABC - +0 0\n"
        ">ann: AEEGTTV 8B GAVETTE +80 120\n"
        ">ann: AEEGTTV --  -80 40\n"
        ">bob: UNKNOWN (challenge) +5 5\n"
        ">bob: NU (time) -10 -5\n"
        ">ann:  (OPEG) +14 54\n"
        ">bob: T 2x(T) -2 -7\n"
    )
    record = parse_text(text)
    kinds = [e.kind for e in record.events]
    assert kinds == [PLAY, EXCHANGE, EXCHANGE, PASS, PLAY, WITHDRAWN, CHALLENGE, TIME, END_RACK,
                     END_RACK]  # fmt: skip
    ev = record.events
    assert (ev[0].rack, ev[0].coordinate, ev[0].word, ev[0].score, ev[0].total) == (
        "DEMJNOT", "8d", "JETON", 40, 40)  # fmt: skip
    assert ev[1].tiles == "OOOY" and ev[2].count == 4 and ev[2].tiles is None
    assert ev[6].rack is None  # UNKNOWN
    assert ev[8].rack is None and ev[8].tiles == "OPEG"
    assert ev[9].tiles == "T" and ev[9].total == -7
    assert record.players == ["ann", "bob"]


def test_notes_pragmas_crlf_and_continuations():
    text = (
        b"#character-encoding UTF-8\r\n#player1 a a\r\n#player2 b b\r\n#title T\r\n"
        b">a: ABDELNO 8D BLONDE +24 24\r\n#note first\r\nmore of the note\r\n\r\n"
        b"#rack1 ?DELOOW\r\n#incomplete\r\n"
    )
    record = parse_text(text)
    assert record.events[0].notes == ["first\nmore of the note"]
    assert record.players == ["a", "b"]  # #title, #rack1 read past


def test_encodings():
    latin = HEAD.replace(b"ann Ann A", "cé Cé".encode("latin-1"))
    assert parse_text(latin).players[0] == "cé"
    utf8 = b"#character-encoding UTF-8\n" + HEAD.replace(b"ann Ann A", "cé Cé".encode())
    assert parse_text(utf8).players[0] == "cé"
    bom = b"\xef\xbb\xbf" + HEAD.replace(b"ann Ann A", "cé Cé".encode())
    assert parse_text(bom).players[0] == "cé"
    with pytest.raises(GcgError, match=r"x\.gcg:1: character encoding 'ISO8859-6'"):
        parse_text(b"#character-encoding ISO8859-6\n" + HEAD, "x.gcg")
    with pytest.raises(GcgError, match=r"x\.gcg:3: not valid utf-8"):
        parse_text(b"#character-encoding UTF-8\n#player1 a a\n#player2 b \xe9\n", "x.gcg")


@pytest.mark.parametrize(
    "line, message",
    [
        (b"garbage\n", "3: unrecognised line"),
        (b">ann 8H CAT +10 10\n", "3: a move line is"),
        (b">ann: CAT 8H CAT\n", "3: no score and total"),
        (b">carl: ABC 8H CAT +10 10\n", "3: player 'carl' is not declared"),
        (b">ann: ABC XYZ 8H CAT +10 10\n", "3: unexpected 'ABC XYZ'"),
        (b">ann: +10 10\n", "3: the move is missing"),
        (b">ann: CAT +10 10\n", "3: 'CAT' is not a move"),
    ],
)
def test_errors_name_file_and_line(line, message):
    with pytest.raises(GcgError, match=message) as info:
        parse_text(HEAD + line, "game.gcg")
    assert str(info.value).startswith("game.gcg:3: ") and info.value.line == 3


def test_no_lexicon_prefix_begins_another():
    """`lexicon_language` tries the prefixes in any order: no name may match two of them."""
    prefixes = [p for _, names in LANGUAGES.values() for p in names]
    assert [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)] == []


def test_language_from_lexicon_and_letters():
    assert lexicon_language("NWL23") == "en" and lexicon_language("CSW21") == "en"
    assert lexicon_language("OSPS44") == "pl" and lexicon_language("xyz") is None
    record = parse_text(b"#lexicon OSPS44\n" + HEAD)
    with pytest.raises(UnsupportedLanguage, match=r":1: the record is in Polish") as info:
        resolve_language(record, "en", SUPPORTED)
    assert info.value.language == "pl"
    polish = "#character-encoding UTF-8\n#player1 a a\n#player2 b b\n>a: ĆĘIKPST 8G STĘPIĆ +46 46\n"
    record = parse_text(polish.encode())
    with pytest.raises(UnsupportedLanguage, match=r":4: .*Polish \(pl; letters Ć, Ę\)"):
        resolve_language(record, "en", SUPPORTED)
    record = parse_text(b"#lexicon NWL20\n" + HEAD)
    assert resolve_language(record, "en", SUPPORTED) == "en"
    with pytest.raises(GcgError, match="in English .* but the ruleset's language is Danish"):
        resolve_language(record, "da", SUPPORTED)
    assert resolve_language(parse_text(HEAD), "sv", SUPPORTED) == "sv"


def test_three_and_four_players_004():
    """Home games have 2 to 4 players ("alle andres rester", 004): #player3 and #player4."""
    text = HEAD.decode() + "#player3 cy Cy\n#player4 di Di\n>cy: ABC 8H AB +4 4\n"
    record = parse_text(text)
    assert record.players == ["ann", "bob", "cy", "di"]
    assert record.events[0].player == "cy"


@pytest.mark.parametrize(
    "text, message",
    [
        ("#player1 a A\n#player3 c C\n>a: AB 8H AB +4 4\n", "#player2 is missing"),
        ("#player1 a A\n#player2 a B\n>a: AB 8H AB +4 4\n", "'a' is already a player"),
        ("#player1 a A\n#player2 b B\n>c: AB 8H AB +4 4\n", "'c' is not declared"),
    ],
)
def test_player_lines_must_be_whole(text, message):
    with pytest.raises(GcgError, match=message):
        parse_text(text)


def test_a_whole_record_declares_its_players_and_has_a_move():
    """The service reads only a whole record (`whole`); the command line also replays one
    without #player lines, its players named by their moves."""
    moves = ">ann: AEEGTTV 8B GAVETTE +80 80\n"
    assert [e.player for e in parse_text(moves).events] == ["ann"]
    with pytest.raises(GcgError) as raised:
        parse_text(moves, whole=True)
    assert (raised.value.reason, raised.value.line) == (
        "the record declares no #player lines",
        None,
    )
    with pytest.raises(GcgError) as raised:
        parse_text(HEAD, whole=True)
    assert (raised.value.reason, raised.value.line) == ("the record has no moves", None)
    assert parse_text(HEAD).events == []
    with pytest.raises(GcgError, match="no #player lines and no moves"):
        parse_text("#note nothing else\n", whole=True)
    assert parse_text(HEAD + moves.encode(), whole=True).events[0].word == "GAVETTE"
