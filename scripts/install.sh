#!/usr/bin/env bash
# Create .venv in the repo root and install memsearch-tui with its test and LLM extras.
# torch is pinned to the CPU build through constraints.txt (never a CUDA build).
# Idempotent: a second run only re-checks the editable install.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extra=()
[ -d /opt/wheels ] && extra+=(--find-links /opt/wheels)
stamp=.venv/.installed-$(cat pyproject.toml constraints.txt | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "memsearch-tui: installing into .venv (torch CPU, the models, Milvus Lite; several minutes on a first run)..." >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "${extra[@]}" \
    -c constraints.txt torch==2.13.0
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "${extra[@]}" \
    -c constraints.txt -e '.[test,llm]'
  rm -f .venv/.installed-*
  touch "$stamp"
  echo "memsearch-tui: installed." >&2
fi
# Bytecode for our own modules, as pip writes for an installed package: a shell that sets
# PYTHONDONTWRITEBYTECODE would otherwise recompile them on every command (~10-20 ms).
.venv/bin/python -m compileall -q memsearch_tui >/dev/null
