"""The state folder of a memory root, ``<root>/.memsearch-tui/``: every file it holds, in one place.

Nothing in it is a source of truth: the Markdown files are. The caches and indexes are
rebuilt from the files when missing or damaged; the operation log and its blobs are the undo
history (losing them loses undo, never an entry); proposals wait for a person's review.
The search index keeps its own state elsewhere (``engine/search/settings.py``: the user's
data folder), because it spans the store and a project's journals.
"""

from __future__ import annotations

from pathlib import Path

STATE_DIR = ".memsearch-tui"

WRITE_LOCK = "write.lock"  # core/locking.py: the root's one write lock (flock)
OPLOG = "oplog"  # history/oplog.py: one <seq>.json record per operation
BLOBS = "blobs"  # history/oplog.py: content-addressed bytes the records point at
CATALOG = "catalog.sqlite3"  # store/catalog.py: one row per entry file (derived)
ACCESS = "access.sqlite3"  # store/access.py: the last day each entry was read (activation)
LINK_SCAN = "lifecycle-scan.json"  # store/links.py: related ids and links per file (derived)
PROPOSALS = "proposals"  # review/store_proposals.py: lifecycle and split plans awaiting review
UPKEEP = "upkeep.json"  # upkeep/store_upkeep.py: when the hook last checked lifecycle and splits
GREP_CACHE = "grep.sqlite3"  # search/grep_index.py: text copy with a trigram index (derived)
GREP_STAMP = "grep.stamp"  # search/change_scan.py: the time of the last change scan
PENDING_TXN = "pending"  # history/intent.py: the journal of each transaction in progress
PURGE_PENDING = "purge-pending"  # search/purge.py: search copies a purge must still scrub
MEMSEARCH_SCRUB = "memsearch-index-pending.json"  # memsearch/index_scrub.py: chunks its index still holds
JOURNAL_FORGOTTEN = "journal-forgotten.json"  # curator/journal_forgotten.py: forgotten turns' ids and hashes


def state_dir(root: Path | str) -> Path:
    """``<root>/.memsearch-tui`` (not created here)."""
    return Path(root) / STATE_DIR


def state_file(root: Path | str, name: str) -> Path:
    """One of the names above inside the root's state folder."""
    return Path(root) / STATE_DIR / name
