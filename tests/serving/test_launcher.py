"""The server's command line, the runtime settings the launcher pins, and the shipped chat template."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from custom_react.serving import launcher
from custom_react.serving.process import LAUNCHER, server_command
from custom_react.serving.server import LocalModelServer
from custom_react.serving.templates import TEMPLATES, template_for
from custom_react.serving.weights import BUNDLED_MODELS

OPTIONS = {"alias": "m", "host": "127.0.0.1", "port": 8123, "n_ctx": 2048}
SHIPPED = TEMPLATES / "qwen2.5-coder-tools.jinja"


def command_options(command: list[str]) -> dict[str, str]:
    """The ``--name value`` pairs after the launcher's path."""
    rest = command[command.index(str(LAUNCHER)) + 1 :]
    return dict(zip(rest[::2], rest[1::2], strict=True))


def test_the_launcher_runs_by_path_off_sys_path_watching_this_process() -> None:
    command = server_command(
        Path("m.gguf"), **OPTIONS, n_threads=1, n_threads_batch=2, chat_template=SHIPPED
    )

    assert command[:3] == [sys.executable, "-P", str(LAUNCHER)]
    options = command_options(command)
    assert options["--parent"] == str(os.getpid())
    assert options["--chat-template"] == str(SHIPPED)
    assert (options["--threads"], options["--threads-batch"]) == ("1", "2")
    assert launcher.parse_arguments(command[3:]).port == 8123  # the launcher reads what we write


def test_no_template_means_the_ggufs_own() -> None:
    command = server_command(
        Path("m.gguf"), **OPTIONS, n_threads=1, n_threads_batch=1, chat_template=None
    )

    assert launcher.parse_arguments(command[3:]).chat_template == ""


@pytest.mark.parametrize("name", list(BUNDLED_MODELS))
def test_each_bundled_model_is_served_with_the_shipped_template(name: str, tmp_path: Path) -> None:
    model_file = tmp_path / BUNDLED_MODELS[name].filename

    assert template_for(model_file) == SHIPPED and SHIPPED.is_file()
    assert LocalModelServer(model_file).chat_template == SHIPPED
    assert LocalModelServer(model_file, chat_template=None).chat_template is None


def test_another_gguf_keeps_its_own_template(tmp_path: Path) -> None:
    assert template_for(tmp_path / "llama-3-8b.gguf") is None
    assert LocalModelServer(tmp_path / "llama-3-8b.gguf").chat_template is None


def test_the_shipped_template_asks_for_the_fenced_json_the_model_writes() -> None:
    """Tool instructions and earlier calls are ```json blocks, never Hermes <tool_call> tags."""
    text = SHIPPED.read_text(encoding="utf-8")

    assert "<tool_call>" not in text and "</tool_call>" not in text
    assert "arguments in a ```json code block" in text  # the instruction
    assert """'\\n```json\\n{"name": "'""" in text  # an earlier call, as the model wrote it
    assert "<tool_response>" in text  # a tool's result is shown to the model


def test_the_launcher_pins_the_runtime_defaults_that_matter_here() -> None:
    """Built with the installed runtime's real ``CommonParams``: the fields exist and take these."""
    xllamacpp = pytest.importorskip("xllamacpp")
    command = server_command(
        Path("m.gguf"), **OPTIONS, n_threads=1, n_threads_batch=2, chat_template=SHIPPED
    )
    arguments = launcher.parse_arguments(command[3:])

    params = launcher.server_parameters(xllamacpp, arguments)

    none = xllamacpp.common_reasoning_format.COMMON_REASONING_FORMAT_NONE
    assert (params.n_parallel, params.cache_ram_mib, params.reasoning_format) == (1, 1024, none)
    assert (params.warmup, params.fit_params, params.ui, params.use_jinja) == (
        False,
        False,
        False,
        True,
    )
    assert (params.cpuparams.n_threads, params.cpuparams_batch.n_threads) == (1, 2)
    assert params.chat_template == SHIPPED.read_text(encoding="utf-8")
    assert params.model_alias == {"m"} and params.hostnames == ["127.0.0.1"]


def test_slots_each_get_the_whole_window_and_are_batched_together() -> None:
    """`--parallel 4`: four slots, continuous batching, and four windows' worth of context."""
    xllamacpp = pytest.importorskip("xllamacpp")
    command = server_command(
        Path("m.gguf"), **OPTIONS, n_threads=1, n_threads_batch=2, chat_template=None, parallel=4
    )
    arguments = launcher.parse_arguments(command[3:])

    params = launcher.server_parameters(xllamacpp, arguments)

    assert (params.n_parallel, params.cont_batching, params.kv_unified) == (4, True, False)
    assert params.n_ctx == 4 * OPTIONS["n_ctx"]
