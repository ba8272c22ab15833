"""Model settings: which provider a given environment selects, and the errors for bad settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from langchain_openai import ChatOpenAI

from custom_react.serving.errors import ModelConfigError
from custom_react.serving.models import ModelSettings, describe, open_chat_model

OPENAI = "https://api.openai.com/v1"
DEEPSEEK = "https://api.deepseek.com"
OLLAMA = "http://127.0.0.1:11434/v1"


# env -> (provider, model, base_url, api_key)
RESOLUTION = [
    ({}, ("local", "qwen2.5-coder-1.5b", None, None)),
    ({"OPENAI_API_KEY": ""}, ("local", "qwen2.5-coder-1.5b", None, None)),
    ({"CUSTOM_REACT_MODEL": "qwen2.5-coder-0.5b"}, ("local", "qwen2.5-coder-0.5b", None, None)),
    ({"OPENAI_API_KEY": "sk-o"}, ("openai", "gpt-4o-mini", OPENAI, "sk-o")),
    ({"OPENAI_API_KEY": "sk-o", "OPENAI_MODEL": "gpt-4.1"}, ("openai", "gpt-4.1", OPENAI, "sk-o")),
    ({"DEEPSEEK_API_KEY": "sk-d"}, ("deepseek", "deepseek-chat", DEEPSEEK, "sk-d")),
    (
        {"DEEPSEEK_API_KEY": "sk-d", "OPENAI_API_KEY": "sk-o", "OPENAI_MODEL": "gpt-4.1"},
        ("deepseek", "deepseek-chat", DEEPSEEK, "sk-d"),
    ),
    (
        {"OPENAI_BASE_URL": OLLAMA + "/", "OPENAI_MODEL": "qwen2.5:7b"},
        ("compatible", "qwen2.5:7b", OLLAMA, "not-needed"),
    ),
    (
        {"OPENAI_BASE_URL": OLLAMA, "OPENAI_API_KEY": "sk-o", "DEEPSEEK_API_KEY": "sk-d"},
        ("compatible", "gpt-4o-mini", OLLAMA, "sk-o"),
    ),
    (
        {"OPENAI_API_KEY": "sk-o", "CUSTOM_REACT_MODEL": "qwen2.5-coder-0.5b"},
        ("openai", "gpt-4o-mini", OPENAI, "sk-o"),
    ),
]


@pytest.mark.parametrize(("env", "expected"), RESOLUTION)
def test_provider_resolution(env: dict[str, str], expected: tuple[object, ...]) -> None:
    """A base URL beats a DeepSeek key, which beats an OpenAI key, which beats the local model."""
    settings = ModelSettings.from_env(env, dotenv=False)
    assert (settings.provider, settings.model, settings.base_url, settings.api_key) == expected
    assert settings.temperature == 0.0


# explicit arguments -> (provider, model, base_url)
OVERRIDES = [
    ({"base_url": OLLAMA, "model": "llama3"}, ("compatible", "llama3", OLLAMA)),
    ({"model": "deepseek-reasoner"}, ("deepseek", "deepseek-reasoner", DEEPSEEK)),
    ({"provider": "local"}, ("local", "qwen2.5-coder-1.5b", None)),
    ({"provider": "local", "model": "qwen2.5-coder-0.5b"}, ("local", "qwen2.5-coder-0.5b", None)),
]


@pytest.mark.parametrize(("arguments", "expected"), OVERRIDES)
def test_arguments_override_the_environment(
    arguments: dict[str, str], expected: tuple[object, ...]
) -> None:
    """A base URL, model or provider given as an argument wins over the variables."""
    env = {"DEEPSEEK_API_KEY": "sk-d", "OPENAI_MODEL": "gpt-4.1"}
    settings = ModelSettings.from_env(env, dotenv=False, **arguments)  # type: ignore[arg-type]
    assert (settings.provider, settings.model, settings.base_url) == expected


def test_a_gguf_path_is_a_local_model(tmp_path: Path) -> None:
    """``CUSTOM_REACT_MODEL`` may name an existing GGUF file instead of a bundled model."""
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF")
    settings = ModelSettings.from_env({"CUSTOM_REACT_MODEL": str(gguf)}, dotenv=False)
    assert (settings.provider, settings.model) == ("local", str(gguf))


def test_temperature_is_read() -> None:
    """``CUSTOM_REACT_TEMPERATURE`` sets the sampling temperature."""
    env = {"OPENAI_API_KEY": "sk-o", "CUSTOM_REACT_TEMPERATURE": "0.7"}
    assert ModelSettings.from_env(env, dotenv=False).temperature == 0.7


ERRORS = [
    ({"CUSTOM_REACT_TEMPERATURE": "warm"}, {}, "CUSTOM_REACT_TEMPERATURE='warm'"),
    ({"CUSTOM_REACT_TEMPERATURE": "3"}, {}, "from 0 to 2"),
    ({"OPENAI_BASE_URL": "127.0.0.1:11434/v1"}, {}, "not an http"),
    ({"CUSTOM_REACT_MODEL": "llama-70b"}, {}, "neither a bundled model"),
    ({}, {"model": "gpt-4o"}, "neither a bundled model"),
    ({}, {"provider": "openai"}, "OPENAI_API_KEY is not set"),
    ({}, {"provider": "deepseek"}, "DEEPSEEK_API_KEY is not set"),
    ({}, {"provider": "compatible"}, "OPENAI_BASE_URL is not set"),
    ({}, {"provider": "anthropic"}, "unknown provider"),
]


@pytest.mark.parametrize(("env", "arguments", "message"), ERRORS)
def test_bad_settings_raise_one_actionable_line(
    env: dict[str, str], arguments: dict[str, str], message: str
) -> None:
    """Each wrong or missing setting raises ``ModelConfigError`` with a one-line message."""
    with pytest.raises(ModelConfigError, match=message) as info:
        ModelSettings.from_env(env, dotenv=False, **arguments)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_dotenv_fills_in_but_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``.env`` file fills unset variables; the environment and ``dotenv=False`` win over it."""
    (tmp_path / ".env").write_text(
        "DEEPSEEK_API_KEY=sk-from-file\nCUSTOM_REACT_TEMPERATURE=0.5\nOPENAI_API_KEY=\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    from_file = ModelSettings.from_env({})
    assert (from_file.provider, from_file.api_key, from_file.temperature) == (
        "deepseek",
        "sk-from-file",
        0.5,
    )
    overridden = ModelSettings.from_env({"CUSTOM_REACT_TEMPERATURE": "0"})
    assert overridden.temperature == 0.0
    assert ModelSettings.from_env({}, dotenv=False).provider == "local"


def test_reading_a_dotenv_file_does_not_change_os_environ(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings read a ``.env`` file without copying it into ``os.environ``."""
    (tmp_path / ".env").write_text("CUSTOM_REACT_TEST_ONLY=1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CUSTOM_REACT_TEST_ONLY", raising=False)
    ModelSettings.from_env()
    assert "CUSTOM_REACT_TEST_ONLY" not in os.environ


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({}, "local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)"),
        ({"OPENAI_API_KEY": "sk-secret"}, "OpenAI gpt-4o-mini"),
        ({"DEEPSEEK_API_KEY": "sk-secret"}, f"DeepSeek deepseek-chat at {DEEPSEEK}"),
        (
            {"OPENAI_BASE_URL": OLLAMA, "OPENAI_MODEL": "llama3", "OPENAI_API_KEY": "sk-secret"},
            f"llama3 at {OLLAMA} (OpenAI-compatible)",
        ),
    ],
)
def test_describe_is_one_line_without_the_key(env: dict[str, str], line: str) -> None:
    """``describe`` and ``repr`` name the provider and model but never show the API key."""
    settings = ModelSettings.from_env(env, dotenv=False)
    assert describe(settings) == line
    assert "sk-secret" not in repr(settings)


def test_open_chat_model_for_a_hosted_provider_builds_chat_openai() -> None:
    """A hosted provider yields a ``ChatOpenAI`` with the settings and the caller's overrides."""
    env = {"DEEPSEEK_API_KEY": "sk-d", "CUSTOM_REACT_TEMPERATURE": "0.2"}
    settings = ModelSettings.from_env(env, dotenv=False)
    with open_chat_model(settings, max_tokens=64) as model:
        assert isinstance(model, ChatOpenAI)
        assert (model.model_name, model.openai_api_base) == ("deepseek-chat", DEEPSEEK)
        assert (model.temperature, model.max_tokens) == (0.2, 64)
        assert model.openai_api_key is not None
        assert model.openai_api_key.get_secret_value() == "sk-d"  # type: ignore[union-attr]
