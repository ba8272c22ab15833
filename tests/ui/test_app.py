"""The web page's server without a browser: Starlette's `TestClient` against a scripted session.

Each endpoint: the page (its settings and both languages' words), the items as JSON and as
server-sent events, asking, stepping with the model's reply or the learner's, editing the prompt
for one call, forking from call k (the calls before replayed as they were answered), approving
and rejecting a tool, and the refusals (409 when nothing waits, 400 for a bad request).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from custom_react.ui import make_app, scripted_session
from custom_react.ui.labels import PAGE, SCRIPTED

Items = list[dict[str, Any]]


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    session = scripted_session("en", tmp_path)
    with TestClient(make_app(session, scripted=True)) as test_client:
        yield test_client
    if session.run is not None:
        session.run.pause.cancel()  # a run still waiting ends with the test


def wait_for(client: TestClient, done: Callable[[Items], bool], timeout: float = 10) -> Items:
    """The run's items once `done` holds for them."""
    end = time.monotonic() + timeout
    while True:
        items = client.get("/items").json()
        if done(items):
            return items
        if time.monotonic() > end:
            raise AssertionError(f"timed out; items so far: {[i['type'] for i in items]}")
        time.sleep(0.02)


def waiting(call: int) -> Callable[[Items], bool]:
    return lambda items: any(
        i["type"] == "call" and i.get("waiting") and i["call"] == call for i in items
    )


def finished(items: Items) -> bool:
    return any(item["type"] == "result" for item in items)


def answered(items: Items) -> list[dict[str, Any]]:
    return [item for item in items if item["type"] == "call" and "reply" in item]


