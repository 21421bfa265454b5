"""memsearch's skill candidates: ``.memsearch/skill-candidates/<slug>/SKILL.md`` + ``meta.json``.

The ``memory_to_skill`` task proposes skills; an accepted proposal lands here, in the
folder and formats memsearch uses, so its ``/memory-to-skill`` skill (and ``memsearch
skills install``) sees our candidates as its own. Candidates are never copied into an
agent's skills folder here: installing stays a person's step, as in memsearch.

Formats follow memsearch's ``skills.py``: SKILL.md is ``---\\nname: <slug>\\ndescription:
<json-quoted>\\n---\\n\\n<body>\\n``; meta.json keeps ``name status description content_hash
occurrences sources reason installed_paths created_at updated_at`` (an existing file's
other keys, such as ``installed_hash``, are kept). The folder is its own git repository,
made and committed as memsearch does it (:mod:`memsearch_tui.engine.review.candidate_repo`).
"""

from __future__ import annotations

import json
import re
from hashlib import sha1
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.memsearch.project import memsearch_dir

CANDIDATES_DIR = "skill-candidates"
MAX_NAME = 64
_SLUG = re.compile(r"[^a-z0-9-]+")


def candidates_root(project: Path) -> Path:
    return memsearch_dir(Path(project)) / CANDIDATES_DIR


def slugify(name: str) -> str:
    """memsearch's slug rule (lowercase, ``[a-z0-9-]``), bounded in length."""
    slug = _SLUG.sub("-", str(name).strip().lower()).strip("-")[:MAX_NAME].strip("-")
    return slug or "skill"


def render_skill_md(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {json.dumps(description, ensure_ascii=False)}\n---\n\n{body.rstrip()}\n"


def git_blob_hash(content: str | bytes) -> str:
    """``gitblob:<sha1>`` as memsearch computes ``content_hash``."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return "gitblob:" + sha1(f"blob {len(data)}\0".encode() + data).hexdigest()


def skill_dir(project: Path, name: str) -> Path:
    slug = slugify(name)
    if slug != name:
        raise InvalidInput(f"skill name {name!r} is not a slug (expected {slug!r})")
    return candidates_root(project) / slug


def existing(project: Path) -> list[dict[str, Any]]:
    """meta.json of every candidate (unreadable ones skipped), by name."""
    root = candidates_root(project)
    out: list[dict[str, Any]] = []
    if not root.is_dir():
        return out
    for child in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            meta = load_json(child / "meta.json")
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict):
            out.append(meta)
    return out


def updated_meta(old: dict[str, Any] | None, skill: dict[str, Any], skill_md: str) -> dict[str, Any]:
    """meta.json after writing ``skill``: memsearch's create-or-evolve rule."""
    now = clock.iso_z()
    sources = [str(s) for s in skill.get("sources") or []]
    occ = skill.get("occurrences")
    if old:
        meta = dict(old)
        meta["sources"] = sorted(set(meta.get("sources") or []) | set(sources))
        if isinstance(occ, int):
            meta["occurrences"] = max(int(meta.get("occurrences") or 0), occ)
        meta["description"] = skill["description"]
        meta["content_hash"] = git_blob_hash(skill_md)
        meta["updated_at"] = now
        return meta
    return {
        "name": skill["name"],
        "status": "candidate",
        "description": skill["description"],
        "content_hash": git_blob_hash(skill_md),
        "occurrences": occ if isinstance(occ, int) else None,
        "sources": sources,
        "reason": str(skill.get("reason") or ""),
        "installed_paths": [],
        "created_at": now,
        "updated_at": now,
    }


def is_new(project: Path, name: str) -> bool:
    """No candidate of that name yet (memsearch's commit says "add", else "evolve")."""
    return not (skill_dir(project, name) / "meta.json").is_file()


def write_candidate(txn: Any, project: Path, skill: dict[str, Any], skill_md: str) -> Path:
    """Write SKILL.md and meta.json of one candidate inside an open transaction."""
    folder = skill_dir(project, skill["name"])
    old = None
    try:
        loaded = load_json(folder / "meta.json")
        old = loaded if isinstance(loaded, dict) else None
    except (OSError, ValueError):
        pass
    meta = updated_meta(old, skill, skill_md)
    txn.write((folder / "SKILL.md").absolute(), skill_md)
    txn.write((folder / "meta.json").absolute(), json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return folder / "SKILL.md"
