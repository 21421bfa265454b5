#!/usr/bin/env bash
# Second README command: install if needed, check style, import layers and types, run the whole suite.
# Extra arguments go to pytest (e.g. `-m "not slow"`, `-x`, a test path).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# The test modules' assertion-rewritten bytecode, written once while the linters below run
# (one core; mypy alone takes minutes on a fresh clone): in a fresh clone each of the four
# workers rewrote every test module itself (session 15: workers' start 37.7 s of CPU fresh,
# 20.0 s warm). Collection errors are reported by the run itself below.
env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest --collect-only -q -p no:randomly >/dev/null 2>&1 &
precompile=$!
# The package's own bytecode too: where PYTHONDONTWRITEBYTECODE is set, each worker and each
# CLI subprocess a test starts compiled every module it imported again.
.venv/bin/python -m compileall -q memsearch_tui >/dev/null 2>&1 &
compiled=$!
.venv/bin/ruff check .
.venv/bin/ruff format --check --quiet .
.venv/bin/lint-imports
.venv/bin/mypy
# The real Milvus server for the server-side vector tests: installed once into a side venv
# cached under ~/.cache/memsearch-tui/milvus-venv/<version> (no dependencies, so no torch);
# the suite starts one on free ports at the first test that takes it and stops it after the
# last (or when pytest exits). If it cannot be installed, those tests are skipped with the
# reason (the run goes on).
.venv/bin/python scripts/milvus_server.py install >/dev/null || echo "milvus server not installed: its tests will be skipped" >&2
wait "$precompile" || true
wait "$compiled" || true
# Four workers on two cores: with -n 2 the cores were busy ~1.45 of 2 (tests wait on servers,
# subprocesses and sleeps); with -n 4 ~1.97 (session 14: pytest 9:52 -> 6:34 on an idle machine).
exec .venv/bin/python -m pytest -n 4 --dist loadgroup "$@"
