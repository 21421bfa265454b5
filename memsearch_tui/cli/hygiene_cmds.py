"""``hygiene``: what has rotted across every memory — duplicates, contradictions, dead
references, stored secrets, over-long host files, stale entries — each with its evidence
and the fix it would propose. Listing changes nothing; ``--propose`` files the fixes as
proposals to accept or reject (``proposals``, the Maintenance pane).
"""

from __future__ import annotations

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api.hygiene import KINDS, HygieneReport
from memsearch_tui.engine.api.text import plural, printable, shown


def register(app: typer.Typer) -> None:
    """Add the ``hygiene`` command to the root app."""

    @app.command("hygiene")
    @handles_errors
    def hygiene(
        ctx: typer.Context,
        kind: list[str] = typer.Option(None, "--kind", metavar="KIND", help=f"Only these kinds: {', '.join(KINDS)}."),
        propose: bool = typer.Option(False, "--propose", help="File each fix as a proposal to accept or reject."),
        json_out: bool = JsonOpt,
    ) -> None:
        """List what has rotted across the store, the journals and the hosts' memory files (changes nothing)."""
        with settings(ctx).memory() as mem:
            report = mem.hygiene.propose(kind or None) if propose else mem.hygiene.scan(kind or None)
        as_json = json_out or settings(ctx).json
        emit(ctx, report, None if as_json else render(report), json_flag=as_json)


def render(report: HygieneReport) -> str:
    """The findings for a person: kind, where, evidence indented, the fix; then the counts.

    Each field is made one line here (controls escaped); secrets are masked once, over the
    whole text, when it is printed (``emit`` → ``say``), not again for each of thousands
    of fields (the evidence is masked by the engine already)."""
    out = []
    for f in report.findings:
        tag = f"  [proposal {f.proposal}]" if f.proposal else ""
        out.append(f"{f.kind}: {printable(', '.join(f.ids), newlines=False)}{tag}")
        out += [f"    {printable(e, newlines=False)}" for e in f.evidence]
        out.append(f"    fix: {printable(f.fix, newlines=False)}")
    counts = ", ".join(f"{n} {k}" for k, n in report.counts().items() if n)
    read = (
        f"read {plural(report.entries, 'entry', 'entries')}, {plural(report.host_files, 'host memory file')}, "
        f"{plural(report.journals, 'journal day')}"
    )
    out.append(f"{plural(len(report.findings), 'finding')}{' (' + counts + ')' if counts else ''}; {read}")
    out += [f"note: {shown(n, newlines=False)}" for n in report.notes]
    return "\n".join(out)
