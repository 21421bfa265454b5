#!/usr/bin/env bash
# Second README command: install if needed, check import layers, run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
.venv/bin/lint-imports
exec .venv/bin/python -m pytest "$@"
