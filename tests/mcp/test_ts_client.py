"""A client nobody here wrote: the official TypeScript SDK against our stdio server (issue 20.5).

The SDK is installed with npm into a temporary folder of the test session; the test is
skipped, saying why, where node or npm is missing or the npm registry cannot be reached.
The Python SDK's client (the other tests of this folder) stays the default check.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.mcp.conftest import Env

pytestmark = pytest.mark.slow  # an npm install (~40 s the first time) and a node process
TS_SDK = "@modelcontextprotocol/sdk@1.32.2"
PROBE = Path(__file__).with_name("ts_client") / "probe.mjs"


@pytest.fixture(scope="session")
def ts_sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``node_modules/@modelcontextprotocol/sdk`` and our probe script."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node or npm is not installed on this machine")
    folder = tmp_path_factory.mktemp("ts-sdk")
    (folder / "package.json").write_text('{"name": "probe", "private": true, "type": "module"}\n')
    out = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", TS_SDK],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if out.returncode != 0:
        pytest.skip(f"npm could not install {TS_SDK} (registry unreachable?): {out.stderr.strip()[-300:]}")
    shutil.copy(PROBE, folder / "probe.mjs")
    shutil.copy(PROBE.with_name("probe_http.mjs"), folder / "probe_http.mjs")
    return folder


def test_the_typescript_sdk_client_uses_every_kind_of_request(env: Env, ts_sdk: Path):
    argv = env.argv("mcp")
    out = subprocess.run(
        ["node", "probe.mjs", argv[0], json.dumps(argv[1:]), json.dumps(env.environ()), str(env.project)],
        cwd=ts_sdk, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert "failure" not in report, report
    assert report["server"]["name"] == "memsearch-tui"
    assert len(report["tools"]) == 11 and all(t["hasOutputSchema"] for t in report["tools"])
    assert report["search"] == {"isError": False, "first": "ops/deploy-day"}
    assert sorted(report["list"]) == ["ops/deploy-day", "people/code-review"]
    assert report["resource"] is True and report["prompt"] >= 1
    assert report["unknownTool"]["code"] == -32602
    assert report["unknownPrompt"]["code"] == -32602
    assert report["trash"]["code"] == -32002
    assert report["extraArgument"]["isError"] and "bogus" in report["extraArgument"]["text"]
    assert "Traceback" not in report["stderr"]


def test_the_typescript_sdk_client_over_http(env: Env, ts_sdk: Path):
    """The same client over streamable HTTP, as an agent sharing one server talks to it:
    a session, answers as JSON bodies (``json_response``), the session ended by the client."""
    from tests.mcp.test_http import _free_port, _start, _stop

    port = _free_port()
    token_file = env.home / "token"
    proc = _start(env, port, "--token-file", str(token_file))
    try:
        out = subprocess.run(
            ["node", "probe_http.mjs", f"http://127.0.0.1:{port}/mcp", token_file.read_text().strip()],
            cwd=ts_sdk, capture_output=True, text=True, timeout=180,
        )  # fmt: skip
    finally:
        err = _stop(proc)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert "failure" not in report, report
    assert report["session"] is True and report["tools"] == 11
    assert report["search"] == {"isError": False, "first": "ops/deploy-day"}
    assert report["proposals"] == {"proposals": []} and report["terminated"] is True
    assert "Traceback" not in err
