"""``memory_to_skill``: memsearch's background skill distillation, through our review flow.

The prompt has memsearch's structure (task text with ``{{AGENT_NAME}} {{PROJECT_DIR}}
{{INPUT_DIR}} {{MIN_OCCURRENCES}}``, then "## Existing skills", then "## Recent memory
journal entries", at most ``MAX_PROMPT_CHARS``), the answer memsearch's JSON
``{"skills": [{name, description, body, occurrences, sources, reason}]}``. Each new or
changed skill becomes one pending proposal of kind ``skill``; accepting it writes
``.memsearch/skill-candidates/<slug>/SKILL.md`` and ``meta.json``
(:mod:`memsearch_tui.engine.review.skill_candidates`). With ``[tui] review = false`` they
are written at once, as memsearch does. Nothing is ever installed into an agent's skills
folder: that stays a person's step.

The model's answer is untrusted: at most ``MAX_SKILLS`` skills, each body at most
``MAX_BODY_CHARS``, names slugified, anything malformed dropped (a wholly unusable
answer is an error recorded in state, never a partial write).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import loads_json
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.maintenance.prompts import MAX_PROMPT_CHARS, _journals_within, fill, task_text
from memsearch_tui.engine.memsearch.config import SKILL_TASK, Config, SkillTaskSettings, prompt_source
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review import skill_candidates as cands

if TYPE_CHECKING:
    from memsearch_tui.engine.maintenance.providers import Runner

MAX_SKILLS = 20
MAX_BODY_CHARS = 20_000
MAX_DESCRIPTION_CHARS = 1_000
MAX_EXISTING_BODY_CHARS = 2_000  # memsearch's cap per existing skill in the prompt
_FENCE = re.compile(r"```(?:json|JSON)?\s*(\{.*\})\s*```", re.DOTALL)


@dataclass
class SkillOutcome:
    result: str  # proposed | replaced | none
    reason: str
    proposal_ids: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)


def build_skill_prompt(template: str, task: SkillTaskSettings, project: Path, input_dir: Path) -> str:
    """memsearch's distill prompt: task text, existing skills, newest journals; bounded."""
    head = fill(
        template,
        {
            "AGENT_NAME": task.platform,
            "TASK_NAME": SKILL_TASK,
            "PROJECT_DIR": str(project),
            "INPUT_DIR": str(input_dir),
            "MIN_OCCURRENCES": str(task.min_occurrences),
        },
    )
    existing = _existing_block(project)
    before = f"{head}\n\n## Existing skills (you may revise these)\n\n{existing}\n\n## Recent memory journal entries\n\n```markdown\n"
    after = "\n```\n"
    journals = _journals_within(input_dir, max(0, MAX_PROMPT_CHARS - len(before) - len(after)))
    return (before + journals + after)[:MAX_PROMPT_CHARS]


def _existing_block(project: Path) -> str:
    blocks = []
    for meta in cands.existing(project):
        name = str(meta.get("name", ""))
        try:
            body = _body(
                (cands.candidates_root(project) / cands.slugify(name) / "SKILL.md").read_text(encoding="utf-8")
            )
        except OSError:
            body = ""
        if len(body) > MAX_EXISTING_BODY_CHARS:
            body = body[:MAX_EXISTING_BODY_CHARS] + "\n…[truncated]"
        blocks.append(f"### {name}\n{meta.get('description', '')}\n\nCurrent body:\n```markdown\n{body}\n```")
    return "\n\n".join(blocks) or "(none)"


def _body(skill_md: str) -> str:
    if skill_md.startswith("---"):
        parts = skill_md.split("---", 2)
        if len(parts) == 3:
            return parts[2].strip()
    return skill_md.strip()


def parse_skills(raw: str) -> list[dict[str, Any]]:
    """The skills of a model answer, cleaned and bounded; InvalidInput when unusable."""
    text = (raw or "").strip()
    m = _FENCE.search(text)
    if m:
        text = m.group(1)
    try:
        data = loads_json(text)
    except ValueError as exc:
        raise InvalidInput(f"memory_to_skill: the model did not return valid JSON ({exc})") from None
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, list):
        raise InvalidInput('memory_to_skill: the answer must be {"skills": [...]}')
    out: dict[str, dict[str, Any]] = {}
    for item in skills[:MAX_SKILLS]:
        if not isinstance(item, dict):
            continue
        desc = " ".join(str(item.get("description", "")).split())[:MAX_DESCRIPTION_CHARS]
        body = str(item.get("body", "")).strip()
        if not desc or not body or len(body) > MAX_BODY_CHARS:
            continue
        occ = item.get("occurrences")
        listed = item.get("sources")
        sources = listed if isinstance(listed, list) else []
        name = cands.slugify(str(item.get("name", "")))
        out[name] = {
            "name": name,
            "description": desc,
            "body": body,
            "occurrences": occ if isinstance(occ, int) and not isinstance(occ, bool) else None,
            "sources": [str(s)[:200] for s in sources[:50]],
            "reason": str(item.get("reason", "")).strip()[:1000],
        }
    return list(out.values())


