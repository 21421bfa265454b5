"""``.memsearch/.maintenance-state.json`` in memsearch's own schema, and the input digest.

memsearch reads this file back, so the shape is theirs: one object per
``"<platform>.<task>"`` key; a success *replaces* the entry, a failure *merges* the
failure keys into it so the last success survives. Written ``indent=2, sort_keys=True``
with a trailing newline, atomically (memsearch writes in place; we never leave half a file).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.safe_io import load_json

STATE_FILE = ".maintenance-state.json"
MAX_ERROR_CHARS = 2000
# Our own key in an entry (memsearch ignores keys it does not know): "proposed" while a
# proposal waits for review; memsearch's ``last_action`` stays one of its own values.
TUI_ACTION = "tui_action"
PROPOSED = "proposed"


def now_utc() -> str:
    """UTC ISO-8601 with ``Z``, as memsearch writes it."""
    return clock.now().isoformat().replace("+00:00", "Z")


def parse_time(value: Any) -> datetime | None:
    try:
        dt = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def state_path(memsearch_dir: Path) -> Path:
    return Path(memsearch_dir) / STATE_FILE


def load_state(memsearch_dir: Path) -> tuple[dict[str, Any], str]:
    """The state and a problem description ("" when fine). A broken file reads as empty,
    like memsearch, but the problem is reported so ``doctor`` can name it."""
    path = state_path(memsearch_dir)
    try:
        data = load_json(path, 10_000_000)  # a regular file, capped; deep nesting is a ValueError
    except FileNotFoundError:
        return {}, ""
    except (OSError, ValueError) as exc:
        return {}, f"{path}: unreadable state ({exc}); it will be rewritten on the next run"
    if not isinstance(data, dict):
        return {}, f"{path}: state is not a JSON object; it will be rewritten on the next run"
    return {k: v for k, v in data.items() if isinstance(v, dict)}, ""


def save_state(memsearch_dir: Path, state: dict[str, Any]) -> None:
    from memsearch_tui.engine.core.atomic import atomic_write_text  # tempfile: only paid when state is written

    atomic_write_text(state_path(memsearch_dir), json.dumps(state, indent=2, sort_keys=True) + "\n")


def record_success(
    memsearch_dir: Path, key: str, *, digest: str, action: str, output_file: Path, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Replace the entry of ``key`` (re-reading the file first so other tasks' entries survive)."""
    now = now_utc()
    entry = {
        "last_checked_at": now,
        "last_success_at": now,
        "last_input_digest": digest,
        "last_action": action,
        "output_file": str(output_file),
        **(extra or {}),
    }
    state, _ = load_state(memsearch_dir)
    state[key] = entry
    save_state(memsearch_dir, state)
    return entry


def record_decision(memsearch_dir: Path, key: str, proposal_id: str, decision: str) -> bool:
    """A person accepted or rejected the proposal ``key``'s last run made: the entry stops
    saying "proposed" (``tui_action`` becomes the decision; an accepted rewrite's
    ``last_action`` becomes memsearch's ``replace``). Another run's entry is left alone."""
    state, _ = load_state(memsearch_dir)
    entry = state.get(key)
    if not entry or entry.get("proposal_id") != proposal_id or entry.get(TUI_ACTION) != PROPOSED:
        return False
    entry[TUI_ACTION] = decision
    if decision == "accepted" and entry.get("last_action") == "none":
        entry["last_action"] = "replace"
    save_state(memsearch_dir, state)
    return True


def record_failure(
    memsearch_dir: Path, key: str, *, digest: str, error: str, output_file: Path | None = None
) -> dict[str, Any]:
    """Merge the failure keys into the entry of ``key``, keeping its last success."""
    now = now_utc()
    state, _ = load_state(memsearch_dir)
    entry = dict(state.get(key, {}))
    entry.update(
        last_checked_at=now,
        last_failed_at=now,
        failed_input_digest=digest,
        last_action="error",
        last_error=_truncate(error),
    )
    if output_file is not None:
        entry["output_file"] = str(output_file)
    state[key] = entry
    save_state(memsearch_dir, state)
    return entry


def _truncate(message: str) -> str:
    """memsearch's rule: at most 2000 characters, marked when cut. Secrets are masked
    first (a provider's stderr can echo its key): the state file is read by ``status``,
    ``doctor``, the TUI and memsearch itself."""
    from memsearch_tui.engine.core.secrets import redact  # re2: only when a failure is recorded
    from memsearch_tui.engine.core.terminal import printable

    message = printable(redact(message))  # memsearch prints it back as it is
    marker = "... [truncated]"
    return message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - len(marker)] + marker


def input_digest(input_dir: Path) -> str:
    """memsearch's digest: sha256 over sorted ``**/*.md`` of relpath, NUL, bytes, NUL."""
    root = Path(input_dir)
    if not root.is_dir():
        return "sha256:empty"
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.md")):
        if not path.is_file():
            continue
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return f"sha256:{h.hexdigest()}"
