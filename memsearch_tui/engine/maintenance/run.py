"""Run the due tasks, and report every task's status for the TUI and ``maintenance status``.

One task's failure is recorded in state and returned as an ``error`` row; the next task
still runs. Results: ``proposed replaced none skip error disabled locked refused`` (refused:
a budget stopped the call before any request, see :mod:`.budget`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.maintenance.due import is_due
from memsearch_tui.engine.maintenance.locks import inspect_pid_lock, pid_lock_path, task_lock
from memsearch_tui.engine.maintenance.provider_check import provider_problem
from memsearch_tui.engine.memsearch.config import (
    ALL_TASKS,
    KNOWN_PLATFORMS,
    SKILL_TASK,
    TASK_DEFAULTS,
    TASKS,
    Config,
    SkillTaskSettings,
    TaskSettings,
    prompt_source,
    skill_task,
)
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.memsearch.state import (
    PROPOSED,
    TUI_ACTION,
    input_digest,
    load_state,
    record_failure,
    record_success,
)
from memsearch_tui.engine.memsearch.trust import sandbox_roots, task_locations

if TYPE_CHECKING:
    from memsearch_tui.engine.maintenance.providers import Runner

#: an enabled task's reason in ``status(..., check_input=False)``: its input was not looked
#: at, so whether it is due is not known (the Maintenance pane's first draw, issue 37)
UNCHECKED = "input not checked yet"
RESULTS = ("proposed", "replaced", "none", "skip", "error", "disabled", "locked", "refused")


@dataclass
class TaskResult:
    platform: str
    task: str
    result: str
    reason: str = ""
    proposal_id: str = ""
    output_file: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class TaskStatus:
    """One row of the Maintenance pane."""

    platform: str
    task: str
    enabled: bool
    provider: str
    model: str
    min_interval_hours: float
    due: bool
    reason: str
    input_dir: str
    output_file: str
    input_digest: str
    last_action: str = ""
    last_checked_at: str = ""
    last_success_at: str = ""
    last_failed_at: str = ""
    last_error: str = ""
    locked: bool = False
    pending_proposals: list[str] = field(default_factory=list)
    prompt: str = ""  # whose task text runs: "memsearch <file>", "memsearch-tui", "file <path>"
    blocked: str = ""  # why an enabled task cannot run here (its provider), as doctor says it
    memsearch_differs: str = ""  # project-file settings memsearch itself ignores (Config.memsearch_differs)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Paths:
    mem: Path
    input_dir: Path
    output_file: Path


def task_paths(project: Path, task: TaskSettings | SkillTaskSettings) -> _Paths:
    """The task's folders, resolved and checked (raises ``Refused`` for a path that leads out
    of the project unless the user chose it, or for a section a bad value disabled).
    ``memory_to_skill`` writes into memsearch's ``<memsearch dir>/skill-candidates``, always."""
    if task.problem:
        raise Refused(f"{task.platform}.{task.task} is disabled by a bad config value: {task.problem}")
    if isinstance(task, SkillTaskSettings):
        mem, src, _ = task_locations(
            project, task.input_dir, TASK_DEFAULTS["project_review"]["output_file"], task.user_paths
        )
        return _Paths(mem, src, mem / "skill-candidates")
    return _Paths(*task_locations(project, task.input_dir, task.output_file, task.user_paths))


def task_paths_once(project: Path) -> Callable[[TaskSettings | SkillTaskSettings], _Paths]:
    """``task_paths`` for one listing of every task, resolved once per distinct setting: the
    platforms share theirs (12 rows, 3 settings by default), and each resolution walks every
    path's parts with ``lstat`` (~90 calls a row; issue 37 item 5). A refusal is kept too."""
    done: dict[tuple[Any, ...], _Paths | Refused] = {}

    def paths(task: TaskSettings | SkillTaskSettings) -> _Paths:
        if task.problem:  # its message names the platform: not shared
            return task_paths(project, task)
        key = (type(task), task.input_dir, task.output_file, task.user_paths)
        if key not in done:
            try:
                done[key] = task_paths(project, task)
            except Refused as exc:
                done[key] = exc
        got = done[key]
        if isinstance(got, Refused):
            raise got
        return got

    return paths


