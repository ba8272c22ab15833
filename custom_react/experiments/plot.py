"""An experiment's chart: solved questions and model calls per condition, as an SVG file.

Drawn with matplotlib (the `dev` extra) from the saved results alone, so the chart on a docs page
can be redrawn from `experiment.json` and always shows the numbers in the table. The SVG is made
reproducible: no date in its metadata and fixed element ids, so an unchanged report draws the same
file byte for byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from custom_react.experiments.report import summarize

_PANELS = (
    ("solved", "questions solved"),
    ("model_calls", "model calls, all questions"),
    ("tokens", "tokens (prompt + completion)"),
)


def save_plot(data: dict[str, Any], path: str | Path) -> Path:
    """Draw one bar chart per measure in `_PANELS`, a bar per condition; return the SVG path."""
    import matplotlib  # the `dev` extra: only an experiment's report needs it

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = data["name"]
    matplotlib.rcParams["font.family"] = ["DejaVu Sans"]
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator

    summary = summarize(data)
    labels = [condition["label"] for condition in data["conditions"]]
    figure, axes = pyplot.subplots(1, len(_PANELS), figsize=(4.2 * len(_PANELS), 3.6))
    colours = [f"C{index}" for index in range(len(labels))]
    questions = len(data["questions"])
    for axis, (key, title) in zip(axes, _PANELS, strict=True):
        values = [summary[label][key] for label in labels]
        bars = axis.bar(range(len(labels)), values, color=colours)
        axis.bar_label(bars, labels=[str(value) for value in values], padding=2)
        axis.set_title(title if key != "solved" else f"{title} (of {questions})", fontsize=10)
        axis.set_xticks(range(len(labels)), [_wrap(label) for label in labels], fontsize=8)
        axis.spines[["top", "right"]].set_visible(False)
        axis.yaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_ylim(0, max([*values, questions if key == "solved" else 1]) * 1.18)
    axes[0].axhline(questions, color="grey", linewidth=0.8, linestyle="--")
    figure.suptitle(f"{data['title']} ({data['model']})", fontsize=10)
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    return target


def _wrap(label: str, width: int = 16) -> str:
    """A condition label on two or three short lines, so the labels of a panel do not overlap."""
    lines: list[str] = []
    for word in label.split():
        if lines and len(lines[-1]) + len(word) < width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)
