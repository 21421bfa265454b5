"""Where the engine's notices go (ignored config keys, disabled sections): the face decides.

Its own module, import-free like ``core.notices``: every command line (the hook's too)
sets the reporter before anything else runs.
"""

from __future__ import annotations

from memsearch_tui.engine.core.notices import set_reporter

__all__ = ["set_reporter"]