def _status_platforms(config: Config, state: dict[str, Any], platforms: list[str] | None) -> list[str]:
    """The platforms ``status`` lists: those asked for, else the config's and the state's."""
    if platforms:
        return platforms
    seen = [*config.platforms(), *(k.split(".", 1)[0] for k in state if "." in k)]
    return list(dict.fromkeys(seen)) or list(KNOWN_PLATFORMS)


def task_settings(config: Config, platform: str, name: str) -> TaskSettings | SkillTaskSettings:
    """The settings of any task, ``memory_to_skill`` included (it has keys of its own)."""
    return skill_task(config, platform) if name == SKILL_TASK else config.task(platform, name)


def select_platforms(config: Config, platforms: list[str] | None) -> list[str]:
    return list(platforms) if platforms else config.platforms()


def default_tasks(config: Config, platform: str) -> list[str]:
    """The tasks a run without ``--task`` covers: both rewrites, and ``memory_to_skill``
    when it is enabled (off by default, as in memsearch; ``status`` always lists it)."""
    return [*TASKS, SKILL_TASK] if skill_task(config, platform).enabled else list(TASKS)


def run_tasks(
    project: Path,
    config: Config,
    *,
    platforms: list[str] | None = None,
    tasks: list[str] | None = None,
    force: bool = False,
    memory_root: Path | None = None,
    ask: Runner | None = None,
) -> list[TaskResult]:
    """Run every due task of ``platforms`` (default: the configured ones)."""
    project = Path(project).resolve()
    results = []
    for platform in select_platforms(config, platforms):
        for name in tasks or default_tasks(config, platform):
            results.append(run_one(project, config, platform, name, force=force, memory_root=memory_root, ask=ask))
    return results


def run_one(
    project: Path,
    config: Config,
    platform: str,
    name: str,
    *,
    force: bool = False,
    memory_root: Path | None = None,
    ask: Runner | None = None,
) -> TaskResult:
    task = task_settings(config, platform, name)
    if task.problem:
        return TaskResult(platform, name, "error", f"config: {task.problem}")
    if not task.enabled:
        return TaskResult(platform, name, "disabled", "enabled = false")
    try:
        paths = task_paths(project, task)
    except Refused as exc:  # nothing is read, run or written for a path that leads out
        return TaskResult(platform, name, "error", exc.message)
    key = f"{platform}.{name}"
    due, reason = _due_now(task, paths, key, force)  # cheap, unlocked: the hook's no-op path
    if not due:
        return TaskResult(platform, name, "skip", reason)
    from memsearch_tui.engine.review import (
        proposals,  # everything past the due check is imported only when a task is due
    )

    with task_lock(paths.mem, platform, name) as held:
        if not held:
            return TaskResult(platform, name, "locked", "another run holds this task's lock")
        # Under the lock, read state and input again: memsearch (or another of our runs)
        # may have run this task since the unlocked check; it must not run twice.
        digest = input_digest(paths.input_dir)
        due, reason = _due_now(task, paths, key, force, digest)
        if not due:
            return TaskResult(platform, name, "skip", reason)
        rejected = proposals.was_rejected(project, platform, name, digest)
        if rejected:  # --force too: the model would be paid to propose what a person refused
            again = "; change the journals, or `memsearch-tui undo` the reject, to ask again" if force else ""
            return TaskResult(platform, name, "skip", f"proposal {rejected.id} for this input was rejected{again}")
        from memsearch_tui.engine.maintenance.budget import BudgetRefused, Meter  # a task is due

        meter = Meter(config, platform, name, ask)  # the budget check before each call, the ledger after
        try:
            if isinstance(task, SkillTaskSettings):
                done = _execute_skills(project, config, task, paths, digest, memory_root, meter.ask)
            else:
                done = _execute(project, config, task, paths, digest, memory_root, meter.ask)
        except BudgetRefused as exc:  # no request was sent; state untouched, so the task stays due
            return TaskResult(platform, name, "refused", exc.message, output_file=str(paths.output_file))
        except Exception as exc:
            from memsearch_tui.engine.core.secrets import redact  # only on failure

            meter.close("error")
            message = redact(exc.message if isinstance(exc, MemsearchError) else f"{type(exc).__name__}: {exc}")
            record_failure(paths.mem, key, digest=digest, error=message, output_file=paths.output_file)
            return TaskResult(platform, name, "error", message, output_file=str(paths.output_file))
        meter.close(done.result)
        return done


