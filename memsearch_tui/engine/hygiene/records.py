"""What ``hygiene`` reports: one ``Finding`` per problem, and the ``HygieneReport`` around them.

Field names are wire names (``--json``, MCP): keep them and their order.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("secret", "over-long", "dead-reference", "duplicate", "contradiction", "stale")


@dataclass(frozen=True)
class Finding:
    """One problem: its ``kind``, the store ids or host file paths involved (``ids``), the
    ``evidence`` a person judges it by (the two sentences, the missing path with the
    nearest existing one; a secret only as its rule and line, never its value), the
    ``fix`` it would propose, and once proposed the ``proposal`` id ("" when none: an
    over-long host file is reported but not condensed here)."""

    kind: str
    ids: tuple[str, ...]
    evidence: tuple[str, ...]
    fix: str
    proposal: str = ""


@dataclass(frozen=True)
class HygieneReport:
    """Every finding (ordered by kind, then ids), how much was read, and notes on what the
    pass could not use (``vectors`` False: duplicates by keyword overlap only)."""

    findings: tuple[Finding, ...]
    entries: int
    host_files: int
    journals: int
    vectors: bool
    notes: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        """Findings per kind, every kind named (0 when none)."""
        return {k: sum(f.kind == k for f in self.findings) for k in KINDS}


@dataclass(frozen=True)
class HygieneLast:
    """What the last background pass found (``hygiene-last.json``): when (``time``, ISO),
    ``result`` ("done" or "error", with ``reason``), findings per kind (every kind named)
    and how many proposals it filed. Cheap to read: the app's Overview shows it without
    scanning."""

    time: str
    result: str
    counts: tuple[tuple[str, int], ...]
    proposals: int = 0
    reason: str = ""
