"""The Index pane moved to the ``panes/index/`` package; this name stays importable."""

from memsearch_tui.tui.panes.index.pane import IndexPane

__all__ = ["IndexPane"]
