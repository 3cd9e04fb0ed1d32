"""Reading source files: decompression, encodings, and the three entry formats.

Every entry keeps its file and line, so a maintainer can find what was dropped and why.
"""

from __future__ import annotations

import codecs
import gzip
import hashlib
import itertools
import lzma
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lexicon.errors import LexiconError, read_file

FORMATS = ("plain", "saol", "delta")
ENCODINGS = ("utf-8", "latin-1", "auto")


@dataclass
class Decoded:
    text: str
    encoding: str  # the one actually used: "utf-8", "utf-8-sig" or "latin-1"
    sha256: str  # of the file as stored (compressed or not)
    size: int  # decompressed bytes


def _line_of(raw: bytes, offset: int) -> int:
    return raw.count(b"\n", 0, offset) + 1


def decode(path: Path, encoding: str) -> Decoded:
    """The file's content, decompressed by suffix, then decoded strictly; `auto` is UTF-8 (BOM
    or not) when it decodes, else Latin-1. The sha256 is that of the stored bytes."""
    raw = read_file(path, "source file not found", "source file")
    digest = hashlib.sha256(raw).hexdigest()
    try:
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
        elif path.suffix == ".xz":
            raw = lzma.decompress(raw)
    except (OSError, lzma.LZMAError, EOFError) as exc:
        raise LexiconError(f"cannot decompress {path.suffix} file: {exc}", file=str(path)) from exc
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise LexiconError(
            "NUL byte in source (is this a binary or UTF-16 file?)",
            file=str(path),
            line=_line_of(raw, nul),
        )
    if encoding == "latin-1":
        return Decoded(raw.decode("latin-1"), "latin-1", digest, len(raw))
    bom = raw.startswith(codecs.BOM_UTF8)
    body = raw[len(codecs.BOM_UTF8) :] if bom else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        if encoding == "auto":
            return Decoded(raw.decode("latin-1"), "latin-1", digest, len(raw))
        bad = body[exc.start : exc.start + 4]
        raise LexiconError(
            f"bytes {bad.hex(' ')} are not valid UTF-8 (declared encoding utf-8;"
            ' use encoding = "latin-1" or "auto" if the file is Latin-1)',
            file=str(path),
            line=_line_of(body, exc.start),
        ) from exc
    return Decoded(text, "utf-8-sig" if bom else "utf-8", digest, len(raw))


# An entry is (line number, text, op): op "+" adds and "-" removes (delta sources only).
# Plain tuples, because the Dutch list alone has 413,000 of them.
Entry = tuple[int, str, str]


def content_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line's number and its entry: the text before a `#`, stripped; blank ones left out."""
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.partition("#")[0].strip()
        if line:
            yield number, line


def plain_entries(text: str, file: str) -> Iterator[Entry]:
    for number, body in content_lines(text):
        yield number, body, "+"


def delta_entries(text: str, file: str) -> Iterator[Entry]:
    for number, body in content_lines(text):
        op, word = body[0], body[1:].strip()
        if op not in "+-" or not word:
            raise LexiconError(
                f"a delta line is '+word' or '-word', not {body!r}", file=file, line=number
            )
        yield number, word, op


_OPTIONAL = re.compile(r"\(([^()]*)\)")


def saol_variants(headword: str) -> list[str]:
    """All spellings a printed SAOL headword allows: `pär(s)|titel` → pärtitel, pärstitel."""
    headword = headword.replace("|", "")
    parts = _OPTIONAL.split(headword)  # literal, optional, literal, optional, …
    literals, optionals = parts[0::2], parts[1::2]
    return [
        "".join(literal + pick for literal, pick in zip(literals, (*picks, ""), strict=True))
        for picks in itertools.product(*(("", optional) for optional in optionals))
    ]


def saol_entries(text: str, file: str) -> Iterator[Entry]:
    """One bold headword per line; anything after a TAB (pronunciation, class) is ignored."""
    for number, line in enumerate(text.splitlines(), start=1):
        headword = line.split("\t", 1)[0].strip()
        if not headword or headword.startswith("#"):
            continue
        if "(" in headword.replace(")", "") and headword.count("(") != headword.count(")"):
            raise LexiconError(f"unbalanced parentheses in {headword!r}", file=file, line=number)
        for variant in saol_variants(headword):
            yield number, variant, "+"


READERS = {"plain": plain_entries, "saol": saol_entries, "delta": delta_entries}
