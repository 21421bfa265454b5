"""The task prompt: memsearch's structure and budget, our own task texts.

Structure (as memsearch): task text with ``{{AGENT_NAME}} {{TASK_NAME}} {{PROJECT_DIR}}
{{INPUT_DIR}} {{OUTPUT_FILE}}`` filled in, the existing output file, the 12 newest journals,
the changed input digest. At most ``MAX_PROMPT_CHARS``. Unlike memsearch, which cuts the
end of the prompt (losing the newest journal and the digest), we drop the oldest journals
first and cut only the oldest text, so the newest journal always survives.
"""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.memsearch.journal import journal_files

MAX_PROMPT_CHARS = 80_000
MAX_JOURNALS = 12
MAX_EXISTING_CHARS = 30_000


def task_text(task: str, override: str = "", source: str = "") -> str:
    """The task text: ``[prompts] <task>`` if set and the file exists, else by ``source``
    (``[tui] prompts``); a missing file falls back to the packaged text, as in memsearch.

    ``"memsearch"``: memsearch's own packaged text (an error when memsearch is not
    installed); ``"memsearch-tui"``: ours; ``""``: memsearch's when it is installed, so a
    user switching over gets the proposals memsearch would have made (the same sections,
    not a restructured PROJECT.md), else ours.
    """
    return task_prompt(task, override, source)[0]


def task_prompt(task: str, override: str = "", source: str = "") -> tuple[str, str]:
    """``(text, origin)``; origin says which text is used, for status and doctor."""
    if override:
        path = Path(override).expanduser()
        if path.is_file():
            try:
                return path.read_text(encoding="utf-8"), f"file {path}"
            except OSError as exc:
                raise InvalidInput(f"[prompts] {task} = {override!r}: cannot read ({exc.strerror or exc})") from None
        text, origin = packaged_prompt(task, source)  # memsearch's rule: a missing file is not an error
        return text, f"{origin} (the [prompts] {task} file {path} does not exist)"
    return packaged_prompt(task, source)


def packaged_prompt(task: str, source: str = "") -> tuple[str, str]:
    """``(text, origin)`` of the packaged task text: memsearch's (when installed and not
    ``source = "memsearch-tui"``) or ours."""
    theirs = memsearch_prompt_file(task) if source != "memsearch-tui" else None
    if theirs is not None:
        return theirs.read_text(encoding="utf-8"), f"memsearch {theirs}"
    if source == "memsearch":
        raise InvalidInput(
            f'[tui] prompts = "memsearch" but memsearch\'s {task}.txt is not installed '
            '(pip install memsearch, or set [tui] prompts = "memsearch-tui")'
        )
    return resources.files(__package__).joinpath("prompts", f"{task}.md").read_text(encoding="utf-8"), "memsearch-tui"


def memsearch_prompt_file(task: str) -> Path | None:
    """memsearch's packaged ``memsearch/prompts/<task>.txt``, found without importing
    memsearch (its package imports pymilvus; the hook path must stay light)."""
    try:
        spec = importlib.util.find_spec("memsearch")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "prompts" / f"{task}.txt"
        if path.is_file():
            return path
    return None


def fill(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", value)
    return template


def build_prompt(
    *,
    template: str,
    platform: str,
    task: str,
    project: Path,
    input_dir: Path,
    output_file: Path,
    digest: str,
    budget: int = MAX_PROMPT_CHARS,
) -> str:
    """The full prompt, never longer than ``budget`` characters."""
    head = fill(
        template,
        {
            "AGENT_NAME": platform,
            "TASK_NAME": task,
            "PROJECT_DIR": str(project),
            "INPUT_DIR": str(input_dir),
            "OUTPUT_FILE": str(output_file),
        },
    )
    existing = _read(output_file).strip()
    if len(existing) > MAX_EXISTING_CHARS:
        existing = existing[:MAX_EXISTING_CHARS] + "\n[existing file truncated]"
    before = f"{head}\n\n## Existing output file\n\n```markdown\n{existing}\n```\n\n## Recent memory journal entries\n\n```markdown\n"
    after = f"\n```\n\n## Changed input digest\n\n{digest}\n"
    room = budget - len(before) - len(after)
    journals = _journals_within(input_dir, room)
    prompt = before + journals + after
    return prompt[:budget]


def _journals_within(input_dir: Path, room: int) -> str:
    """Newest ≤12 journals, oldest first in the text, oldest dropped or cut to fit ``room``."""
    chunks: list[str] = []
    used = 0
    for path in journal_files(input_dir)[:MAX_JOURNALS]:  # newest first
        chunk = f"\n<!-- source:{path} -->\n{_read(path).strip()}\n"
        if used + len(chunk) > room:
            left = room - used
            if left > 200:
                chunks.append("[older text truncated]\n" + chunk[-(left - 24) :])
            break
        chunks.append(chunk)
        used += len(chunk)
    return "".join(reversed(chunks)).strip()


def _read(path: Path) -> str:
    """The output file as it is ("" when missing or unreadable). Read as a proposal's target
    is (``proposals.read_target``): a FIFO named PROJECT.md blocked a plain read, and the run
    (the hook's too) with it, forever; a FIFO, device, folder or file too big is refused
    naming the file before the model is paid to rewrite what no proposal could replace."""
    from memsearch_tui.engine.review.proposals import read_target

    try:
        return (read_target(Path(path)) or b"").decode("utf-8", errors="replace")
    except OSError:
        return ""
