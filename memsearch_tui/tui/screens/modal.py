"""The base of every dialog: a ``ModalScreen`` that knows it lives in the memsearch app.

Textual types ``screen.app`` as a plain ``App``; the dialogs call the app's own methods
(``report``, ``refresh_panes``, ``keymap``), so this base tells the type checker which
app it is. Nothing changes at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.screen import ModalScreen

if TYPE_CHECKING:
    from memsearch_tui.tui.app import MemsearchApp

ResultT = TypeVar("ResultT")


class Modal(ModalScreen[ResultT]):
    """A dialog of the memsearch app."""

    if TYPE_CHECKING:

        @property
        def app(self) -> MemsearchApp: ...  # type: ignore[override]
