"""The compiled artifact: `<id>.marisa` (the words) beside `<id>.json` (the manifest).

The manifest names its format and version and holds the trie's sha256; loading checks both
before the trie is memory-mapped, so a stale, truncated or foreign file is never served.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import marisa_trie

from compiler.errors import CompileError
from compiler.languages import LanguageProfile
from compiler.normalise import Normaliser

FORMAT_NAME = "scrabble-lexicon"
FORMAT_VERSION = 1
_REQUIRED = (
    "format",
    "format_version",
    "id",
    "language",
    "title",
    "version",
    "license",
    "stand_in",
    "marisa",
    "word_count",
    "profile",
)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, fsync, then rename over `path`."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 would hide the lexicon from a service user
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def trie_bytes(words: list[str]) -> bytes:
    """The marisa-trie image of `words`; the same words always give the same bytes."""
    return marisa_trie.Trie(words).tobytes()


def manifest_json(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode()


def write_artifact(out_dir: Path, lexicon_id: str, words: list[str], manifest: dict) -> Path:
    """Write both files atomically; the manifest goes last, so it never names a missing trie."""
    out_dir.mkdir(parents=True, exist_ok=True)
    image = trie_bytes(words)
    manifest = dict(manifest)
    manifest["marisa"] = {
        "file": f"{lexicon_id}.marisa",
        "sha256": hashlib.sha256(image).hexdigest(),
        "bytes": len(image),
    }
    atomic_write_bytes(out_dir / f"{lexicon_id}.marisa", image)
    manifest_path = out_dir / f"{lexicon_id}.json"
    atomic_write_bytes(manifest_path, manifest_json(manifest))
    return manifest_path


@dataclass
class Lexicon:
    """A loaded artifact: the memory-mapped trie, its manifest and its language profile."""

    manifest_path: Path
    manifest: dict[str, Any]
    trie: marisa_trie.Trie
    profile: LanguageProfile
    normaliser: Normaliser

    @property
    def id(self) -> str:
        return self.manifest["id"]

    def __contains__(self, word: str) -> bool:
        """Membership of an already normalised word."""
        return word in self.trie

    def words(self) -> list[str]:
        return self.trie.keys()

    def summary(self) -> dict[str, Any]:
        """What may be said about a lexicon in public: identity and counts, never words."""
        m = self.manifest
        return {
            "id": m["id"],
            "language": m["language"],
            "title": m["title"],
            "version": m["version"],
            "license": m["license"],
            "stand_in": m["stand_in"],
            "sha256": m["marisa"]["sha256"],
            "word_count": m["word_count"],
            "needs_blank": m.get("needs_blank"),
        }


def resolve_manifest(path: Path | str) -> Path:
    """Accept `<id>.json`, `<id>.marisa` or the bare stem."""
    path = Path(path)
    if path.suffix == ".marisa":
        return path.with_suffix(".json")
    if path.suffix != ".json":
        return path.with_name(path.name + ".json")
    return path


def read_manifest(manifest_path: Path) -> dict[str, Any]:
    file = str(manifest_path)
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompileError("manifest not found", file=file)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CompileError(f"manifest is not valid JSON: {exc}", file=file)
    except OSError as exc:
        raise CompileError(f"cannot read manifest: {exc.strerror}", file=file)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise CompileError(f"not a {FORMAT_NAME} manifest (field 'format')", file=file)
    if manifest.get("format_version") != FORMAT_VERSION:
        raise CompileError(
            f"format version {manifest.get('format_version')!r} is not supported "
            f"(this software reads version {FORMAT_VERSION}); rebuild it with `lexicon build`",
            file=file,
        )
    for key in _REQUIRED:
        if key not in manifest:
            raise CompileError(f"manifest lacks field {key!r}", file=file)
    marisa = manifest["marisa"]
    if not isinstance(marisa, dict) or not {"file", "sha256"} <= set(marisa):
        raise CompileError("manifest field 'marisa' needs 'file' and 'sha256'", file=file)
    if Path(marisa["file"]).name != marisa["file"]:
        raise CompileError("manifest field 'marisa.file' must be a bare file name", file=file)
    return manifest


def verify(path: Path | str) -> dict[str, Any]:
    """Check format, version and checksum; returns the manifest."""
    manifest_path = resolve_manifest(path)
    manifest = read_manifest(manifest_path)
    trie_path = manifest_path.parent / manifest["marisa"]["file"]
    if not trie_path.exists():
        raise CompileError("trie file named by the manifest is missing", file=str(trie_path))
    actual = sha256_file(trie_path)
    if actual != manifest["marisa"]["sha256"]:
        raise CompileError(
            f"checksum mismatch: manifest says {manifest['marisa']['sha256'][:12]}…, "
            f"file is {actual[:12]}… (corrupted or from another build)",
            file=str(trie_path),
        )
    return manifest


def load(path: Path | str) -> Lexicon:
    """Verify, then memory-map the trie so that worker processes share its pages."""
    manifest_path = resolve_manifest(path)
    manifest = verify(manifest_path)
    trie_path = manifest_path.parent / manifest["marisa"]["file"]
    profile = LanguageProfile.from_dict(manifest["profile"], source=f"{manifest_path} (profile)")
    trie = marisa_trie.Trie()
    try:
        trie.mmap(str(trie_path))
    except Exception as exc:  # marisa raises plain RuntimeError/Exception on a bad image
        raise CompileError(f"not a readable marisa-trie: {exc}", file=str(trie_path))
    if len(trie) != manifest["word_count"]:
        raise CompileError(
            f"trie holds {len(trie)} words, manifest says {manifest['word_count']}",
            file=str(trie_path),
        )
    return Lexicon(manifest_path, manifest, trie, profile, Normaliser(profile))
