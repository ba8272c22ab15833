"""Load a web page in headless Chromium and collect the script errors it logs.

Shared by the coding demo's tests (`tests/demos/test_coding_demo.py`) and its success-rate benchmark
(`bench/coding_demo.py`). Chromium is optional: `CHROMIUM` is None when it is not installed
(`apt-get install -y chromium`).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass(frozen=True)
class PageLoad:
    """What the browser made of a page."""

    dom: str
    """The page's DOM after its scripts ran ("" when the browser had to be stopped)."""
    errors: list[str]
    """The "Uncaught ..." lines the browser logged."""
    stopped: bool
    """True when the page kept the browser busy (an endless `alert()` + `reload()`) past `wait`."""


def load_page(page: Path, profile: Path, wait: float = 30.0) -> PageLoad:
    """Load `page` in headless Chromium with 1.5 s of virtual time, so a game loop runs.

    A game that ends at once with `alert()` and `location.reload()` keeps a headless browser busy
    forever: after `wait` seconds the browser and its helpers are stopped and what it logged so far
    is read.

    Raises:
        RuntimeError: Chromium is not installed.
    """
    if CHROMIUM is None:
        raise RuntimeError("chromium is not installed (apt-get install -y chromium)")
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
        "--virtual-time-budget=1500", "--dump-dom", page.resolve().as_uri(),
    ]  # fmt: skip
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as browser:
        try:
            dom, log = browser.communicate(timeout=wait)
            stopped = False
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, signal.SIGKILL)  # the browser and its helper processes
            _, log = browser.communicate()
            dom, stopped = "", True
    errors = [line for line in log.splitlines() if "Uncaught" in line]
    return PageLoad(dom, errors, stopped)