def _due_now(
    task: TaskSettings | SkillTaskSettings, paths: _Paths, key: str, force: bool, digest: str | None = None
) -> tuple[bool, str]:
    state, _ = load_state(paths.mem)
    return is_due(task, state.get(key, {}), digest or input_digest(paths.input_dir), force=force)


def _execute(
    project: Path,
    config: Config,
    task: TaskSettings,
    paths: _Paths,
    digest: str,
    memory_root: Path | None,
    ask: Runner | None,
) -> TaskResult:
    from memsearch_tui.engine.maintenance import providers as providers_mod
    from memsearch_tui.engine.maintenance.answer import parse_answer
    from memsearch_tui.engine.maintenance.prompts import build_prompt, task_text
    from memsearch_tui.engine.maintenance.sandbox import Sandbox
    from memsearch_tui.engine.review import proposals

    key = f"{task.platform}.{task.task}"
    provider = config.provider(task.provider)
    prompt = build_prompt(
        template=task_text(task.task, config.prompt_override(task.task), prompt_source(config)),
        platform=task.platform,
        task=task.task,
        project=project,
        input_dir=paths.input_dir,
        output_file=paths.output_file,
        digest=digest,
    )
    call = providers_mod.Call(
        platform=task.platform,
        model=task.model or provider.model,
        project=project,
        sandbox=Sandbox(sandbox_roots(project, paths.mem, paths.input_dir)),
    )
    from memsearch_tui.engine.core.secrets import redact

    answer = parse_answer((ask or providers_mod.ask)(provider, call, prompt))
    answer = type(answer)(answer.action, redact(answer.reason), answer.content)  # the reason is shown and kept
    out = str(paths.output_file)
    if answer.action == "replace":
        proposals.refuse_added_secrets(paths.output_file, answer.content, "the model's answer")
    if answer.action == "none":
        record_success(paths.mem, key, digest=digest, action="none", output_file=paths.output_file)
        return TaskResult(task.platform, task.task, "none", answer.reason, output_file=out)
    rejected = proposals.was_rejected(project, task.platform, task.task, digest)
    if rejected:
        record_success(paths.mem, key, digest=digest, action="none", output_file=paths.output_file)
        return TaskResult(
            task.platform,
            task.task,
            "none",
            f"same input as rejected proposal {rejected.id}; not proposed again",
            output_file=out,
        )
    if config.review:
        prop = proposals.create(
            project,
            platform=task.platform,
            task=task.task,
            target=paths.output_file,
            content=answer.content,
            reason=answer.reason,
            input_digest=digest,
        )
        # Nothing was replaced yet: memsearch's own key says "none" (a value it knows),
        # ours says "proposed" in a key memsearch ignores.
        record_success(
            paths.mem,
            key,
            digest=digest,
            action="none",
            output_file=paths.output_file,
            extra={"proposal_id": prop.id, TUI_ACTION: PROPOSED},
        )
        return TaskResult(task.platform, task.task, "proposed", answer.reason, proposal_id=prop.id, output_file=out)
    proposals.write_target(
        paths.output_file,
        answer.content,
        memory_root=memory_root,
        kind="maintenance-replace",
        summary=f"{key} replaced {paths.output_file.name} (review = false)",
    )
    record_success(paths.mem, key, digest=digest, action="replace", output_file=paths.output_file)
    return TaskResult(task.platform, task.task, "replaced", answer.reason, output_file=out)


