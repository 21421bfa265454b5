"""memsearch-tui: see, search and curate what AI coding agents remember."""

__version__ = "0.1.0"
