"""Headless engine: pure Python, no textual/rich/typer, heavy ML/DB deps imported lazily.

Sub-modules are imported by callers directly (``from memsearch_tui.engine.store.store import Store``)
so that importing this package costs nothing on the hook path.
"""
