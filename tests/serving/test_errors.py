"""What a failed model call is called on the command line: the failure, and what to do about it."""

from __future__ import annotations

import httpx
import openai
import pytest

from custom_react.serving.errors import model_error_message, model_failure_message

# llama.cpp's and OpenAI's words for a prompt over the context window.
TOO_LONG = [
    "request (9456 tokens) exceeds the available context size (4096 tokens), try increasing it",
    "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 "
    "tokens.",
]


@pytest.mark.parametrize("said", TOO_LONG)
def test_a_prompt_over_the_context_window_says_so_and_what_to_do(said: str) -> None:
    line = model_failure_message(f"BadRequestError: Error code: 400 - {said}")
    assert line.startswith("the prompt is too long for the model")
    assert "Shorten the question" in line and "Is the server up?" not in line
    request = httpx.Request("POST", "http://127.0.0.1:8080/v1/chat/completions")
    response = httpx.Response(400, request=request)
    error = openai.BadRequestError(said, response=response, body=None)
    assert model_error_message(error).startswith("the prompt is too long for the model")


def test_only_a_server_that_cannot_be_reached_is_asked_whether_it_is_up() -> None:
    down = model_failure_message("APIConnectionError: Connection error.")
    assert down == "the model call failed: Connection error. Is the server up?"
    refused = model_failure_message("InternalServerError: Error code: 500 - model crashed")
    assert refused == "the model call failed: Error code: 500 - model crashed."
