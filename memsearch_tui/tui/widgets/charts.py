"""Small charts drawn with rich text and block characters (no plotting dependency).

A sparkline of journal turns per day and a stacked bar of store entries by status: both
are a line of ``Text``, so they fit any width, copy as text and render in every terminal.
"""

from __future__ import annotations

from datetime import date

from rich.text import Text

LEVELS = " ▁▂▃▄▅▆▇█"


def sparkline(values: list[int], style: str = "") -> Text:
    """One character per value, scaled to the largest; a zero day is a dot (quiet, not missing)."""
    top = max(values, default=0)
    out = Text()
    for v in values:
        if v <= 0 or top == 0:
            out.append("·", style="dim")
        else:
            out.append(LEVELS[max(1, round(v / top * (len(LEVELS) - 1)))], style=style)
    return out


def day_axis(days: list[date]) -> Text:
    """Month labels under a sparkline: the first day of each month, at its column."""
    line = [" "] * len(days)
    last_end = -1
    for i, d in enumerate(days):
        if i == 0 or d.day == 1:
            label = d.strftime("%b %-d")
            if i > last_end and i + len(label) <= len(days):
                line[i : i + len(label)] = list(label)
                last_end = i + len(label)
    end = days[-1].strftime("%b %-d") if days else ""
    if end and len(days) - len(end) > last_end:
        line[len(days) - len(end) :] = list(end)
    return Text("".join(line), style="dim")


def stacked_bar(parts: list[tuple[int, str]], total_max: int, width: int) -> Text:
    """A bar of ``width`` cells for the largest total; each part (count, style) in turn."""
    out = Text()
    if total_max <= 0:
        return out
    used = 0
    for count, style in parts:
        cells = round(count / total_max * width)
        if count and not cells:
            cells = 1
        out.append("█" * cells, style=style)
        used += cells
    return out
