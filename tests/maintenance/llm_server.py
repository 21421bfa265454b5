"""A real LLM API server on 127.0.0.1 for tests (OpenAI chat completions, Anthropic Messages,
Gemini generateContent, chosen by URL path): scripted replies, recorded requests.

Each answer reports usage in its API's own fields (OpenAI ``usage.prompt_tokens`` /
``completion_tokens``, Anthropic ``usage.input_tokens`` / ``output_tokens``, Gemini
``usageMetadata.promptTokenCount`` / ``candidatesTokenCount``): by default one token per 4
bytes of the request body and of the reply, or a reply's own ``"usage": [in, out]``; every
pair reported is kept in ``usage``."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ChatServer:
    """Replies to POST …/chat/completions with the next scripted reply.

    A reply is ``{"content": str}``, ``{"tool": command}`` (one read_memory call) or
    ``{"status": int, "body": str}`` (an HTTP error, body may echo the auth header).
    """

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.usage: list[tuple[int, int]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                body = json.loads(raw)
                server.requests.append(body)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                reply = server.replies.pop(0) if server.replies else {"status": 500, "body": "no more replies"}
                if "status" in reply:
                    data = json.dumps(
                        {
                            "error": {
                                "message": reply["body"].replace("{auth}", self.headers.get("Authorization", "")),
                                "type": "server_error",
                            }
                        }
                    ).encode()
                    self.send_response(reply["status"])
                elif self.path.endswith("/messages"):
                    server.count(raw, reply)
                    data = json.dumps(server.anthropic(body, reply)).encode()
                    self.send_response(200)
                elif ":generateContent" in self.path:
                    server.count(raw, reply)
                    data = json.dumps(server.gemini(reply)).encode()
                    self.send_response(200)
                else:
                    server.count(raw, reply)
                    data = json.dumps(server.completion(body, reply)).encode()
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def count(self, request: bytes, reply: dict[str, Any]) -> None:
        """The usage this answer reports (kept in ``usage``)."""
        if "usage" in reply:
            ins, outs = reply["usage"]
        else:
            ins, outs = -(-len(request) // 4), -(-len(str(reply.get("content", reply.get("tool", "")))) // 4)
        self.usage.append((ins, outs))

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def completion(self, body: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
        n = len(self.requests)
        if "tool" in reply:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{n}",
                        "type": "function",
                        "function": {"name": "read_memory", "arguments": json.dumps({"command": reply["tool"]})},
                    }
                ],
            }
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": reply["content"]}
            finish = "stop"
        return {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": self.usage[-1][0],
                "completion_tokens": self.usage[-1][1],
                "total_tokens": sum(self.usage[-1]),
            },
        }

    def anthropic(self, body: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
        """A Messages API response (tool_use block or text)."""
        n = len(self.requests)
        if "tool" in reply:
            content = [
                {"type": "tool_use", "id": f"toolu_{n}", "name": "read_memory", "input": {"command": reply["tool"]}}
            ]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": reply["content"]}]
            stop = "end_turn"
        return {
            "id": f"msg_{n}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {
                "input_tokens": self.usage[-1][0],
                "output_tokens": self.usage[-1][1],
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
            },
        }

    def gemini(self, reply: dict[str, Any]) -> dict[str, Any]:
        """A generateContent response (functionCall part or text)."""
        if "tool" in reply:
            parts = [{"functionCall": {"name": "read_memory", "args": {"command": reply["tool"]}}}]
        else:
            parts = [{"text": reply["content"]}]
        return {
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {
                "promptTokenCount": self.usage[-1][0],
                "candidatesTokenCount": self.usage[-1][1],
                "totalTokenCount": sum(self.usage[-1]),
            },
        }

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