def _execute_skills(
    project: Path,
    config: Config,
    task: SkillTaskSettings,
    paths: _Paths,
    digest: str,
    memory_root: Path | None,
    ask: Runner | None,
) -> TaskResult:
    """``memory_to_skill``: candidates become proposals (or are written, review = false);
    state as memsearch records it (``last_action`` distilled | none)."""
    from memsearch_tui.engine.maintenance.skills import distill

    out = distill(project, config, task, paths.input_dir, digest, memory_root=memory_root, ask=ask)
    action = "none" if out.result == "none" else "distilled"
    extra = {"proposal_ids": out.proposal_ids} if out.proposal_ids else None
    record_success(
        paths.mem,
        f"{task.platform}.{SKILL_TASK}",
        digest=digest,
        action=action,
        output_file=paths.output_file,
        extra=extra,
    )
    return TaskResult(
        task.platform,
        SKILL_TASK,
        out.result,
        out.reason,
        proposal_id=",".join(out.proposal_ids),
        output_file=str(paths.output_file),
    )


def due_tasks(
    project: Path,
    config: Config,
    *,
    platforms: list[str] | None = None,
    tasks: list[str] | None = None,
    force: bool = False,
) -> list[tuple[str, str]]:
    """``(platform, task)`` pairs that a run would execute now — the cheap check hooks use
    before deciding to start a background run (no proposals, no locks, no imports)."""
    project = Path(project).resolve()
    state = _state(project)
    out = []
    for platform in select_platforms(config, platforms):
        for name in tasks or default_tasks(config, platform):
            task = task_settings(config, platform, name)
            if not task.enabled:
                continue
            try:
                source = task_paths(project, task).input_dir
            except Refused:
                continue  # reported by `maintenance status` and `doctor`; never run
            if is_due(task, state.get(f"{platform}.{name}", {}), input_digest(source), force=force)[0]:
                out.append((platform, name))
    return out


def _shown_action(entry: dict[str, Any]) -> str:
    """memsearch's ``last_action``, or ours ("proposed") when it only says "none"."""
    action = str(entry.get("last_action", ""))
    return str(entry.get(TUI_ACTION) or action) if action == "none" else action


