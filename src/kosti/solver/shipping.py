"""Solved values shipped inside the package, each file checked against its digest.

A folder of shipped files holds ``SHA256SUMS`` beside them, as ``sha256sum`` writes it (so
``sha256sum -c SHA256SUMS`` checks them too). A file whose digest does not match its line (a
truncated download, a pointer file of a large-file store, a hand edit) is never read: the
values are then solved as for any variant that ships none.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

SUMS = "SHA256SUMS"
"""The digests of a folder's shipped files, in that folder."""


def digests(folder: Path) -> dict[str, str]:
    """The SHA-256 of each shipped file of ``folder``, by name, from :data:`SUMS` (empty when it
    is missing)."""
    try:
        lines = (folder / SUMS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    found = {}
    for line in lines:
        digest, _, name = line.partition("  ")
        if name:
            found[name.strip()] = digest.strip()
    return found


def available(folder: Path, name: str | None) -> bool:
    """True when ``name`` (a variant's shipped file, or ``None`` when it ships none) is a file of
    ``folder``; its contents are checked only when it is read (:func:`checked`)."""
    return name is not None and (folder / name).is_file()


def checked(folder: Path, name: str) -> bytes | None:
    """The bytes of the shipped file ``name`` of ``folder``, or ``None`` when it is missing or its
    digest is not the one :data:`SUMS` gives."""
    try:
        raw = (folder / name).read_bytes()
    except OSError:
        return None
    if hashlib.sha256(raw).hexdigest() != digests(folder).get(name):
        return None
    return raw


def seal(folder: Path, name: str) -> str:
    """Put the digest of the file ``name`` of ``folder`` into the folder's :data:`SUMS` (replacing
    an older line of that name); the digest."""
    digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    sums = folder / SUMS
    kept = [
        line
        for line in (sums.read_text(encoding="utf-8").splitlines() if sums.exists() else [])
        if line.partition("  ")[2].strip() != name
    ]
    sums.write_text("".join(f"{line}\n" for line in sorted([*kept, f"{digest}  {name}"])), encoding="utf-8")
    return digest


def write(folder: Path, name: str, meta: dict[str, Any], data: bytes) -> str:
    """Ship ``data`` (compressed values) with ``meta`` as the ``.npz`` file ``name`` of ``folder``
    (arrays ``meta``, JSON, and ``planes``) and seal it (:func:`seal`); the digest."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / name).open("wb") as out:
        np.savez(out, meta=np.array(json.dumps(meta)), planes=np.frombuffer(data, np.uint8))
    return seal(folder, name)


def read(folder: Path, name: str) -> tuple[dict[str, Any], bytes] | None:
    """The meta and the compressed values of the shipped file ``name`` of ``folder`` (as
    :func:`write` made it), or ``None`` when it is missing or not the one :data:`SUMS` names."""
    raw = checked(folder, name)
    if raw is None:
        return None
    with np.load(io.BytesIO(raw)) as data:
        return json.loads(str(data["meta"])), data["planes"].tobytes()
