#!/usr/bin/env bash
# First README command: install, seed a demo memory under .demo/, open the app on it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
.venv/bin/python -m memsearch_tui.demo .demo
exec .venv/bin/memsearch-tui --memory-root .demo/memory --project .demo/project "$@"
