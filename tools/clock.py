"""The `current_date` tool: today's date, weekday, local time and time zone as one sentence.

`describe_current_date` does the work and takes the clock as an argument, so tests pass a fixed
`datetime` instead of patching anything. The tool takes no arguments; whatever a model writes as its
Action Input ("none", "", "today") is ignored. The sentence is in the calling run's language (the
message tables' `date_today` and `weekdays`). This module does no date arithmetic and no parsing.
"""

from collections.abc import Callable
from datetime import datetime, timedelta

from langchain_core.runnables import ensure_config
from langchain_core.tools import tool

from custom_react.prompts import load_messages
from custom_react.running.context import run_language
from tools.texts import description, descriptions


def local_now() -> datetime:
    """Return the current time as an aware `datetime` in the machine's local time zone."""
    return datetime.now().astimezone()


def describe_current_date(now: Callable[[], datetime] = local_now, language: str = "en") -> str:
    """Describe the moment `now()` returns in one sentence for the model.

    For example: "Today is Monday, 2026-11-30; local time 14:05 UTC."
    ("今天是 2026-11-30，星期一；本地时间 14:05 UTC。" in Chinese).

    Args:
        now: The clock. It should return an aware `datetime`; a naive one is taken as local time.
        language: The sentence's language, "en" or "zh".

    Returns:
        One sentence with the weekday, the ISO date, the 24-hour time and the time zone (its name and,
        when the name is not already "UTC", its offset from UTC).
    """
    moment = now()
    if moment.tzinfo is None:
        moment = moment.astimezone()
    texts = load_messages(language)
    # Spelled out in the tables because `%A` follows the process locale, and the sentence should not.
    weekday = texts["weekdays"].split()[moment.weekday()]
    return texts["date_today"].format(
        weekday=weekday,
        date=f"{moment:%Y-%m-%d}",
        time=f"{moment:%H:%M}",
        zone=_zone_label(moment),
    )


def _zone_label(moment: datetime) -> str:
    """Name the time zone of an aware `moment`: "UTC", "CST (UTC+08:00)", "UTC+05:30"."""
    offset = moment.utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    hours, remainder = divmod(abs(int(offset.total_seconds())), 3600)
    utc_offset = f"UTC{sign}{hours:02d}:{remainder // 60:02d}"
    name = moment.tzname() or ""
    if name == "UTC" and not offset:
        return "UTC"
    if name and not name.startswith(("UTC", "+", "-")):
        return f"{name} ({utc_offset})"
    return utc_offset


@tool("current_date", description=description("tool_current_date"))
def current_date() -> str:
    """Return `describe_current_date()` for the real clock; any input the model wrote is ignored."""
    # The calling run's config (LangChain sets it while the tool runs): its language, if any.
    return describe_current_date(language=run_language(ensure_config()) or "en")


current_date.metadata = descriptions("tool_current_date")  # the prompt shows it in its own language
