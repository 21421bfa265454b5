"""A real Milvus standalone server for the test suite: installed once, started on free ports, always stopped.

``milvus==2.3.x`` on the registry ships the standalone server (Go binary, embedded etcd,
rocksmq, local storage) inside a wheel. We install it into a side venv cached per version
under ``~/.cache/memsearch-tui/milvus-venv/<version>`` (``--no-deps``: the wheel needs
nothing, so no torch, CUDA or otherwise, can come in), unpack its binaries once into that
venv, and start ``milvus run standalone`` ourselves rather than through ``milvus-server``:
that wrapper scans upward from fixed default ports (two runs on one machine race for them),
leaves the embedded etcd's peer port at 2380, and only stops its child on SIGINT. Here
every port (12 of them) is one the kernel just handed out, etcd gets a config of its own
on loopback, and a supervisor process stops the server (TERM, then KILL) when it is told
to, when the process it serves exits, or when it is itself killed (the child has
``PR_SET_PDEATHSIG``).

    python scripts/milvus_server.py install                  # the side venv; prints its python
    python scripts/milvus_server.py start STATE [--parent P]  # prints the URI once it answers
    python scripts/milvus_server.py stop STATE
    python scripts/milvus_server.py start STATE --keep        # again on the same data and ports

Standard library only, so it runs under the project venv or the side venv alike.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

VERSION = os.environ.get("MEMSEARCH_TUI_MILVUS_SERVER", "2.3.5")
START_TIMEOUT = 180.0  # seconds: a cold start unpacks 250 MB of binaries on a loaded machine
# Seconds a component's etcd session outlives it (Milvus' default: 30). A server killed and
# started again on its data sees its dead query node "registered" until that lease ends, and
# every load or search in between fails or waits: the restart test waited ~30 s for it.
SESSION_TTL = 10
PORT_KEYS = (
    "etcd_port",
    "root_coord_port",
    "proxy_port",
    "proxy_internal_port",
    "query_coord_port",
    "query_node_port",
    "index_coord_port",
    "index_node_port",
    "data_coord_port",
    "data_node_port",
)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memsearch-tui" / "milvus-venv" / VERSION


def install() -> Path:
    """The side venv's python, with milvus==VERSION and its unpacked binaries (made once)."""
    venv = cache_dir()
    python = venv / "bin" / "python"
    if (venv / ".ready").exists():
        return python
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f".{VERSION}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two runs installing at once: the second waits, then finds it
        if (venv / ".ready").exists():
            return python
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--disable-pip-version-check",
                f"milvus=={VERSION}",
            ],
            check=True,
        )
        unpack = "from milvus import _initialize_data_files as f; import sys; f(sys.argv[1])"
        subprocess.run([str(python), "-c", unpack, str(venv / "milvus-bin")], check=True)
        (venv / ".ready").write_text(VERSION)
    return python


def _free_ports(n: int) -> list[int]:
    socks, ports = [], []
    try:
        while len(ports) < n:
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
            ports.append(s.getsockname()[1])
    finally:
        for s in socks:
            s.close()
    return ports


def _config(python: Path, data: Path, ports: dict[str, int]) -> None:
    """configs/milvus.yaml from the wheel's own template, plus etcd's own config on loopback."""
    etcd = data / "configs" / "etcd.yaml"
    etcd.parent.mkdir(parents=True, exist_ok=True)
    client, peer = f"http://127.0.0.1:{ports['etcd_port']}", f"http://127.0.0.1:{ports['etcd_peer']}"
    etcd.write_text(
        f"name: default\nlisten-client-urls: {client}\nadvertise-client-urls: {client}\n"
        f"listen-peer-urls: {peer}\ninitial-advertise-peer-urls: {peer}\ninitial-cluster: default={peer}\n"
    )
    write = (
        "import sys, json\n"
        "from milvus import MilvusServerConfig\n"
        "data, etcd, ports = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])\n"
        "cfg = MilvusServerConfig(data_dir=data, **ports)\n"
        "cfg.template_text = cfg.template_text.replace('  use:\\n    embed: true', "
        "'  config:\\n    path: ' + etcd + '\\n  use:\\n    embed: true', 1)\n"
        f"cfg.template_text = cfg.template_text.replace('ttl: 30 #', 'ttl: {SESSION_TTL} #', 1)\n"
        "cfg.resolve()\n"
    )
    import json

    own = {k: ports[k] for k in PORT_KEYS}
    subprocess.run([str(python), "-c", write, str(data), str(etcd), json.dumps(own)], check=True)


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
            return b"OK" in resp.read(64)
    except OSError:
        return False


