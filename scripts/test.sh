#!/usr/bin/env bash
# Second README command: install if needed, check style, import layers and types, run the whole suite.
# Extra arguments go to pytest (e.g. `-m "not slow"`, `-x`, a test path).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check --quiet .
.venv/bin/lint-imports
.venv/bin/mypy
exec .venv/bin/python -m pytest -n 2 --dist loadgroup "$@"
