"""Installing verified builds into a deployment's lexicon directory, content-addressed.

`lexicon install BUILD.json --into DIR` checks every build (format, version, sha256, a readable
trie with the manifest's word count) before it touches DIR, and installs none unless all pass.
Each trie is written as `DIR/<sha256>.marisa`, read-only, and never rewritten (a file of that
name already holding those bytes is kept); then `DIR/<id>.json` is replaced in one rename by the
build's manifest naming that file. A running service therefore never sees a half-installed
lexicon, and serves the new one only when told to reload (`adjudicator reload`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from compiler.artifact import atomic_write_bytes, manifest_json
from lexicon import artifact
from lexicon.errors import LexiconError


@dataclass(frozen=True)
class Switched:
    """A deployment's `<id>.json`, switched by `install` to a build's trie."""

    id: str
    sha256: str
    previous: str | None  # the sha256 the directory named before, if any
    manifest: Path


def _store_trie(folder: Path, sha: str, data: bytes) -> str:
    name = f"{sha}.marisa"
    target = folder / name
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == sha:
        return name
    atomic_write_bytes(target, data)  # a damaged copy is replaced by a new file, not rewritten
    target.chmod(0o444)
    return name


def install(builds: list[Path | str], into: Path | str) -> list[Switched]:
    """Verify every build, then install each: trie under its checksum, manifest last."""
    folder = Path(into)
    checked: dict[str, tuple[Path, dict, bytes]] = {}  # by id: two builds of one id refused
    for build in builds:
        manifest_path = artifact.resolve_manifest(build)
        manifest = artifact.read_manifest(manifest_path)
        data = artifact.read_trie(manifest_path, manifest)
        artifact.from_bytes(manifest_path, manifest, data)  # a readable trie, the right count
        if manifest["id"] in checked:
            raise LexiconError(
                f"lexicon id {manifest['id']!r} is also in {checked[manifest['id']][0]}",
                file=str(manifest_path),
            )
        checked[manifest["id"]] = (manifest_path, manifest, data)
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    for _, manifest, data in checked.values():
        sha = manifest["marisa"]["sha256"]
        target = folder / f"{manifest['id']}.json"
        try:
            previous = artifact.read_manifest(target)["marisa"]["sha256"]
        except LexiconError:  # none yet, or one that no longer reads
            previous = None
        name = _store_trie(folder, sha, data)
        installed = {**manifest, "marisa": {**manifest["marisa"], "file": name}}
        atomic_write_bytes(target, manifest_json(installed))
        done.append(Switched(manifest["id"], sha, previous, target))
    return done
