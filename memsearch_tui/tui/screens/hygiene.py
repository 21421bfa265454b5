"""Hygiene findings in one screen: ``H`` (the palette, Help; Enter on the Overview's
hygiene line).

Left: every finding (``mem.hygiene.scan``), grouped by kind with its count; right, for the
finding under the cursor: the ids or paths involved, its evidence (the two sentences, the
missing path and the nearest one; a secret only as its rule and line) and the fix it would
propose. The scan reads every memory, seconds on a big store: it runs in a thread worker
when the screen opens and on ``r``, never on the UI thread; nothing here writes (``hygiene
--propose`` files the fixes, reviewed in Maintenance).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.engine.api.hygiene import KINDS
from memsearch_tui.engine.api.text import plural
from memsearch_tui.tui.actions import bindings
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import clip, printable, tone
from memsearch_tui.tui.widgets.keys import KeyFooter

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.api.hygiene import Finding, HygieneReport


def evidence(f: Finding) -> Text:
    """The right side for one finding: where, each piece of evidence, the fix."""
    out = Text(f"{f.kind}\n", style="bold")
    out.append(printable(", ".join(f.ids), keep_newlines=False) + "\n\n")
    for e in f.evidence:
        out.append("• ")
        out.append(printable(e, keep_newlines=False) + "\n")
    out.append("\nfix: ", style="bold")
    out.append(printable(f.fix, keep_newlines=False))
    if f.proposal:
        out.append(f"\nproposal {f.proposal} (Maintenance, 5)", style="dim")
    return out


def ids_label(f: Finding, width: int) -> Text:
    """A finding's ids one to a line, each clipped at a word boundary to ``width`` cells
    (the list would otherwise wrap a long id mid-word); the evidence shows them whole."""
    return Text("\n").join(clip(Text(printable(i, keep_newlines=False)), width) for i in f.ids)


class HygieneScreen(Modal[None]):
    """Every hygiene finding by kind, with its evidence; ``r`` scans again."""

    BINDINGS = bindings("hygiene")

    def __init__(self, mem: Memory) -> None:
        super().__init__(classes="modal")
        self.mem = mem
        self.report: HygieneReport | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor", id="hygiene"):
            yield Label("Hygiene · what has rotted across every memory", classes="dialog-title")
            yield Static("scanning every memory…", id="hy-counts", classes="meta")
            with Horizontal():
                with Vertical(classes="left-narrow"):
                    yield OptionList(id="hy-list")
                with VerticalScroll(classes="right"):
                    yield Static(id="hy-evidence")
            yield KeyFooter(id="hy-footer")

    def on_mount(self) -> None:
        self.query_one("#hy-list", OptionList).focus()
        self.action_rescan()

    def action_rescan(self) -> None:
        """Scan in a thread: the UI stays live while every memory is read."""
        self.query_one("#hy-counts", Static).update("scanning every memory…")
        self._scan()

    @work(thread=True, exclusive=True, group="hygiene")
    def _scan(self) -> None:
        try:
            report = self.mem.hygiene.scan()
        except MemsearchError as exc:
            call_while_shown(self, self._failed, exc.message)
            return
        call_while_shown(self, self._show, report)

    def _failed(self, message: str) -> None:
        self.query_one("#hy-counts", Static).update(Text(printable(message), style=tone(self, "error")))

    def _show(self, report: HygieneReport) -> None:
        self.report = report
        counts = report.counts()
        head = Text(f"{plural(len(report.findings), 'finding')}: ")
        head.append(" · ".join(f"{counts[k]} {k}" for k in KINDS), style="bold")
        head.append(
            f"\nread {plural(report.entries, 'entry', 'entries')}, {plural(report.host_files, 'host memory file')}, "
            f"{plural(report.journals, 'journal day')}",
            style="dim",
        )
        for note in report.notes[:3]:
            head.append(f"\nnote: {printable(note, keep_newlines=False)}", style="dim")
        self.query_one("#hy-counts", Static).update(head)
        lst = self.query_one("#hy-list", OptionList)
        lst.clear_options()
        width = max(12, lst.scrollable_content_region.width - 1)
        for kind in KINDS:
            found = [(n, f) for n, f in enumerate(report.findings) if f.kind == kind]
            if not found:
                continue
            lst.add_option(Option(Text(f"{kind} · {len(found)}", style=tone(self, "primary", "bold")), disabled=True))
            for n, f in found:
                lst.add_option(Option(ids_label(f, width), id=str(n)))
        if not report.findings:
            lst.add_option(Option(Text("nothing has rotted", style="dim"), disabled=True))
            self.query_one("#hy-evidence", Static).update("")
            return
        lst.highlighted = next(i for i, o in enumerate(lst.options) if o.id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "hy-list" and event.option.id and self.report is not None:
            self.query_one("#hy-evidence", Static).update(evidence(self.report.findings[int(event.option.id)]))
