"""The tests' one door to Textual's private API: what Pilot gives no public way to read.

Each use is one function here, and ``tests/tui/test_textual_private.py`` checks each against
the installed Textual (the attribute exists and behaves), so a Textual upgrade that changes
one fails there, by name, instead of in twenty flows at once. Textual is pinned
(pyproject.toml) because the snapshots are byte-exact.
"""

from __future__ import annotations

from typing import Any


def notifications(app: Any) -> list[Any]:
    """The notifications (toasts) the app is showing now, oldest first: each has ``title``,
    ``message`` and ``severity`` (``App._notifications``; Textual has no public reader)."""
    return list(app._notifications)


def screen_strips(app: Any) -> list[Any]:
    """The rows of the current screen as drawn now, each a ``Strip`` (``Screen._compositor``:
    what the user sees, cut and clipped, rather than the widgets' contents)."""
    return list(app.screen._compositor.render_strips())


def count_layouts(monkeypatch: Any) -> list[tuple[Any, bool]]:
    """Every full layout of a screen from now on, as (screen, scroll) (``Screen._refresh_layout``:
    where Textual lays a screen out; no public event tells a layout that moved nothing)."""
    from textual.screen import Screen

    done: list[tuple[Any, bool]] = []
    real = Screen._refresh_layout

    def refresh_layout(self: Any, size: Any = None, scroll: bool = False) -> None:
        done.append((self, scroll))
        real(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", refresh_layout)
    return done
