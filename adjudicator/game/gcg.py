"""Reader for GCG game records (the format of Quackle, Macondo and Woogles).

Quirks handled (all seen in real records):
- encoding: Latin-1 unless `#character-encoding` says otherwise; UTF-8 and Latin-1 are the
  only encodings the format admits, anything else is refused; a UTF-8 BOM means UTF-8; CRLF.
- pragmas `#player1` to `#player4 nick full name` (home rules allow four players, 004), `#title`, `#description`, `#lexicon`, `#id`, `#rack1/2`,
  `#incomplete`, `#note` (a note may run on over lines that start with neither `#` nor `>`);
  unknown pragmas are read past, not refused.
- coordinates `8H`/`H8` and old lower-case `8d`/`h2`; words with `.` or with board letters in
  full; scores signed (`+40`, `-80`), cumulative totals may be negative; trailing text after the
  total (old Quackle lists cross-words there) is ignored.
- events: play, pass `-`, exchange `-ABC` / `-7`, withdrawn phony `--`, challenge bonus
  `(challenge)`, time penalty `(time)`, end-of-game rack `(ABC)` (also `2×(ABC)`), each with an
  optional rack (`UNKNOWN` is accepted as a rack of unknown tiles).
- the language comes from `#lexicon` (NWL/TWL/CSW/Collins → English, OSPS → Polish, …) or,
  failing that, from letters only some languages have (Polish Ą Ć Ę Ł Ń Ś Ź Ż).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator import bounds
from adjudicator.game.kinds import CHALLENGE, END_RACK, EXCHANGE, PASS, PLAY, TIME, WITHDRAWN

# The names a `#character-encoding` line may give, by the codec each stands for.
_ENCODINGS = dict.fromkeys(("utf-8", "utf8"), "utf-8") | dict.fromkeys(
    ("iso-8859-1", "iso8859-1", "iso_8859-1", "latin-1", "latin1"), "latin-1"
)

# Each language a record may be in, by its code: its name, and the prefixes of its lexicons'
# names (no prefix begins another, so their order is free).
LANGUAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "en": (
        "English",
        ("NWL", "TWL", "OWL", "CSW", "SOWPODS", "COLLINS", "ECWL", "NSWL", "WAMERICAN"),
    ),
    "pl": ("Polish", ("OSPS", "OSW")),
    "fr": ("French", ("FRA", "ODS")),
    "de": ("German", ("RD", "DSW")),
    "es": ("Spanish", ("FISE",)),
    "ca": ("Catalan", ("DISC",)),
    "nb": ("Norwegian", ("NSF",)),
    "sv": ("Swedish", ("SAOL", "WSWEDISH")),
    "da": ("Danish", ("DSF", "WDANISH")),
    "nl": ("Dutch", ("WDUTCH", "SWL")),
}
# Letters that mark a record as written in a language; used when there is no #lexicon.
LANGUAGE_LETTERS = {"pl": "ĄĆĘŁŃŚŹŻ"}

PLAYER_PRAGMAS = ("player1", "player2", "player3", "player4")
_DECLARED = re.compile(rb"^#character-encoding(.*)", re.MULTILINE)
_SCORE = re.compile(r"[+-]\d+")
_TOTAL = re.compile(r"-?\d+")
_PAREN = re.compile(r"(?:2[x×*])?\((.*)\)", re.IGNORECASE)
_EXCHANGE = re.compile(r"-(\S+)")
_PAREN_KINDS = {"challenge": CHALLENGE, "time": TIME}  # any other `(ABC)`: an end-of-game rack
_DASH_KINDS = {"--": WITHDRAWN, "-": PASS}


class GcgError(ValueError):
    """A record that cannot be read; the message names file and line."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        where = ":".join(str(x) for x in (file, line) if x is not None)
        super().__init__(f"{where}: {message}" if where else message)
        self.file = file
        self.line = line
        self.reason = message


class GcgOutOfBounds(GcgError):
    """A record larger than the service reads, or a number beyond its bounds (`bounds`)."""


class LanguageMismatch(GcgError):
    """A record in another language than the ruleset's: `language` is the record's, so a
    caller can name the rulesets that would read it (none, for `UnsupportedLanguage`)."""

    def __init__(self, message: str, language: str, file: str | None, line: int | None):
        super().__init__(message, file, line)
        self.language = language


class UnsupportedLanguage(LanguageMismatch):
    """A record in a language without a tile set here."""


@dataclass
class Event:
    kind: str
    player: str
    line: int
    text: str  # the line as written, for reports
    rack: str | None = None
    coordinate: str | None = None
    word: str | None = None
    tiles: str | None = None  # exchanged letters or end-of-game rack letters
    count: int | None = None  # exchange by count
    score: int = 0
    total: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def signed(self) -> str:
        """The score as a record writes it: `+24`, `-10`, `+0`."""
        return f"{self.score:+d}"


