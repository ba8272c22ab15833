"""The web page in a real headless Chromium: `custom-react ui --scripted`, driven by Playwright.

The command is started as a learner starts it, on a free loopback port; Playwright drives the
system `chromium` (CI installs it with apt; Playwright downloads no browser of its own here).
One learner's session: ask in step mode, continue, write a reply of one's own, see the loop use
it, fork from call 2 (call 1 replayed), approve the terminal command, read the Final Answer,
switch to Chinese, and save a screenshot in the test's folder. Skipped, with the reason, when
Chromium or Playwright is missing.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from re import compile as re_compile

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)"
)
MY_REPLY = "Thought: Let me double it instead.\nAction: calculator\nAction Input: 2 * 1.05"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def page_url(tmp_path: Path) -> Iterator[str]:
    """`custom-react ui --scripted --port PORT` running; its URL."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "custom_react.cli.app",
        "ui",
        "--scripted",
        "--port",
        str(port),
    ]
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.1)
        else:
            pytest.fail("the page did not come up")
        assert server.poll() is None, (tmp_path / "server.log").read_text()
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


def test_a_learner_steps_edits_forks_and_approves_in_chromium(page_url: str, tmp_path: Path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            learn(page, page_url, sync_api.expect, tmp_path)
            assert errors == []
        finally:
            browser.close()


def call(page, n: int):
    """The card of model call `n`."""
    return page.locator(f'section.call[data-call="{n}"]')


def learn(page, url: str, expect, tmp_path: Path) -> None:
    page.goto(url)
    expect(page.locator("h1")).to_have_text("custom-react: watch the ReAct loop")
    expect(page.locator("#question")).to_have_value(re_compile("wholesale price of a rose"))
    # Ask in step mode: the run pauses before call 1, its prompt shown whole.
    page.check("#step-mode")
    page.click("#ask")
    expect(call(page, 1).locator(".waiting")).to_be_visible()
    expect(call(page, 1).locator("details.prompt mark").last).to_contain_text("Question: ")
    call(page, 1).locator("button.continue").click()
    # Call 1 answered: raw reply, parsed step, Observation; call 2 waits, its new part highlighted.
    expect(call(page, 1).locator(".raw-reply")).to_contain_text("Action: search")
    expect(call(page, 1).locator("table.fields")).to_contain_text("rose wholesale price Kunming")
    expect(call(page, 1).locator(".observation")).to_contain_text("Dounan")
    expect(call(page, 2).locator(".waiting")).to_be_visible()
    new_part = call(page, 2).locator("details.prompt mark").last
    expect(new_part).to_contain_text("Thought: I need the wholesale price first.")
    expect(new_part).to_contain_text("Observation: [offline snapshot")
    # The learner writes call 2's reply; the loop runs the tool it names.
    call(page, 2).locator("textarea.reply-edit").fill(MY_REPLY)
    call(page, 2).locator("button.continue").click()
    expect(call(page, 2).locator(".raw-reply")).to_have_text(MY_REPLY)
    expect(call(page, 2).locator(".tag")).to_have_text("written by you, not the model")
    expect(call(page, 2).locator(".observation pre")).to_have_text("2.1")
    expect(call(page, 3).locator(".waiting")).to_be_visible()
    # Fork from call 2: call 1 is replayed as it was, the run waits before call 2 again.
    call(page, 2).locator("button.fork").click()
    expect(call(page, 1).locator(".tag")).to_have_text("replayed from the run before the fork")
    expect(call(page, 2).locator(".waiting")).to_be_visible()
    expect(page.locator("section.call")).to_have_count(2)
    call(page, 2).locator("button.continue").click()  # this time the (scripted) model answers
    expect(call(page, 2).locator(".observation pre")).to_have_text("1.05")
    call(page, 3).locator("button.continue").click()
    # The terminal command needs approval: a button.
    approval = call(page, 3).locator(".approval")
    expect(approval).to_contain_text("run_terminal_command needs your approval")
    approval.locator("button.approve").click()
    expect(call(page, 3).locator(".observation")).to_contain_text("1.05 yuan a stem")
    call(page, 4).locator("button.continue").click()
    expect(page.locator(".final-answer")).to_contain_text("About 1.05 yuan a stem")
    expect(page.locator("#summary")).to_contain_text("final_answer")
    # The same page in Chinese, without a reload; then back, with call 2's prompt opened.
    page.click('button[data-lang="zh"]')
    expect(page.locator("h1")).to_have_text("custom-react：看 ReAct 循环如何工作")
    expect(call(page, 4).locator("h2")).to_contain_text("第 4 次模型调用")
    expect(call(page, 3).locator("button.fork")).to_have_text("分叉：从这次调用起重新运行")
    page.click('button[data-lang="en"]')
    call(page, 2).locator("details.prompt > summary").click()
    expect(call(page, 2).locator("details.prompt mark").last).to_be_visible()
    shot = tmp_path / "ui.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
