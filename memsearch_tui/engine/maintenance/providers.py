"""Who answers the task prompt: the host agent's CLI, any executable, or an API.

* ``native``  — the host agent itself, with no tools / read-only: Claude Code
  ``claude -p --tools ""``, Codex ``codex exec -s read-only``, opencode, openclaw. The
  prompt goes on stdin (an 80,000-character argument can exceed the kernel's limit).
* ``command`` — ``command = ["exe", "arg", …]``: prompt on stdin, answer on stdout.
* ``openai`` / ``openai-compatible`` (Ollama, llama.cpp, vLLM via ``base_url``),
  ``anthropic``, ``gemini`` — official SDKs (the ``llm`` extra), imported only here and
  only when used, with the read-only tool for at most ``MAX_TOOL_ROUNDS`` rounds.

Every child runs in its own session and is killed with its whole process group on
timeout. ``MEMSEARCH_TUI_IN_MAINTENANCE=1`` is set for children so the host agent's own
hooks do not start ``--run-due`` again (recursion). API keys are scrubbed from every
error message.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from memsearch_tui.engine.core.errors import LimitExceeded, MemsearchError
from memsearch_tui.engine.core.safe_io import loads_json
from memsearch_tui.engine.maintenance.sandbox import TOOL_DESCRIPTION, TOOL_NAME, Sandbox
from memsearch_tui.engine.memsearch.config import ProviderSettings

if TYPE_CHECKING:  # the SDKs (the ``llm`` extra) load only inside the provider that uses them
    from anthropic.types import ContentBlockParam, MessageParam, ToolResultBlockParam, ToolUnionParam
    from openai.types.chat import (
        ChatCompletionAssistantMessageParam,
        ChatCompletionMessageParam,
        ChatCompletionToolUnionParam,
    )

MAX_TOOL_ROUNDS = 3
NATIVE_TIMEOUT_S = 300.0
MAX_STDOUT = 2_000_000  # bytes of a child's answer; past it the child is killed
MAX_STDERR = 256_000  # bytes of a child's complaints; only the tail is ever shown
IN_MAINTENANCE_ENV = "MEMSEARCH_TUI_IN_MAINTENANCE"
SYSTEM_PROMPT = "You are a maintenance task runner. Output only the requested JSON object."
DEFAULT_MODELS = {
    "openai": "gpt-5-mini",
    "openai-compatible": "",
    "anthropic": "claude-sonnet-4-6",
    "gemini": "gemini-3-flash-preview",
}


class ProviderError(MemsearchError):
    code = "provider"


class ProviderTimeout(ProviderError):
    """The child (or the API) took longer than its ``timeout_s``; its group was killed."""


class ProviderOutputTooLarge(ProviderError, LimitExceeded):
    """The child wrote more than ``MAX_STDOUT``/``MAX_STDERR`` bytes; its group was killed."""

    code = "provider_output_too_large"


@dataclass
class Usage:
    """Tokens the provider reported for one ``ask`` (summed over its tool rounds);
    ``reported`` stays False when it reported none (the ledger then estimates)."""

    input_tokens: int = 0
    output_tokens: int = 0
    reported: bool = False

    def add(self, input_tokens: Any, output_tokens: Any) -> None:
        """Add one response's counts (an SDK may leave a field None; a non-int is ignored)."""
        ins = input_tokens if isinstance(input_tokens, int) and not isinstance(input_tokens, bool) else None
        outs = output_tokens if isinstance(output_tokens, int) and not isinstance(output_tokens, bool) else None
        if ins is None and outs is None:
            return
        self.input_tokens += max(0, ins or 0)
        self.output_tokens += max(0, outs or 0)
        self.reported = True


@dataclass
class Call:
    """What a provider needs besides the prompt; ``usage`` is filled by the provider."""

    platform: str
    model: str
    project: Path
    sandbox: Sandbox
    usage: Usage = field(default_factory=Usage)


def ask(provider: ProviderSettings, call: Call, prompt: str) -> str:
    """The raw answer text of ``provider``; raises ``ProviderError`` (key-free message)."""
    secrets = [s for s in (provider.api_key,) if s]
    try:
        if provider.type == "native":
            return _native(call, prompt, provider.timeout_s if provider.name != "native" else NATIVE_TIMEOUT_S)
        if provider.type == "command":
            return run_child(list(provider.command), prompt, timeout=provider.timeout_s, cwd=call.project)
        if provider.type in ("openai", "openai-compatible"):
            return _openai(provider, call, prompt)
        if provider.type == "anthropic":
            return _anthropic(provider, call, prompt)
        if provider.type == "gemini":
            return _gemini(provider, call, prompt)
    except ProviderError as exc:
        raise type(exc)(scrub(exc.message, secrets)) from None
    except ImportError as exc:
        raise ProviderError(
            f"provider {provider.name!r} needs the {exc.name or 'SDK'} package: pip install 'memsearch-tui[llm]'"
        ) from None
    except Exception as exc:  # SDK errors: network, auth, rate limit, bad response …
        raise ProviderError(scrub(f"provider {provider.name!r} failed: {type(exc).__name__}: {exc}", secrets)) from None
    raise ProviderError(f"provider {provider.name!r} has unknown type {provider.type!r}")


