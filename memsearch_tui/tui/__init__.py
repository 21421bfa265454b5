"""The Textual app. Only its launch imports this package (``cli/tui_launch.py``), so its
import is the app's start: the cyclic collector runs less often from here to the first
frame (``start_gc``: Textual's and the engine's imports are ~35,000 objects that live as
long as the process, and were scanned again and again).
"""

from memsearch_tui.tui import start_gc as _start_gc

_start_gc.hold()
