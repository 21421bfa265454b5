"""What a search returns: hits with where they are, and which strategy ran and why."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Hit:
    """One result: an entry id (store) or a file path (journals), and the lines it covers."""

    id: str
    path: str
    source: str  # store | journal
    kind: str  # entry | journal | project | user
    heading: str
    start: int
    end: int
    score: float
    snippet: str
    chunk_id: str = ""

    def as_dict(self) -> dict:
        d = asdict(self)
        d["lines"] = [self.start, self.end]
        return d


@dataclass
class SearchResult:
    query: str
    strategy: str  # the strategy that ran
    requested: str  # what was asked for (auto, …)
    reason: str
    hits: list[Hit] = field(default_factory=list)
    files: int = 0
    took_ms: float = 0.0
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "query": self.query,
            "strategy": self.strategy,
            "requested": self.requested,
            "reason": self.reason,
            "files": self.files,
            "took_ms": round(self.took_ms, 1),
            "notes": self.notes,
            "hits": [h.as_dict() for h in self.hits],
        }
