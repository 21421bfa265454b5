"""The optional LLM check of contradictions: the pairs typed values could not settle.

Off unless the user's own config (``~/.memsearch/config.toml``, never a project's file: a
cloned repository must not send a person's memories anywhere) says::

    [tui.hygiene]
    llm_check = true
    provider = "local"      # an [llm.providers.<name>] table
    max_pairs = 20          # at most this many pairs a pass (1–50)

Candidates are the sentence pairs :mod:`.similar` found alike in words whose values did not
decide (a value of another type, too few words around a number or a name). At most
``max_pairs`` of them go to the provider, ``BATCH`` to a request, each sentence with its
secrets masked and clipped; no tool is offered (its read tool is rooted in an empty temp
folder). Every request goes through the maintenance ``Meter``: checked against
``[tui.budget]`` first (refused past it: no request is sent) and written to the spend
ledger after, as task ``hygiene``. The answer is untrusted: bounded in size, one JSON object
``{"contradictions": [pair numbers]}`` and nothing else, each number one of the pairs sent;
anything else is reported as a note and confirms nothing.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.safe_io import loads_json
from memsearch_tui.engine.hygiene.records import Finding

if TYPE_CHECKING:
    from memsearch_tui.engine.maintenance.providers import Runner
    from memsearch_tui.engine.memsearch.config import Config

TASK = "hygiene"  # the spend ledger's task name
PLATFORM = "memsearch-tui"
DEFAULT_PAIRS = 20
MAX_PAIRS = 50
BATCH = 10
MAX_ANSWER = 20_000  # characters: a list of at most BATCH numbers is a few dozen
TIMEOUT_S = 60.0  # the most a request may take, whatever the provider's own timeout_s

PROMPT = """Each numbered pair below is two sentences from a person's notes about their software work.
Say which pairs CONTRADICT each other: both cannot be true at the same time about the same thing.
Pairs that are about different things, or that merely differ in wording, do not contradict.
Answer with exactly one JSON object and nothing else: {{"contradictions": [pair numbers]}}
(an empty list when none do).

{pairs}
"""


@dataclass(frozen=True)
class UnsettledPair:
    """A pair to ask about: the two memories' refs, where each sentence is, and the
    sentences as shown (masked, clipped)."""

    ref_a: str
    ref_b: str
    at_a: str
    at_b: str
    text_a: str
    text_b: str


def wanted(config: Config) -> tuple[str, int] | None:
    """(provider name, most pairs) when the user's config turns the check on, else None."""
    table = config.tui.get("hygiene")
    if not isinstance(table, dict) or table.get("llm_check") is not True:
        return None
    if {"tui.hygiene.llm_check", "tui.hygiene.provider"} & set(config.project_keys):
        return None  # a project's file may not switch it on, nor choose where memories go
    pairs = table.get("max_pairs", DEFAULT_PAIRS)
    pairs = int(pairs) if isinstance(pairs, (int, float)) and not isinstance(pairs, bool) else DEFAULT_PAIRS
    return str(table.get("provider") or ""), max(1, min(pairs, MAX_PAIRS))


def confirm(
    project: Path, config: Config, found: list[UnsettledPair], *, ask: Runner | None = None
) -> tuple[list[Finding], list[str]]:
    """The candidates the provider confirms as contradictions, and notes on what was not
    checked (budget refused, provider failed, an unusable answer)."""
    on = wanted(config)
    if on is None or not found:
        return [], []
    from memsearch_tui.engine.maintenance.budget import BudgetRefused, Meter
    from memsearch_tui.engine.maintenance.providers import Call
    from memsearch_tui.engine.maintenance.sandbox import Sandbox

    name, most = on
    try:
        provider = config.provider(name)
    except MemsearchError as exc:
        return [], [f"LLM contradiction check: {exc.message}"]
    if provider.timeout_s > TIMEOUT_S:
        from dataclasses import replace

        provider = replace(provider, timeout_s=TIMEOUT_S)
    todo = found[:most]
    notes = [f"LLM contradiction check: {len(found) - most} more candidate pairs not sent"] if len(found) > most else []
    out: list[Finding] = []
    meter = Meter(config, PLATFORM, TASK, ask)
    with tempfile.TemporaryDirectory(prefix="memsearch-tui-hygiene-") as empty:
        result = "none"
        try:
            for start in range(0, len(todo), BATCH):
                batch = todo[start : start + BATCH]
                call = Call(platform=PLATFORM, model=provider.model, project=project, sandbox=Sandbox([Path(empty)]))
                try:
                    numbers = parse(meter.ask(provider, call, prompt(batch)), len(batch))
                except BudgetRefused as exc:
                    notes.append(f"LLM contradiction check stopped: {exc.message}")
                    break
                except MemsearchError as exc:  # the provider failed, timed out, or answered garbage
                    notes.append(f"LLM contradiction check: {exc.message}"[:500])
                    result = "error"
                    continue
                out += [_finding(batch[n - 1]) for n in numbers]
        finally:
            meter.close(result)
    return out, notes


def prompt(batch: list[UnsettledPair]) -> str:
    pairs = "\n".join(f"{n}. A: {c.text_a}\n   B: {c.text_b}" for n, c in enumerate(batch, 1))
    return PROMPT.format(pairs=pairs)


class BadAnswer(MemsearchError):
    code = "bad_answer"


def parse(raw: str, count: int) -> list[int]:
    """The pair numbers of an answer ``{"contradictions": [1, 3]}`` (a ```json fence around
    it allowed); BadAnswer for anything else."""
    text = (raw or "").strip()
    if len(text) > MAX_ANSWER:
        raise BadAnswer(f"the provider's answer is {len(text):,} characters long; not read")
    if text.startswith("```"):
        text = text.removeprefix("```json").removeprefix("```").removesuffix("```").strip()
    try:
        data: Any = loads_json(text)
    except ValueError:
        raise BadAnswer("the provider's answer is not one JSON object; nothing confirmed") from None
    got = data.get("contradictions") if isinstance(data, dict) and set(data) == {"contradictions"} else None
    if not isinstance(got, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in got):
        raise BadAnswer('the provider\'s answer is not {"contradictions": [pair numbers]}; nothing confirmed')
    if any(not 1 <= n <= count for n in got):
        raise BadAnswer(f"the provider's answer names a pair that was not asked about (1–{count}); nothing confirmed")
    return sorted(set(got))


def _finding(c: UnsettledPair) -> Finding:
    ev = (f"{c.at_a}: {c.text_a}", f"{c.at_b}: {c.text_b}", "the LLM check (configured provider) says these disagree")
    return Finding(
        "contradiction", (c.ref_a, c.ref_b), ev, f"settle it: keep one and archive the other (newer: {c.ref_b})"
    )