def distill(
    project: Path,
    config: Config,
    task: SkillTaskSettings,
    input_dir: Path,
    digest: str,
    *,
    memory_root: Path | None,
    ask: Runner | None = None,
) -> SkillOutcome:
    """Ask the model once; propose (or, with review off, write) each new or changed skill."""
    from memsearch_tui.engine.maintenance import providers as providers_mod
    from memsearch_tui.engine.maintenance.sandbox import Sandbox
    from memsearch_tui.engine.memsearch.project import memsearch_dir
    from memsearch_tui.engine.memsearch.trust import sandbox_roots

    provider = config.provider(task.provider)
    template = task_text(SKILL_TASK, config.prompt_override(SKILL_TASK), prompt_source(config))
    prompt = build_skill_prompt(template, task, project, input_dir)
    call = providers_mod.Call(
        platform=task.platform,
        model=task.model or provider.model,
        project=project,
        sandbox=Sandbox(sandbox_roots(project, memsearch_dir(project), input_dir)),
    )
    skills = parse_skills((ask or providers_mod.ask)(provider, call, prompt))
    changed = [(s, cands.render_skill_md(s["name"], s["description"], s["body"])) for s in skills]
    decided = _already_proposed(project)
    changed = [(s, md) for s, md in changed if _current(project, s["name"]) != md and md not in decided]
    if not changed:
        why = "every skill is unchanged, pending or was rejected" if skills else "no new or changed skill"
        return SkillOutcome("none", why)
    reason = "; ".join(f"{s['name']}: {s['reason'] or s['description']}" for s, _ in changed)[:1000]
    if config.review:
        ids = [_propose(project, task, s, md, digest).id for s, md in changed]
        return SkillOutcome("proposed", reason, proposal_ids=ids)
    return SkillOutcome("replaced", reason, written=_write_now(project, changed, memory_root, task.platform))


def _already_proposed(project: Path) -> set[str]:
    """SKILL.md texts pending or rejected before: a rejected skill is not proposed again
    (per skill, not per input digest: one run may propose several)."""
    return {
        p.content
        for p in proposals.list_all(project)
        if p.task == SKILL_TASK and p.status in (proposals.PENDING, proposals.REJECTED)
    }


def _current(project: Path, name: str) -> str | None:
    try:
        return (cands.candidates_root(project) / name / "SKILL.md").read_text(encoding="utf-8")
    except OSError:
        return None


def _propose(
    project: Path, task: SkillTaskSettings, skill: dict[str, Any], skill_md: str, digest: str
) -> proposals.ProjectProposal:
    meta = {k: skill[k] for k in ("name", "description", "occurrences", "sources", "reason")}
    return proposals.create(
        project,
        platform=task.platform,
        task=SKILL_TASK,
        target=cands.candidates_root(project) / skill["name"] / "SKILL.md",
        content=skill_md,
        reason=skill["reason"] or skill["description"],
        input_digest=digest,
        kind=proposals.SKILL_KIND,
        extra={"skill": meta},
    )


def _write_now(
    project: Path, changed: list[tuple[dict[str, Any], str]], memory_root: Path | None, platform: str
) -> list[str]:
    """``[tui] review = false``: write the candidates at once (logged when there is a store)."""
    from memsearch_tui.engine.history.txn import Transaction, transaction
    from memsearch_tui.engine.review import candidate_repo

    summary = f"{platform}.{SKILL_TASK} wrote {plural(len(changed), 'skill candidate')} (review = false)"
    root = candidate_repo.prepare(project)  # memsearch's own repository, before anything lands
    created = sum(cands.is_new(project, s["name"]) for s, _ in changed)
    if memory_root is None:
        written = [str(cands.write_candidate(Transaction(), project, s, md)) for s, md in changed]
    else:
        with transaction(memory_root, "maintenance-skills", summary) as txn:
            written = [str(cands.write_candidate(txn, project, s, md)) for s, md in changed]
    candidate_repo.commit(root, candidate_repo.distill_message(created, len(changed) - created, platform))
    return written