@dataclass
class GameRecord:
    file: str
    players: list[str]  # the nicknames the #player lines give, in their order
    events: list[Event]
    lexicon: str | None = None
    lexicon_line: int | None = None
    language: str | None = None  # from #lexicon or the record's letters; None when unknown


def lexicon_language(name: str) -> str | None:
    upper = name.upper()
    return next((lang for lang, (_, names) in LANGUAGES.items() if upper.startswith(names)), None)


def decode(data: bytes, file: str = "<gcg>") -> str:
    """Bytes → text, honouring BOM and `#character-encoding` (else ISO-8859-1); errors name
    the line. Also for a file that arrives as bytes but is handed on as text (a director's
    upload)."""
    encoding = "utf-8" if data.startswith(codecs.BOM_UTF8) else "latin-1"
    data = data.removeprefix(codecs.BOM_UTF8)
    if declared := _DECLARED.search(data):  # the first such line
        name = declared[1].strip().decode("ascii", "replace")
        if name.lower() not in _ENCODINGS:
            raise GcgError(
                f"character encoding {name!r} is not supported (a GCG file is UTF-8 or ISO-8859-1)",
                file,
                data[: declared.start()].count(b"\n") + 1,
            )
        encoding = _ENCODINGS[name.lower()]
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        number = data[: exc.start].count(b"\n") + 1
        raise GcgError(f"not valid {encoding}: byte {data[exc.start]:#04x}", file, number) from None


def read(path: str | Path) -> GameRecord:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GcgError(f"cannot read: {exc.strerror}", str(path)) from None
    return parse_text(data, str(path))


def parse_text(data: bytes | str, file: str = "<gcg>", *, whole: bool = False) -> GameRecord:
    """Parse a record (bytes, decoded per the GCG rules, or already-decoded text); `whole`: one
    the service rules on, with #player lines and moves (`require_whole`)."""
    text = decode(data, file) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    record = GameRecord(file, [], [])
    players: dict[int, str] = {}  # the nicknames, by the number of their #player line
    last_note: list[str] | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped:
            continue
        _check_line(line, number, file, len(record.events))
        if line.startswith("#"):
            keyword, _, rest = line[1:].partition(" ")
            keyword = keyword.strip().lower()
            rest = rest.strip()
            if keyword == "note":
                # A note before the first move belongs to no move: read, and left out.
                target = record.events[-1].notes if record.events else []
                target.append(rest)
                last_note = target
                continue
            last_note = None
            if keyword in PLAYER_PRAGMAS:
                nick = rest.partition(" ")[0]  # the full name after it is read past
                if not nick:
                    raise GcgError(f"#{keyword} needs a nickname", file, number)
                if nick in players.values():
                    raise GcgError(f"#{keyword}: {nick!r} is already a player", file, number)
                if len(rest) > bounds.MAX_NAME_CHARS:
                    raise GcgOutOfBounds(
                        f"#{keyword}: at most {bounds.MAX_NAME_CHARS} characters", file, number
                    )
                players[int(keyword[-1])] = nick
            elif keyword == "lexicon":
                record.lexicon = rest
                record.lexicon_line = number
            continue
        if line.startswith(">"):
            last_note = None
            record.events.append(_parse_move(line, number, file))
            continue
        if last_note is not None:  # a note running on over several lines
            last_note[-1] += "\n" + stripped
            continue
        raise GcgError(f"unrecognised line {stripped[:40]!r} (expected '#' or '>')", file, number)
    if not players and not record.events:  # an empty file, /dev/null, notes only
        raise GcgError("not a game record: no #player lines and no moves", file)
    record.players = [players[k] for k in sorted(players)]
    if sorted(players) != list(range(1, len(players) + 1)):
        missing = min(set(range(1, max(players) + 1)) - set(players))
        raise GcgError(f"#player{missing} is missing: players are numbered from 1", file)
    nicks = set(record.players)
    for ev in record.events:
        if nicks and ev.player not in nicks:
            raise GcgError(f"player {ev.player!r} is not declared by a #player line", file, ev.line)
    record.language = next((lang for lang, _, _ in _evidence(record)), None)
    return require_whole(record) if whole else record


def require_whole(record: GameRecord) -> GameRecord:
    """`record`, if it declares its players and has a move: the command line also replays a
    record without #player lines (its players named by their moves), the service does not."""
    if not record.players:
        raise GcgError("the record declares no #player lines", record.file)
    if not record.events:
        raise GcgError("the record has no moves", record.file)
    return record


