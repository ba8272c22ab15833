"""The chat templates the local server is started with, and which model gets which.

llama.cpp's server renders a chat request with a Jinja template and, when the request has
``tools``, learns from that same template how the model writes a tool call, so it can return the
call as OpenAI ``tool_calls``. Qwen2.5-Coder's own template (in its GGUF file) asks for Hermes
``<tool_call>`` tags, but the bundled 1.5B model writes its call as a fenced JSON block instead,
which llama.cpp then returns as plain text: ``create_agent`` takes it for the answer.
``qwen2.5-coder-tools.jinja`` is that template with three strings changed: the tool instructions
and the rendering of earlier calls use a ```` ```json ```` block, which is what the model writes.
A request without tools takes the template's unchanged branch, so text ReAct sees the same prompt
as with the model's own template. Measured in ``bench/results/tool_calling_formats.md``.
``template_for`` picks the file by the model being served (``chosen_template`` applies a server's
``chat_template`` choice); nothing here starts a server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from custom_react.serving.weights import BUNDLED_MODELS

TEMPLATES = Path(__file__).parent
"""The folder that holds the shipped templates (package data)."""


def template_for(model_path: Path) -> Path | None:
    """Return the shipped chat template for a bundled model's file, else ``None`` (its own)."""
    for model in BUNDLED_MODELS.values():
        if Path(model_path).name == model.filename and model.chat_template:
            return TEMPLATES / model.chat_template
    return None


def chosen_template(model_path: Path, choice: Path | Literal["shipped"] | None) -> Path | None:
    """Return ``choice``, or for ``"shipped"`` the template shipped for the model, if any."""
    return template_for(model_path) if isinstance(choice, str) else choice
