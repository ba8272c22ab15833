"""Clock: the sentence for injected moments in several time zones, and the tool ignoring its input."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from langchain_core.runnables import RunnableConfig

from custom_react.running.context import LANGUAGE_KEY
from tools.clock import current_date, describe_current_date

MOMENTS = [
    (
        datetime(2026, 11, 30, 14, 5, tzinfo=UTC),
        "Today is Monday, 2026-11-30; local time 14:05 UTC.",
    ),
    (
        datetime(2025, 2, 14, 9, 30, tzinfo=timezone(timedelta(hours=8), "CST")),
        "Today is Friday, 2025-02-14; local time 09:30 CST (UTC+08:00).",
    ),
    (
        datetime(2025, 1, 1, 0, 0, tzinfo=timezone(timedelta(hours=-5), "EST")),
        "Today is Wednesday, 2025-01-01; local time 00:00 EST (UTC-05:00).",
    ),
    (
        datetime(2025, 7, 4, 23, 59, tzinfo=timezone(timedelta(hours=5, minutes=30))),
        "Today is Friday, 2025-07-04; local time 23:59 UTC+05:30.",
    ),
    (
        datetime(2024, 2, 29, 12, 0, tzinfo=timezone(timedelta(hours=-3))),
        "Today is Thursday, 2024-02-29; local time 12:00 UTC-03:00.",
    ),
]


@pytest.mark.parametrize(("moment", "expected"), MOMENTS)
def test_describe_current_date_with_injected_clock(moment: datetime, expected: str) -> None:
    """The sentence gives weekday, date, time and zone; a named zone other than UTC shows its offset."""
    assert describe_current_date(lambda: moment) == expected


def test_naive_clock_is_taken_as_local_time() -> None:
    """A clock without a time zone is read as the machine's local time."""
    sentence = describe_current_date(lambda: datetime(2026, 11, 30, 14, 5))
    assert sentence.startswith("Today is Monday, 2026-11-30; local time 14:05 ")


@pytest.mark.parametrize("action_input", ["none", "", "today", {}])
def test_tool_ignores_whatever_input_the_model_writes(action_input: str | dict[str, str]) -> None:
    """Whatever Action Input the model writes, the tool answers with the date."""
    assert current_date.invoke(action_input).startswith("Today is ")


def test_tool_takes_no_arguments() -> None:
    """The `current_date` tool has no arguments."""
    assert current_date.name == "current_date"
    assert current_date.args == {}


def test_the_sentence_in_chinese() -> None:
    """In Chinese the weekday and the words are Chinese; the date, time and zone are the same."""
    moment = datetime(2026, 11, 30, 14, 5, tzinfo=UTC)
    assert (
        describe_current_date(lambda: moment, "zh")
        == "今天是 2026-11-30，星期一；本地时间 14:05 UTC。"
    )


def test_a_chinese_run_gets_the_date_in_chinese() -> None:
    """The tool writes in the calling run's language (English outside a run)."""
    config: RunnableConfig = {"configurable": {LANGUAGE_KEY: "zh"}}
    assert current_date.invoke({}, config).startswith("今天是 ")