def _parse_move(line: str, number: int, file: str) -> Event:
    head, colon, tail = line[1:].partition(":")
    if not colon or not head.strip():
        raise GcgError("a move line is '>nick: RACK MOVE SCORE TOTAL'", file, number)
    tokens = tail.split()
    at = None
    for i in range(len(tokens) - 1):
        if _SCORE.fullmatch(tokens[i]) and _TOTAL.fullmatch(tokens[i + 1]):
            at = i  # the last signed-score/total pair wins: `-4 +0 349` is an exchange of 4
    if at is None:
        raise GcgError("no score and total (e.g. '+24 130') on this move line", file, number)
    ev = Event(
        kind="",
        player=head.strip(),
        line=number,
        text=line.strip(),
        score=_points(tokens[at], "score", file, number),
        total=_points(tokens[at + 1], "total", file, number),
    )
    move = tokens[:at]
    if not move:
        raise GcgError("the move is missing before the score", file, number)
    last, rack = move[-1], move[:-1]
    if paren := _PAREN.fullmatch(last):
        ev.kind = _PAREN_KINDS.get(paren[1].lower(), END_RACK)
        if ev.kind == END_RACK:
            ev.tiles = paren[1]
    elif last in _DASH_KINDS:
        ev.kind = _DASH_KINDS[last]
    elif (ex := _EXCHANGE.fullmatch(last)) and len(move) <= 2:
        ev.kind = EXCHANGE
        if ex[1].isdigit():
            ev.count = _points(ex[1], "exchange count", file, number)
        else:
            ev.tiles, ev.count = ex[1], len(ex[1])
    else:
        if len(move) < 2:
            raise GcgError(f"{last!r} is not a move (expected a square and a word)", file, number)
        ev.kind = PLAY
        ev.coordinate, ev.word = move[-2], move[-1]
        rack = move[:-2]
    ev.rack = _one_rack(rack, file, number)
    return ev


def _points(token: str, what: str, file: str, number: int) -> int:
    """A score, total or count as written, within the bounds the service accepts."""
    digits = token.lstrip("+-")
    if len(digits) > len(str(bounds.MAX_POINTS)) or int(digits) > bounds.MAX_POINTS:
        raise GcgOutOfBounds(
            f"the {what} {token[:12]}… is out of range (±{bounds.MAX_POINTS})", file, number
        )
    return int(token)


def _check_line(line: str, number: int, file: str, events: int) -> None:
    """The sizes that bound a record's cost and its report's length."""
    longest = bounds.MAX_MOVE_LINE_CHARS if line.startswith(">") else bounds.MAX_LINE_CHARS
    if len(line) > longest:
        raise GcgOutOfBounds(f"a line is at most {longest} characters", file, number)
    if line.startswith(">") and events >= bounds.MAX_TURNS:
        raise GcgOutOfBounds(f"a record has at most {bounds.MAX_TURNS} move lines", file, number)


def _one_rack(tokens: list[str], file: str, number: int) -> str | None:
    if not tokens:
        return None
    if len(tokens) > 1:
        raise GcgError(f"unexpected {' '.join(tokens)!r} before the move", file, number)
    return None if tokens[0].upper() == "UNKNOWN" else tokens[0]


def _evidence(record: GameRecord) -> Iterator[tuple[str, int | None, str]]:
    """The signs of the record's language, the first counting most: its `#lexicon`, then the
    letters only some languages have, line by line; each as (language, line, how)."""
    lang = lexicon_language(record.lexicon) if record.lexicon else None
    if lang is not None:
        yield lang, record.lexicon_line, f"#lexicon {record.lexicon}"
    for ev in record.events:
        letters = "".join(x for x in (ev.rack, ev.word, ev.tiles) if x).upper()
        for lang, marks in LANGUAGE_LETTERS.items():
            if found := sorted({ch for ch in letters if ch in marks}):
                yield lang, ev.line, f"letters {', '.join(found)}"


def resolve_language(record: GameRecord, expected: str, available: list[str]) -> str:
    """The language to replay `record` in. A record in a language without a tile set, or in
    another language than the ruleset's, is refused with the line that shows it."""
    lang = record.language
    if lang is None:
        return expected
    # The line that gave the record's language away, and how.
    found = ((line, how) for code, line, how in _evidence(record) if code == lang)
    line, why = next(found, (None, "unknown"))
    name = LANGUAGES.get(lang, (lang,))[0]
    if lang not in available:
        raise UnsupportedLanguage(
            f"the record is in {name} ({lang}; {why}), a language without a tile set here;"
            " supported: Danish (da), English (en), Dutch (nl), Swedish (sv)",
            lang,
            record.file,
            line,
        )
    if lang != expected:
        raise LanguageMismatch(
            f"the record is in {name} ({why}) but the ruleset's "
            f"language is {LANGUAGES.get(expected, (expected,))[0]}",
            lang,
            record.file,
            line,
        )
    return lang