def scrub(text: str, secrets: list[str]) -> str:
    """The configured keys replaced by ``***``, then any other secret masked by kind."""
    from memsearch_tui.engine.core.secrets import redact

    for secret in secrets:
        if len(secret) >= 4:
            text = text.replace(secret, "***")
    return redact(text)


# -- child processes -------------------------------------------------------------------
def child_env(**extra: str) -> dict[str, str]:
    return {**os.environ, IN_MAINTENANCE_ENV: "1", "MEMSEARCH_NO_WATCH": "1", **extra}


def run_child(argv: list[str], stdin_text: str, *, timeout: float, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run ``argv`` with ``stdin_text`` on stdin; stdout on success, ProviderError otherwise.

    The child is untrusted: its stdout is read up to ``MAX_STDOUT`` bytes and its stderr up
    to ``MAX_STDERR``; past either, or past ``timeout``, its whole process group is killed
    (a ``yes``-like child would otherwise grow our memory by gigabytes).
    """
    name = Path(argv[0]).name if argv else "?"
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(cwd),
            env=env or child_env(),
            start_new_session=True,
        )
    except FileNotFoundError:
        raise ProviderError(f"{argv[0]!r} not found on PATH") from None
    except PermissionError:
        raise ProviderError(f"{argv[0]!r} is not executable") from None
    out, err, problem = _exchange(proc, stdin_text.encode("utf-8"), timeout)
    if problem == "timeout":
        raise ProviderTimeout(f"{name} timed out after {timeout:g}s and was killed")
    if problem:
        raise ProviderOutputTooLarge(f"{name} wrote more than {problem} and was killed")
    if proc.returncode != 0:
        # masked whole, then cut: a cut through a secret would leave a piece no rule knows
        tail = (
            _clean(err.decode("utf-8", "replace")).strip()[-500:]
            or _clean(out.decode("utf-8", "replace")).strip()[-200:]
        )
        raise ProviderError(f"{name} exited with status {proc.returncode}: {tail}")
    return out.decode("utf-8", "replace")


def _clean(text: str) -> str:
    """A child's words for an error message: secrets masked, control characters escaped."""
    from memsearch_tui.engine.core.terminal import shown

    return shown(text, newlines=False)


def _exchange(proc: subprocess.Popen[bytes], data: bytes, timeout: float) -> tuple[bytes, bytes, str]:
    """Feed stdin, read both pipes with their caps, wait within ``timeout``.

    Returns (stdout, stderr, problem): problem is "" (fine), "timeout", or the cap passed
    (e.g. "2000000 bytes on stdout"); in the last two cases the group has been killed.
    """
    deadline = time.monotonic() + timeout
    over: list[str] = []
    outs: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray()}

    def pump(stream: Any, key: str, cap: int) -> None:
        buf = outs[key]
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(65536):
                if len(buf) + len(chunk) > cap:
                    buf += chunk[: cap - len(buf)]
                    over.append(f"{cap} bytes on {key}")
                    _kill_group(proc, wait=False)
                    return
                buf += chunk

    def feed() -> None:
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.write(data)  # type: ignore[union-attr]
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()  # type: ignore[union-attr]

    threads = [
        threading.Thread(target=pump, args=(proc.stdout, "stdout", MAX_STDOUT), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, "stderr", MAX_STDERR), daemon=True),
        threading.Thread(target=feed, daemon=True),
    ]
    for t in threads:
        t.start()
    timed_out = False
    try:
        proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        timed_out = True
    for t in threads:  # a grandchild may still hold a pipe open: the deadline covers it too
        t.join(timeout=max(0.0, deadline - time.monotonic()))
        if t.is_alive():
            timed_out = True
    if timed_out or over:
        _kill_group(proc)
        for t in threads:
            t.join(timeout=5)
    for pipe in (proc.stdout, proc.stderr):
        with contextlib.suppress(OSError, ValueError):
            pipe.close()  # type: ignore[union-attr]
    problem = over[0] if over else "timeout" if timed_out else ""
    return bytes(outs["stdout"]), bytes(outs["stderr"]), problem


def _kill_group(proc: subprocess.Popen[bytes], *, wait: bool = True) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if wait:
        with contextlib.suppress(Exception):
            proc.wait(timeout=5)