def status(
    project: Path,
    config: Config,
    *,
    platforms: list[str] | None = None,
    disabled_digests: bool = True,
    check_input: bool = True,
) -> list[TaskStatus]:
    """Every task of every relevant platform: settings, state, due or why not, proposals;
    ``disabled_digests`` False: "" for a disabled task's input digest (not computed).
    ``check_input`` False: no digest at all, so no day file is listed or stat-ed (10,000
    ``stat`` calls at 10,000 days, in every fresh process); an enabled task's row then has
    digest "", ``due`` False and the reason :data:`UNCHECKED`, every other field as with
    it: a first draw the full answer completes (the Maintenance pane)."""
    project = Path(project).resolve()
    mem = memsearch_dir(project)
    state = _state(project)
    platforms = _status_platforms(config, state, platforms)
    from memsearch_tui.engine.core.secrets import redact
    from memsearch_tui.engine.review import proposals

    pending = proposals.list_pending(project) if _mem_ok(project) else []
    rows = []
    digests: dict[Path, str] = {}  # input folder → digest: the tasks share one or two folders
    paths_of = task_paths_once(project)
    prompts: dict[str, str] = {}  # task → where its text comes from: the same on every platform
    for platform in platforms:
        for name in ALL_TASKS:
            task = task_settings(config, platform, name)
            entry = state.get(f"{platform}.{name}", {})
            try:
                paths = paths_of(task)
            except Refused as exc:
                rows.append(_refused_row(task, entry, exc.message))
                continue
            if check_input and (task.enabled or disabled_digests):
                digest = digests.get(paths.input_dir) or digests.setdefault(
                    paths.input_dir, input_digest(paths.input_dir)
                )
            else:
                digest = ""  # not asked for: a disabled task is never due
            if not task.enabled:
                due, reason = False, "disabled"
            else:
                due, reason = is_due(task, entry, digest) if check_input else (False, UNCHECKED)
            lock = inspect_pid_lock(pid_lock_path(mem, platform, name))
            bad = provider_problem(config, platform, name, task.provider) if task.enabled else None
            rows.append(
                TaskStatus(
                    platform=platform,
                    task=name,
                    enabled=task.enabled,
                    provider=task.provider,
                    model=task.model,
                    min_interval_hours=task.min_interval_hours,
                    due=due,
                    reason=reason,
                    input_dir=str(paths.input_dir),
                    output_file=str(paths.output_file),
                    input_digest=digest,
                    last_action=_shown_action(entry),
                    last_checked_at=str(entry.get("last_checked_at", "")),
                    last_success_at=str(entry.get("last_success_at", "")),
                    last_failed_at=str(entry.get("last_failed_at", "")),
                    last_error=redact(str(entry.get("last_error", ""))),  # memsearch writes it too, unmasked
                    locked=bool(lock and not lock.stale),
                    pending_proposals=[p.id for p in pending if p.platform == platform and p.task == name],
                    prompt=prompts.get(name) or prompts.setdefault(name, _prompt_origin(config, name)),
                    blocked=bad.problem if bad else "",
                    memsearch_differs=config.memsearch_differs(platform, name),
                )
            )
    return rows


def output_files(project: Path, config: Config) -> dict[str, Path]:
    """Each task's output file, the first platform's that names one, as :func:`status`'s
    rows name them (a refused task's as configured), without what only ``status`` needs:
    the Notes pane asked ``status`` for these two paths, and it digested every day file."""
    project = Path(project).resolve()
    out: dict[str, Path] = {}
    paths_of = task_paths_once(project)
    for platform in _status_platforms(config, _state(project), None):
        for name in ALL_TASKS:
            task = task_settings(config, platform, name)
            try:
                output = str(paths_of(task).output_file)
            except Refused:
                output = task.output_file
            if output:
                out.setdefault(name, Path(output))
    return out


def _prompt_origin(config: Config, task: str) -> str:
    """Which task text a run would use (or why none can be read), for status."""
    from memsearch_tui.engine.maintenance.prompts import task_prompt

    try:
        return task_prompt(task, config.prompt_override(task), prompt_source(config))[1]
    except MemsearchError as exc:
        return f"error: {exc.message}"


def _mem_ok(project: Path) -> bool:
    """False when the project's memsearch folder links out of it (then nothing there is read)."""
    import os

    from memsearch_tui.engine.memsearch.trust import check_path

    if os.environ.get("MEMSEARCH_DIR"):
        return True
    try:
        check_path(memsearch_dir(project), project, "the memsearch folder")
    except Refused:
        return False
    return True


def _state(project: Path) -> dict[str, Any]:
    """memsearch's state file, unless the memsearch folder leads out of the project."""
    return load_state(memsearch_dir(project))[0] if _mem_ok(project) else {}


def _refused_row(task: TaskSettings | SkillTaskSettings, entry: dict[str, Any], message: str) -> TaskStatus:
    """A status row for a task whose config or paths were refused: shown, never run."""
    return TaskStatus(
        platform=task.platform,
        task=task.task,
        enabled=False,
        provider=task.provider,
        model=task.model,
        min_interval_hours=task.min_interval_hours,
        due=False,
        reason=f"refused: {message}",
        input_dir=task.input_dir,
        output_file=task.output_file,
        input_digest="",
        last_action=str(entry.get("last_action", "")),
        last_success_at=str(entry.get("last_success_at", "")),
        last_error=str(entry.get("last_error", "")),
    )