def test_the_page_carries_its_settings_and_both_languages(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    settings = json.loads(page.text.split("const SETTINGS = ", 1)[1].split(";\n", 1)[0])
    assert settings["labels"] == PAGE and settings["lang"] == "en" and settings["scripted"]
    assert settings["question"] == SCRIPTED["en"]["question"]
    assert "<script src=" not in page.text and "https://" not in page.text  # nothing from elsewhere


def test_a_run_without_step_mode_goes_to_the_end_but_waits_for_approval(client):
    assert client.post("/ask", json={"question": "A rose plus 5%?"}).json() == {"run": 1}
    items = wait_for(client, lambda items: any(i["type"] == "approval" for i in items))
    assert items[-1] == {
        "type": "approval",
        "tool": "run_terminal_command",
        "args": {"command": "echo 1.05 yuan a stem"},
        "run": 1,
        "seq": len(items) - 1,
    }
    assert client.post("/approve", json={"approve": True}).json() == {"ok": True}
    items = wait_for(client, finished)
    observations = [item for item in items if item["type"] == "observation"]
    assert "1.05 yuan a stem" in observations[-1]["observation"]
    assert [item["source"] for item in answered(items)] == ["model"] * 4
    assert items[-1]["stop_reason"] == "final_answer" and items[-1]["iterations"] == 4


def test_each_call_shows_its_exact_prompt_split_where_it_stops_repeating(client):
    client.post("/ask", json={"question": "A rose plus 5%?"})
    wait_for(client, lambda items: any(i["type"] == "approval" for i in items))
    client.post("/approve", json={"approve": False})
    items = wait_for(client, finished)
    started = [item for item in items if item["type"] == "call" and "messages" in item]
    first, second = started[0], started[1]
    assert [m["role"] for m in first["messages"]] == ["system", "human"]
    assert all(m["same"] == "" for m in first["messages"]) and first["previous_call"] == 0
    assert first["messages"][1]["new"] == "Question: A rose plus 5%?\nThought: "
    assert second["previous_call"] == 1 and second["messages"][0]["new"] == ""
    assert second["messages"][1]["same"] == "Question: A rose plus 5%?\n"
    assert second["messages"][1]["new"].startswith("Thought: I need the wholesale price first.")
    assert "Observation: [offline snapshot" in second["messages"][1]["new"]
    decided = [item for item in items if item["type"] == "approval_decided"]
    assert decided[0]["approved"] is False
    assert any(i["type"] == "observation" and i["status"] == "denied" for i in items)


def test_step_mode_pauses_before_each_call_and_takes_the_learners_reply(client):
    client.post("/ask", json={"question": "A rose plus 5%?", "step": True})
    items = wait_for(client, waiting(1))
    assert not answered(items)  # nothing is asked of the model before the learner says so
    assert client.post("/step", json={}).json() == {"ok": True}
    wait_for(client, waiting(2))
    mine = "Thought: Let me double it.\nAction: calculator\nAction Input: 2 * 1.05"
    client.post("/step", json={"reply": mine})
    items = wait_for(client, waiting(3))
    assert answered(items)[1]["reply"] == mine and answered(items)[1]["source"] == "edited"
    observation = [item for item in items if item["type"] == "observation"][-1]
    assert observation["observation"] == "2.1"


def test_an_edited_prompt_is_what_that_call_is_sent(client):
    client.post("/ask", json={"question": "A rose plus 5%?", "step": True})
    wait_for(client, waiting(1))
    client.post("/step", json={"prompt": "Question: What is 2 + 2?\nThought: "})
    items = wait_for(client, waiting(2))
    assert answered(items)[0]["edited_prompt"] == "Question: What is 2 + 2?\nThought: "
    # The loop builds the next prompt from its own records: the edit was for one call only.
    second = [item for item in items if item.get("waiting")][-1]
    assert second["messages"][1]["same"] == "Question: A rose plus 5%?\n"


def test_a_fork_replays_the_calls_before_and_pauses_at_call_k(client):
    client.post("/ask", json={"question": "A rose plus 5%?", "step": True})
    wait_for(client, waiting(1))
    client.post("/step", json={})
    wait_for(client, waiting(2))
    mine = "Thought: Let me double it.\nAction: calculator\nAction Input: 2 * 1.05"
    client.post("/step", json={"reply": mine})
    wait_for(client, waiting(3))
    assert client.post("/fork", json={"call": 3}).json() == {"run": 2}
    items = wait_for(client, waiting(3))
    assert items[0] == {
        "type": "run_started",
        "question": "A rose plus 5%?",
        "step_mode": True,
        "run": 2,
        "seq": 0,
    }
    assert [(c["call"], c["source"], c["reply"]) for c in answered(items)] == [
        (1, "replayed", SCRIPTED["en"]["replies"][0]),
        (2, "replayed", mine),
    ]
    assert all(item["run"] == 2 for item in items)


def test_the_event_stream_sends_every_item_once_in_order(client):
    client.post("/ask", json={"question": "A rose plus 5%?"})
    wait_for(client, lambda items: any(i["type"] == "approval" for i in items))
    client.post("/approve", json={"approve": True})
    wait_for(client, finished)
    with client.stream("GET", "/events?until_done=1") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    events = [block for block in text.split("\n\n") if block.startswith("id: ")]
    sent = [json.loads(block.split("data: ", 1)[1]) for block in events]
    assert sent == client.get("/items").json()
    assert [block.split("\n")[0] for block in events] == [f"id: 1:{n}" for n in range(len(sent))]
    # A page that reconnects gets what it missed of this run, from after its last event.
    with client.stream("GET", "/events?until_done=1", headers={"Last-Event-ID": "1:4"}) as again:
        resent = [block for block in "".join(again.iter_text()).split("\n\n") if "data: " in block]
    assert resent == events[5:]


def test_refusals(client):
    assert client.post("/step", json={}).status_code == 409  # no run
    assert client.post("/approve", json={"approve": True}).status_code == 409
    assert client.post("/ask", json={"question": "  "}).status_code == 400
    assert client.post("/fork", json={"call": 1}).status_code == 400  # nothing to fork
    client.post("/ask", json={"question": "A rose plus 5%?", "step": True})
    wait_for(client, waiting(1))
    assert client.post("/approve", json={"approve": True}).status_code == 409  # a step waits
    assert client.post("/fork", json={"call": 9}).status_code == 400
    assert client.post("/step", content=b"not json").json() == {"ok": True}  # continue as is


def test_a_new_question_ends_the_waiting_run(client):
    client.post("/ask", json={"question": "first", "step": True})
    wait_for(client, waiting(1))
    assert client.post("/ask", json={"question": "second", "step": True}).json() == {"run": 2}
    items = wait_for(client, waiting(1))
    assert items[0]["question"] == "second" and all(item["run"] == 2 for item in items)


def test_the_chinese_session_plays_the_chinese_script(tmp_path):
    session = scripted_session("zh", tmp_path)
    with TestClient(make_app(session, scripted=True)) as client:
        assert '"lang": "zh"' in client.get("/").text
        client.post("/ask", json={"question": "玫瑰？"})
        wait_for(client, lambda items: any(i["type"] == "approval" for i in items))
        client.post("/approve", json={"approve": True})
        items = wait_for(client, finished)
    assert items[-1]["output"].startswith("每枝约 1.05 元")
    first_prompt = next(item for item in items if item["type"] == "call")["messages"][0]["new"]
    assert first_prompt.startswith("请尽你所能回答问题")  # the Chinese system prompt


def test_a_run_ended_by_a_new_question_asks_the_model_nothing_more(tmp_path):
    from custom_react.ui.app import scripted_answers
    from custom_react.ui.session import Session
    from tools import default_tools
    from tools.workspace import make_workspace_tools

    asked: list[int] = []
    answer = scripted_answers("en")

    def counted(messages, stop, number):
        asked.append(number)
        return answer(messages, stop, number)

    tools = default_tools() + make_workspace_tools(tmp_path)
    session = Session(counted, tools)
    with TestClient(make_app(session)) as client:
        client.post("/ask", json={"question": "first"})
        wait_for(client, lambda items: any(i["type"] == "approval" for i in items))
        assert asked == [1, 2, 3]
        client.post("/ask", json={"question": "second", "step": True})
        wait_for(client, waiting(1))
        time.sleep(0.3)  # the first run's thread had its chance to go on
        assert asked == [1, 2, 3]
        session.run.pause.cancel()


@pytest.mark.parametrize(("given", "ended"), [(True, "final_answer"), (False, "model_error")])
def test_a_session_on_a_model_shortens_prompts_to_its_context_window(given, ended) -> None:
    from langchain_core.tools import tool

    from custom_react.testing import Script
    from custom_react.ui.app import model_answers
    from custom_react.ui.session import Session

    @tool
    def fetch(page: int) -> str:
        """Fetch a long page."""
        return f"page {page}: " + "lorem ipsum " * 300

    replies = [f"Action: fetch\nAction Input: {page}" for page in range(1, 5)]
    model = Script(*replies, "Final Answer: read them", context_window=1500).model
    model.metadata = {"context_window": 1756}
    session = Session(model_answers(model), [fetch], model=model if given else None)
    session.start("Read pages 1-4.")
    deadline = time.monotonic() + 20
    while not any(item["type"] == "result" for item in session.since(0)):
        assert time.monotonic() < deadline, session.since(0)
        time.sleep(0.02)
    (result,) = [item for item in session.since(0) if item["type"] == "result"]
    assert result["stop_reason"] == ended  # not told the model: the prompt overflowed
