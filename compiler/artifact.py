"""The compiled artifact: `<id>.marisa` (the words) beside `<id>.json` (the manifest).

The manifest names its format and version and holds the trie's sha256; loading checks both
before the trie is memory-mapped, so a stale, truncated or foreign file is never served.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
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


def _write_temp(folder: Path, name: str, data: bytes) -> str:
    """A fully written, fsynced temporary file in `folder`, readable like any other file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 would hide the lexicon from a service user
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, fsync, then rename over `path`."""
    tmp = _write_temp(path.parent, path.name, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


# A tiny node cache makes the file about 1 % smaller; lookups measured no slower.
TRIE_OPTIONS = {"cache_size": marisa_trie.TINY_CACHE}


def trie_image(keys: Iterable[bytes]) -> bytes:
    """The marisa-trie image of UTF-8 `keys`; the same set of keys always gives the same bytes.

    marisa sorts the keys itself, so their order does not matter (tested). A `BinaryTrie` of
    UTF-8 keys is byte for byte the `Trie` of the same words, without encoding them one by one.
    """
    return marisa_trie.BinaryTrie(keys, **TRIE_OPTIONS).tobytes()


def trie_bytes(words: Iterable[str]) -> bytes:
    """The marisa-trie image of `words` (strings)."""
    return trie_image(word.encode("utf-8") for word in words)


def manifest_json(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode()


def write_artifact(out_dir: Path, lexicon_id: str, image: bytes, manifest: dict) -> Path:
    """Write the trie `image` and its manifest so that an error at any point leaves the old
    pair as it was.

    Both files are written to temporary names first. Only then is the trie renamed into place,
    then the manifest; if that last rename fails, the old trie (kept under a hard link) is put
    back. Nothing of the new build is left behind after an error.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = dict(manifest)
    manifest["marisa"] = {
        "file": f"{lexicon_id}.marisa",
        "sha256": hashlib.sha256(image).hexdigest(),
        "bytes": len(image),
    }
    trie_path = out_dir / f"{lexicon_id}.marisa"
    manifest_path = out_dir / f"{lexicon_id}.json"
    tmp_trie = tmp_manifest = backup = None
    try:
        tmp_trie = _write_temp(out_dir, trie_path.name, image)
        tmp_manifest = _write_temp(out_dir, manifest_path.name, manifest_json(manifest))
        if trie_path.exists():
            fd, backup = tempfile.mkstemp(prefix=f".{trie_path.name}.", suffix=".old", dir=out_dir)
            os.close(fd)
            os.unlink(backup)
            try:
                os.link(trie_path, backup)
            except OSError:  # no hard links here: no way back, but the window is two renames
                backup = None
        os.replace(tmp_trie, trie_path)
        tmp_trie = None
        try:
            os.replace(tmp_manifest, manifest_path)
            tmp_manifest = None
        except BaseException:
            if backup is not None:
                os.replace(backup, trie_path)
                backup = None
            raise
        _fsync_dir(out_dir)
    finally:
        for leftover in (tmp_trie, tmp_manifest, backup):
            if leftover is not None:
                Path(leftover).unlink(missing_ok=True)
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

    def identity(self) -> dict[str, Any]:
        """Which list ruled: enough to name it and prove which build it was."""
        m = self.manifest
        return {
            "id": m["id"],
            "title": m["title"],
            "version": m["version"],
            "sha256": m["marisa"]["sha256"],
            "stand_in": m["stand_in"],
        }

    def summary(self) -> dict[str, Any]:
        """What may be said about a lexicon in public: identity and counts, never words."""
        m = self.manifest
        return {
            **self.identity(),
            "language": m["language"],
            "license": m["license"],
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
        raise CompileError("manifest not found", file=file) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CompileError(f"manifest is not valid JSON: {exc}", file=file) from exc
    except OSError as exc:
        raise CompileError(f"cannot read manifest: {exc.strerror}", file=file) from exc
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
        raise CompileError(f"not a readable marisa-trie: {exc}", file=str(trie_path)) from exc
    if len(trie) != manifest["word_count"]:
        raise CompileError(
            f"trie holds {len(trie)} words, manifest says {manifest['word_count']}",
            file=str(trie_path),
        )
    return Lexicon(manifest_path, manifest, trie, profile, Normaliser(profile))
