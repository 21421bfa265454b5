"""Agent transcripts (Claude Code JSONL, Codex rollouts) as a list of conversation turns.

A journal turn's anchor names the transcript it came from; the TUI shows that file as a
conversation (user / assistant / tool) opened at the anchored turn. The files are the
agents' own and arrive untrusted: reading is bounded in bytes, lines and characters per
message, a line that is not JSON or not a message is skipped, and nothing is ever written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.safe_io import loads_json, open_regular

MAX_BYTES = 8_000_000
MAX_MESSAGES = 3_000
MAX_CHARS = 20_000  # per message
ROLES = ("user", "assistant", "tool")


@dataclass
class Message:
    role: str  # user | assistant | tool
    text: str
    line: int  # 1-based line of the JSONL file
    uid: str = ""  # the message's own id (Claude Code uuid), if any
    user_turn: int = 0  # 1-based number of the user message this belongs to
    when: str = ""


@dataclass
class Transcript:
    path: Path
    messages: list[Message] = field(default_factory=list)
    skipped: int = 0
    truncated: bool = False

    def index_of(self, turn: str) -> int:
        """Index of the message an anchor's ``turn:`` names (a number: the Nth user
        message; otherwise a message id); 0 when it is not found."""
        turn = (turn or "").strip()
        if turn.isdigit():
            n = int(turn)
            for i, m in enumerate(self.messages):
                if m.role == "user" and m.user_turn == n:
                    return i
            return 0
        for i, m in enumerate(self.messages):
            if turn and m.uid == turn:
                return i
        return 0


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + " … (cut)"


def _text_of(content: Any) -> list[tuple[str, str]]:
    """(role override or "", text) pieces of a message's content (str or a block list)."""
    if isinstance(content, str):
        return [("", content)]
    out: list[tuple[str, str]] = []
    if not isinstance(content, list):
        return out
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind in ("text", "input_text", "output_text") and isinstance(block.get("text"), str):
            out.append(("", block["text"]))
        elif kind == "tool_use":
            args = json.dumps(block.get("input", {}), ensure_ascii=False)[:2000]
            out.append(("tool", f"{block.get('name', 'tool')}({args})"))
        elif kind == "tool_result":
            inner = block.get("content")
            texts = [t for _, t in _text_of(inner)] if not isinstance(inner, str) else [inner]
            out.append(("tool", "→ " + "\n".join(texts)))
    return out


def _messages_of(obj: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(role, text, uid, when) found in one JSONL object of either format."""
    when = str(obj.get("timestamp") or "")
    msg = obj.get("message")
    if isinstance(msg, dict):  # Claude Code
        role = str(msg.get("role") or obj.get("type") or "")
        uid = str(obj.get("uuid") or "")
        return [(over or role, text, uid, when) for over, text in _text_of(msg.get("content"))]
    if isinstance(obj.get("role"), str) and "content" in obj:  # a plain {"role", "content"} line
        return [(over or obj["role"], text, str(obj.get("id") or ""), when) for over, text in _text_of(obj["content"])]
    payload = obj.get("payload")
    if isinstance(payload, dict):  # Codex rollout
        kind = payload.get("type")
        if kind == "message":
            role = str(payload.get("role") or "")
            return [(over or role, text, "", when) for over, text in _text_of(payload.get("content"))]
        if kind == "function_call":
            return [("tool", f"{payload.get('name', 'tool')}({str(payload.get('arguments', ''))[:2000]})", "", when)]
        if kind == "function_call_output":
            out = payload.get("output")
            return [("tool", "→ " + (out if isinstance(out, str) else json.dumps(out)[:2000]), "", when)]
    return []


def load_transcript(path: Path) -> Transcript:
    """Parse a transcript file; never raises on content (OSError if it cannot be read)."""
    path = Path(path)
    with open_regular(path) as fh:  # a FIFO named in a journal anchor must not block the app
        data = fh.read(MAX_BYTES + 1)
    out = Transcript(path, truncated=len(data) > MAX_BYTES)
    user_turn = 0
    for number, raw in enumerate(data[:MAX_BYTES].decode("utf-8", errors="replace").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = loads_json(raw)
        except ValueError:
            out.skipped += 1
            continue
        if not isinstance(obj, dict):
            out.skipped += 1
            continue
        for role, text, uid, when in _messages_of(obj):
            if role not in ROLES or not text.strip():
                continue
            if role == "user":
                user_turn += 1
            out.messages.append(Message(role, _clip(text), number, uid, max(user_turn, 1), when))
            if len(out.messages) >= MAX_MESSAGES:
                out.truncated = True
                return out
    return out