def _native(call: Call, prompt: str, timeout: float) -> str:
    """The host agent's CLI with no tools (Claude Code) or read-only (Codex)."""
    model = call.model
    if call.platform == "claude-code":
        argv = [
            "claude",
            "-p",
            "--strict-mcp-config",
            "--tools",
            "",
            "--no-session-persistence",
            "--system-prompt",
            SYSTEM_PROMPT,
            "--output-format",
            "json",
        ]
        argv += ["--model", model or "sonnet"]
        out = run_child(argv, prompt, timeout=timeout, cwd=call.project, env=child_env(CLAUDECODE=""))
        return _claude_result(out, call.usage)
    if call.platform == "codex":
        fd, out_name = tempfile.mkstemp(prefix="memsearch-tui-codex-", suffix=".txt")
        os.close(fd)
        out_path = Path(out_name)
        argv = [
            "codex",
            "exec",
            "--ephemeral",
            "--skip-git-repo-check",
            "-s",
            "read-only",
            "-c",
            "features.hooks=false",
            "--json",
            "-o",
            str(out_path),
        ]
        argv += ["-m", model] if model else []
        try:
            stdout = run_child([*argv, "-"], prompt, timeout=timeout, cwd=call.project)
            fallback = _codex_events(stdout, call.usage)
            with out_path.open("rb") as fh:  # written by the child: bounded like its stdout
                text = fh.read(MAX_STDOUT).decode("utf-8", errors="replace").strip()
            return text or fallback
        finally:
            out_path.unlink(missing_ok=True)
    if call.platform == "opencode":
        argv = ["opencode", "run", *(["-m", model] if model else [])]
        return run_child(argv, prompt, timeout=timeout, cwd=call.project)
    if call.platform == "openclaw":
        argv = [
            "openclaw",
            "agent",
            "--local",
            "--session-id",
            "memsearch-tui-maintenance",
            *(["--model", model] if model else []),
            "-m",
            prompt,
        ]
        return run_child(argv, "", timeout=timeout, cwd=call.project)
    raise ProviderError(f"no native provider for platform {call.platform!r}; configure an [llm.providers] entry")


def _claude_result(out: str, usage: Usage) -> str:
    """``claude -p --output-format json``: one object whose ``result`` is the answer and whose
    ``usage`` has the tokens (input counts cache writes and reads too). Anything else (an
    older CLI, a wrapper) is taken as the plain answer, with no usage (the ledger estimates)."""
    try:
        data = loads_json(out.strip()) if out.lstrip().startswith("{") else None
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("result"), str):
        return out
    if data.get("is_error") is True:
        raise ProviderError(f"claude reported an error: {_clean(data['result'])[:300]}")
    used = data.get("usage")
    if isinstance(used, dict):
        ins = [used.get(k) for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
        usage.add(sum(v for v in ins if isinstance(v, int) and not isinstance(v, bool)), used.get("output_tokens"))
    return str(data["result"])


def _codex_events(stdout: str, usage: Usage) -> str:
    """``codex exec --json`` prints one event per line: each ``turn.completed`` carries the
    turn's ``usage`` (``cached_input_tokens`` is part of ``input_tokens``); the last
    ``agent_message`` item is the answer when ``-o`` left its file empty (else ``stdout``)."""
    answer = ""
    for line in stdout.splitlines()[-1000:]:
        if not line.startswith("{"):
            continue
        try:
            event = loads_json(line)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        used, item = event.get("usage"), event.get("item")
        if event.get("type") == "turn.completed" and isinstance(used, dict):
            usage.add(used.get("input_tokens"), used.get("output_tokens"))
        if isinstance(item, dict) and item.get("type") == "agent_message" and isinstance(item.get("text"), str):
            answer = item["text"]
    return answer or stdout


# -- API providers ---------------------------------------------------------------------
def _tool_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"command": {"type": "string", "description": "e.g. grep -n -i milvus ."}},
        "required": ["command"],
        "additionalProperties": False,
    }


def _tool_output(call: Call, arguments: Any) -> str:
    if isinstance(arguments, str):
        try:
            arguments = loads_json(arguments or "{}")
        except ValueError:  # not JSON, or nested too deeply
            return "Error: tool arguments are not JSON"
    command = arguments.get("command", "") if isinstance(arguments, dict) else ""
    return call.sandbox.run(str(command))


