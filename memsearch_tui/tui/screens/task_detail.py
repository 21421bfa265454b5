"""One maintenance task in full: state, times, the whole last error and doctor's fix.

The task table cuts its cells to fit (``…not foun``); Enter on a row opens this screen
with everything the state file and ``doctor`` know about the task, and — for a disabled
task — the command that enables it and the provider it would use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.api.records import TaskStatus

from memsearch_tui.tui.actions import bound_key, key_of
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import home_relative, short_time, untrusted


def doctor_fixes(mem: Memory, platform: str, task: str) -> list[tuple[str, str, str]]:
    """(status, message, fix) of doctor's checks about this task (worker thread)."""
    where = f"{platform}.{task}"
    return [(c.status, c.message, c.fix) for c in mem.maintenance.doctor().checks if c.message.startswith(where)]


def enable_hint(row: TaskStatus, where: Path | None = None, project_file: bool = False) -> Text:
    """How to enable a disabled task, in the file that disables it: a task the project's
    ``.memsearch.toml`` turns off stays off whatever the home file says, so the command
    offered then edits the project file (``--project-file``)."""
    out = Text()
    out.append("This task is disabled", style="bold")
    out.append(f" in {home_relative(where)}" if where else " (the default)", style="bold")
    out.append(" — the project file wins over ~/.memsearch/config.toml. " if project_file else ". ")
    out.append(f"It would use the {row.provider or 'native'!s} provider")
    out.append(f" (model {row.model})" if row.model else "")
    out.append(f", write {home_relative(row.output_file)} from {home_relative(row.input_dir)}")
    out.append(f", at most every {row.min_interval_hours:g} h. Enable it with:\n")
    out.append(
        f"  memsearch-tui maintenance enable {row.task} --platform {row.platform} --provider {row.provider or 'native'}"
        + (" --project-file" if project_file else ""),
        style="bold",
    )
    out.append(
        f"\nor set enabled = true under [plugins.{row.platform}.{row.task}] in "
        f"{home_relative(where) if where else '~/.memsearch/config.toml'}.",
        style="dim",
    )
    return out


def detail(
    row: TaskStatus,
    fixes: list[tuple[str, str, str]] | None,
    styles: dict[str, str],
    where: tuple[Path | None, bool] = (None, False),
) -> Group:
    """The screen's body: facts, the full error, doctor's findings (``None``: still checking)."""
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column()
    facts.add_row("enabled", Text("yes", style=styles["success"]) if row.enabled else Text("no", style="dim"))
    facts.add_row("provider", Text(f"{row.provider or 'native'}" + (f" · {row.model}" if row.model else "")))
    facts.add_row("input", home_relative(row.input_dir))
    facts.add_row("output", home_relative(row.output_file))
    facts.add_row(
        "due", Text("due now", style=styles["warning"]) if row.due else untrusted(row.reason, keep_newlines=False)
    )
    if row.blocked:
        facts.add_row("cannot run", untrusted(row.blocked, styles["error"], keep_newlines=False))
    # the state file is the project's (memsearch writes it too): its text is drawn as text, never markup
    facts.add_row("last action", Text(row.last_action or "never"))
    facts.add_row("last checked", Text(short_time(row.last_checked_at, "never", seconds=True)))
    facts.add_row("last success", Text(short_time(row.last_success_at, "never", seconds=True)))
    facts.add_row("last failure", Text(short_time(row.last_failed_at, "never", seconds=True)))
    if row.locked:
        facts.add_row("running", Text("yes (a run holds the lock)", style=styles["warning"]))
    parts: list[Any] = [facts, Text("")]
    if not row.enabled:
        parts += [enable_hint(row, *where), Text("")]
    if row.last_error:
        parts.append(
            Text(
                f"Last error ({short_time(row.last_failed_at, 'never', seconds=True)})", style=f"bold {styles['error']}"
            )
        )
        parts.append(untrusted(row.last_error))
        parts.append(Text(""))
    if fixes is None:
        parts.append(Text("doctor: checking…", style="dim"))
    elif fixes:
        parts.append(Text("doctor", style="bold"))
        for status, message, fix in fixes:
            line = Text(f"{status:<8} ", style=styles["error"] if status == "problem" else "dim")
            line.append_text(untrusted(message, keep_newlines=False))
            parts.append(line)
            if fix:
                parts.append(Text.assemble(("  fix: ", "bold"), untrusted(fix, styles["success"], keep_newlines=False)))
    else:
        parts.append(Text("doctor: nothing to fix for this task.", style="dim"))
    return Group(*parts)


class TaskDetailScreen(Modal[None]):
    """Everything about one task; doctor runs in a worker and fills in its fix."""

    BINDINGS = [Binding("escape,q,enter,left", "dismiss", "Close")]

    def __init__(self, row: TaskStatus, mem: Memory) -> None:
        super().__init__(classes="modal")
        self.row, self.mem = row, mem  # mem: the app's engine.api.Memory
        self.fixes: list[tuple[str, str, str]] | None = None
        self.where: tuple[Path | None, bool] = (None, False)  # the file that disables it; is it the project's?

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="task-detail"):
            yield Label(f"{self.row.platform}.{self.row.task}", classes="dialog-title")
            with VerticalScroll(classes="dialog-scroll"):
                yield Static(id="task-detail-body")
            yield Label(
                f"{bound_key(self.BINDINGS, 'dismiss')} closes · "
                f"{key_of(self.app.keymap, 'maintenance.run')} in the pane runs the task now",
                classes="hint",
            )

    def _styles(self) -> dict[str, str]:
        from memsearch_tui.tui.text import tone

        return {k: tone(self, k) for k in ("success", "warning", "error")}

    def on_mount(self) -> None:
        self._draw()
        self.run_worker(self._doctor, thread=True, exit_on_error=False, group="task-detail", name="doctor")

    def _draw(self) -> None:
        self.query_one("#task-detail-body", Static).update(detail(self.row, self.fixes, self._styles(), self.where))

    def _doctor(self) -> None:
        if not self.row.enabled:
            self.where = self.mem.maintenance.enabled_in(self.row.platform, self.row.task)
        try:
            fixes = doctor_fixes(self.mem, self.row.platform, self.row.task)
        except Exception as exc:  # doctor must not take the detail down with it
            fixes = [("problem", f"{self.row.platform}.{self.row.task}: doctor failed: {exc}", "")]
        call_while_shown(self, self._got, fixes)

    def _got(self, fixes: list[tuple[str, str, str]]) -> None:
        self.fixes = fixes
        self._draw()