def _pdeathsig() -> None:
    """In the child: die with the supervisor, even when it is SIGKILLed."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def supervise(state: Path, parent: int, keep: bool = False) -> int:
    """Run the server until told to stop or until ``parent`` exits; then stop it and clean up
    (``keep``: start on the data and ports of the last run, and keep them: a restart)."""
    import json

    python = install()
    data = state / "data"
    stop = {"now": False}

    def on_signal(*_: object) -> None:
        stop["now"] = True

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    child = None
    for _attempt in range(3):  # a port taken between our pick and the server's bind: pick again
        names = [*PORT_KEYS, "etcd_peer", "metrics"]
        if keep and (state / "ports.json").exists():
            ports = json.loads((state / "ports.json").read_text())
        else:
            shutil.rmtree(data, ignore_errors=True)
            data.mkdir(parents=True)
            (data / "bin").symlink_to(cache_dir() / "milvus-bin" / "bin")
            ports = dict(zip(names, _free_ports(len(names))))
            _config(python, data, ports)
            _write(state / "ports.json", json.dumps(ports))
        bindir = str(data / "bin")
        env = {
            **os.environ,
            "DEPLOY_MODE": "STANDALONE",
            "METRICS_PORT": str(ports["metrics"]),
            "MILVUS_RUN_DIR": str(data / "run"),
            "MILVUSCONF": str(data / "configs") + "/",
            "LD_LIBRARY_PATH": bindir + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
        }
        with open(state / "server.log", "ab") as log:
            child = subprocess.Popen(
                [bindir + "/milvus", "run", "standalone"],
                cwd=data,
                env=env,
                stdout=log,
                stderr=log,
                preexec_fn=_pdeathsig,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while child.poll() is None and not stop["now"] and _alive(parent) and time.monotonic() < deadline:
            if _healthy(ports["metrics"]):
                break
            time.sleep(0.3)
        if child.poll() is None and _healthy(ports["metrics"]):
            _write(state / "pid", str(child.pid))
            _write(state / "uri", f"http://127.0.0.1:{ports['proxy_port']}")
            break
        _end(child)
        child = None
        if stop["now"] or not _alive(parent):
            break
    if child is None:
        _write(state / "failed", f"milvus {VERSION} did not start; see {state / 'server.log'}")
        return 1
    while not stop["now"] and _alive(parent) and child.poll() is None:
        time.sleep(0.5)
    _end(child)
    if not keep:
        shutil.rmtree(data, ignore_errors=True)
    return 0


def _end(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=15)


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def start(state: Path, parent: int, keep: bool = False) -> str:
    """Start a supervisor in the background; the URI once the server answers (RuntimeError if not)."""
    install()
    state.mkdir(parents=True, exist_ok=True)
    for name in ("uri", "failed", "pid"):
        (state / name).unlink(missing_ok=True)
    with open(state / "supervisor.log", "ab") as log:
        sup = subprocess.Popen(
            [sys.executable, __file__, "supervise", str(state), "--parent", str(parent), *(["--keep"] if keep else [])],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # a Ctrl+C in the terminal reaches the run, which then stops us
        )
    _write(state / "supervisor", str(sup.pid))
    deadline = time.monotonic() + START_TIMEOUT + 30
    while time.monotonic() < deadline:
        if (state / "uri").exists():
            return (state / "uri").read_text()
        if (state / "failed").exists() or sup.poll() is not None:
            break
        time.sleep(0.3)
    stop(state)
    reason = (state / "failed").read_text() if (state / "failed").exists() else f"milvus {VERSION} did not start"
    raise RuntimeError(reason)


def stop(state: Path) -> None:
    """Ask the supervisor to stop the server, and wait for it."""
    try:
        pid = int((state / "supervisor").read_text())
    except (OSError, ValueError):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 40
    while _alive(pid) and time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                break
        time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("install")
    for name in ("start", "supervise"):
        p = sub.add_parser(name)
        p.add_argument("state", type=Path)
        p.add_argument("--parent", type=int, default=os.getppid())
        p.add_argument("--keep", action="store_true", help="the data and ports of the last run, kept after")
    sub.add_parser("stop").add_argument("state", type=Path)
    args = parser.parse_args()
    if args.cmd == "install":
        print(install())
    elif args.cmd == "start":
        try:
            print(start(args.state.absolute(), args.parent, args.keep))
        except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
            print(f"milvus server: {exc}", file=sys.stderr)
            return 1
    elif args.cmd == "supervise":
        return supervise(args.state, args.parent, args.keep)
    else:
        stop(args.state.absolute())
    return 0


if __name__ == "__main__":
    sys.exit(main())
