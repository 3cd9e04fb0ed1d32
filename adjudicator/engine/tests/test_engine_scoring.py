"""Hand-checked scores. Premium squares by row (docs/rules.md §3):
row 1 `=..'...=...'..=`, row 4 `'..-...'...-..'`, row 5 `....-.....-....`,
row 7 `..'...'.'...'..`, row 8 `=..'...*...'..=`, row 9 `..'...'.'...'..`."""

from adjudicator.engine import Board, evaluate_move
from adjudicator.engine.board import SIZE
from lexicon.languages import load_profile

DA = load_profile("da")
SV = load_profile("sv")
NL = load_profile("nl")
EN = load_profile("en")


def board_with(row_texts: dict[int, str], profile) -> Board:
    rows = [row_texts.get(i + 1, "." * SIZE) for i in range(SIZE)]
    return Board.from_rows(rows, profile)


def scored(profile, board, notation, rack=None):
    result = evaluate_move(profile, board, notation, rack)
    assert result.legal, result.errors
    return result.score, [(w.word.letters, w.score) for w in result.words]


def test_danish_first_play_with_blank():
    # 8G CAFé: C8 A1 F3 + blank E 0 = 12, H8 centre ×2 → 24.
    assert scored(DA, Board(), "8G CAFé") == (24, [("CAFE", 24)])


def test_danish_cafe_shares_the_e_of_elguitar():
    # ELGUITAR on row 7 from D7; CAFÉ down from D4 ends on its E (000 §2.3c: É is the E tile).
    board = board_with({7: "...ELGUITAR...."}, DA)
    # C on D4 (double word) 8, A 1, F 3, E 1 (old tile, no premium) = 13 × 2 = 26.
    for notation in ("D4 CAFÉ", "D4 CAF.", "D4 CAFé", "D4 CAF(É)"):
        result = evaluate_move(DA, board, notation, rack="CAF")
        assert result.legal and result.score == 26, notation
        assert [w.word.letters for w in result.words] == ["CAFE"]
        assert result.notation == "D4 CAF."


def test_danish_letter_values_differ_from_english():
    # 8H ZY: Danish Z8 Y4 = 12 ×2 = 24; English Z10 Y4 = 14 ×2 = 28.
    assert scored(DA, Board(), "8H ZY")[0] == 24
    assert scored(EN, Board(), "8H ZY")[0] == 28


def test_swedish_first_play():
    # 8E HÄST: H2 Ä3 S1 T1 = 7, H8 ×2 → 14 (English has no Ä).
    assert scored(SV, Board(), "8E HÄST") == (14, [("HÄST", 14)])
    # 8D MüSLI: M2 on D8 (DL) = 4, blank Ü 0, S1 L1 I1 = 7, ×2 → 14.
    assert scored(SV, Board(), "8D MüSLI")[0] == 14


def test_swedish_double_double_bingo():
    # Row 5: E5 and K5 are double words. STJÄRNO new on E5..K5, R already on L5.
    # S1 T1 J7 Ä3 R1 N1 O2 + R1 = 17, ×4 = 68, +50 = 118.
    board = board_with({5: "...........R..."}, SV)
    assert scored(SV, board, "5E STJÄRNOR") == (118, [("STJÄRNOR", 68)])  # word without bonus
    # With the J as a blank: 10 × 4 = 40 + 50 = 90 (blank adds nothing, still multiplies).
    assert scored(SV, board, "5E STjÄRNO.")[0] == 90


def test_swedish_whole_word_under_behag():
    # 002 "Att lägga hela ord": PEDAGOG under BEHAG forms BE, ED, HA, AG, GO.
    board = board_with({8: ".......BEHAG..."}, SV)
    # PEDAGOG G9..M9: P4×2 (G9 DL) 8, E1, D1×2 (I9 DL) 2, A1, G2, O2, G2×2 (M9 DL) 4 = 20
    # BE 4+1 = 5; ED 1+1×2 = 3; HA 2+1 = 3; AG 1+2 = 3; GO 2+2 = 4; 7 tiles: +50 → 88.
    score, words = scored(SV, board, "9G PEDAGOG")
    assert words == [("PEDAGOG", 20), ("BE", 5), ("ED", 3), ("HA", 3), ("AG", 3), ("GO", 4)]
    assert score == 88


def test_dutch_triple_triple_bingo():
    # Row 1: A1 and H1 triple word, D1 double letter; T already on E1.
    # K3 W5 A1 R2×2=4 T2 J4 E1 S2 = 22, ×9 = 198, +50 = 248.
    board = board_with({1: "....T.........."}, NL)
    assert scored(NL, board, "1A KWAR.JES") == (248, [("KWARTJES", 198)])


def test_dutch_values():
    # 8H QUIZ: Q10 U4 I1 Z4 = 19 ×2 = 38 (English: Q10 U1 I1 Z10 = 22 ×2 = 44).
    assert scored(NL, Board(), "8H QUIZ")[0] == 38
    assert scored(EN, Board(), "8H QUIZ")[0] == 44


def test_premium_only_under_new_tiles_and_blank_on_word_square():
    # A blank on the centre still doubles: 8H aX: 0 + X8 (J8 plain) = 8 ×2 = 16.
    assert scored(EN, Board(), "8H aX")[0] == 16
    # Extending later over the covered centre: no premium any more.
    board = board_with({8: ".......AX......"}, EN)
    assert scored(EN, board, "8G M..")[0] == 3 + 1 + 8


def test_single_tile_scores_its_word():
    board = board_with({8: ".......AX......"}, EN)
    # S on H9 (plain square) under A: AS down = 1 + 1 = 2; no across word.
    assert scored(EN, board, "H8 .S") == (2, [("AS", 2)])
    # A single structured tile takes the direction of the word it makes.
    result = evaluate_move(EN, board, [(8, 7, "O")])
    assert result.legal and result.words[0].word.letters == "AO" and result.words[0].word.main


def test_illegal_play_result_shape():
    # Misplaced but readable: still scored. 1A CAT: C3 A1 T1 = 5, A1 triple word → 15.
    result = evaluate_move(EN, Board(), "1A CAT")
    assert not result.legal and result.score == 15 and result.notation == "1A CAT"
    result = evaluate_move(EN, Board(), [(0, 0, "C"), (5, 5, "A")])
    assert result.words == [] and result.score == 0 and result.notation == "A1=C F6=A"
    assert not result.legal and result.errors[0].code == "not-in-line"