def _openai(provider: ProviderSettings, call: Call, prompt: str) -> str:
    import openai
    from openai.types.chat import ChatCompletionMessageFunctionToolCall

    kwargs: dict[str, Any] = {"timeout": provider.timeout_s, "max_retries": 1}
    if provider.base_url:
        kwargs["base_url"] = provider.base_url
    kwargs["api_key"] = provider.api_key or os.environ.get("OPENAI_API_KEY") or "unused"
    client = openai.OpenAI(**kwargs)
    model = call.model or DEFAULT_MODELS[provider.type]
    if not model:
        raise ProviderError(f"provider {provider.name!r}: set model (openai-compatible servers have no default)")
    tools: list[ChatCompletionToolUnionParam] = [
        {
            "type": "function",
            "function": {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": _tool_schema()},
        }
    ]
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": prompt},
    ]
    for round_no in range(MAX_TOOL_ROUNDS + 1):
        last = round_no == MAX_TOOL_ROUNDS
        resp = client.chat.completions.create(
            model=model, messages=messages, tools=tools, tool_choice="none" if last else "auto"
        )
        if resp.usage is not None:
            call.usage.add(resp.usage.prompt_tokens, resp.usage.completion_tokens)
        msg = resp.choices[0].message
        if not msg.tool_calls or last:
            return msg.content or ""
        # model_dump gives dict[str, Any]; it is the assistant message the API just sent
        messages.append(cast("ChatCompletionAssistantMessageParam", msg.model_dump(exclude_none=True)))
        for tc in msg.tool_calls:
            if not isinstance(tc, ChatCompletionMessageFunctionToolCall):  # only a function tool is offered
                raise ProviderError(f"provider {provider.name!r}: answered with a {tc.type} tool call")
            messages.append(
                {"role": "tool", "tool_call_id": tc.id, "content": _tool_output(call, tc.function.arguments)}
            )
    return ""


def _anthropic(provider: ProviderSettings, call: Call, prompt: str) -> str:
    import anthropic
    from anthropic.types import TextBlock, ToolUseBlock

    kwargs: dict[str, Any] = {"timeout": provider.timeout_s, "max_retries": 1}
    if provider.api_key:
        kwargs["api_key"] = provider.api_key
    if provider.base_url:
        kwargs["base_url"] = provider.base_url
    client = anthropic.Anthropic(**kwargs)
    model = call.model or DEFAULT_MODELS["anthropic"]
    tools: list[ToolUnionParam] = [{"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": _tool_schema()}]
    messages: list[MessageParam] = [{"role": "user", "content": prompt}]
    for round_no in range(MAX_TOOL_ROUNDS + 1):
        if round_no < MAX_TOOL_ROUNDS:
            resp = client.messages.create(
                model=model, max_tokens=8192, system=SYSTEM_PROMPT, messages=messages, tools=tools
            )
        else:  # the last round: no tools, so the model has to answer
            resp = client.messages.create(model=model, max_tokens=8192, system=SYSTEM_PROMPT, messages=messages)
        call.usage.add(resp.usage.input_tokens, resp.usage.output_tokens)
        uses = [b for b in resp.content if isinstance(b, ToolUseBlock)]  # the blocks of type "tool_use"
        text = "\n".join(b.text for b in resp.content if isinstance(b, TextBlock)).strip()
        if not uses:
            return text
        # model_dump gives dict[str, Any]; each is a content block the API just sent
        dumped = [cast("ContentBlockParam", b.model_dump(exclude_none=True)) for b in resp.content]
        messages.append({"role": "assistant", "content": dumped})
        results: list[ToolResultBlockParam] = [
            {"type": "tool_result", "tool_use_id": b.id, "content": _tool_output(call, b.input)} for b in uses
        ]
        messages.append({"role": "user", "content": results})
    return ""


def _gemini(provider: ProviderSettings, call: Call, prompt: str) -> str:
    from google import genai
    from google.genai import types

    timeout_ms = int(provider.timeout_s * 1000)
    options = (
        types.HttpOptions(timeout=timeout_ms, base_url=provider.base_url)
        if provider.base_url
        else types.HttpOptions(timeout=timeout_ms)
    )
    client = genai.Client(api_key=provider.api_key or None, http_options=options)

    def read_memory(command: str) -> str:
        """Read-only look at the memory journals (ls, find, grep, cat, head, tail)."""
        return call.sandbox.run(command)

    config = types.GenerateContentConfig(
        system_instruction=SYSTEM_PROMPT,
        tools=[read_memory],
        temperature=0.2,
        automatic_function_calling=types.AutomaticFunctionCallingConfig(maximum_remote_calls=MAX_TOOL_ROUNDS),
    )
    resp = client.models.generate_content(model=call.model or DEFAULT_MODELS["gemini"], contents=prompt, config=config)
    if resp.usage_metadata is not None:  # the final round's (the SDK's function calling keeps no earlier usage)
        call.usage.add(resp.usage_metadata.prompt_token_count, resp.usage_metadata.candidates_token_count)
    return resp.text or ""


Runner = Callable[[ProviderSettings, Call, str], str]
