#!/usr/bin/env bash
# Install custom-react with the bundled local model into the active Python environment.
#
#   bash scripts/install.sh                    # runtime + project with the [local,dev,legacy,mcp] extras
#   bash scripts/install.sh --rebuild-runtime  # also throw away and rebuild the runtime wheel
#
# llama-cpp-python is built from source once, portably (-DGGML_NATIVE=OFF: AVX2/FMA/F16C code, no
# AVX-512 or AMX, which some virtual CPUs report and then fault on), into a wheel kept under
# ~/.cache/custom-react/wheels/. pip's own wheel cache is bypassed for that build: pip reuses a cached
# wheel whatever CMAKE_ARGS says, so a wheel built natively once would otherwise come back. Later
# installs reuse the portable wheel and take seconds. The version is the one pinned in pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."

rebuild=0
for argument in "$@"; do
    case "$argument" in
        --rebuild-runtime) rebuild=1 ;;
        *) echo "usage: bash scripts/install.sh [--rebuild-runtime]" >&2; exit 2 ;;
    esac
done

python -m pip install --quiet --upgrade "pip>=24"
version=$(python -c 'import re, tomllib; deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["local"]; print(next(re.search(r"==([\w.]+)", d).group(1) for d in deps if d.startswith("llama-cpp-python")))')
wheels="${XDG_CACHE_HOME:-$HOME/.cache}/custom-react/wheels/llama-cpp-python-$version-portable"
[ "$rebuild" = 1 ] && rm -rf "$wheels"

if ! ls "$wheels"/llama_cpp_python-"$version"-*.whl >/dev/null 2>&1; then
    echo "Building llama-cpp-python $version portably (about 15 minutes on 2 cores, once)..."
    mkdir -p "$wheels.partial"
    CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc 2>/dev/null || echo 2)" \
        python -m pip wheel --quiet --no-cache-dir --no-deps --no-binary llama-cpp-python \
        "llama-cpp-python==$version" --wheel-dir "$wheels.partial"
    rm -rf "$wheels" && mv "$wheels.partial" "$wheels"
fi
wheel=$(ls "$wheels"/llama_cpp_python-"$version"-*.whl | head -n 1)
# --force-reinstall --no-deps: replace whatever build is installed (a crashing native one, say).
python -m pip install --quiet --force-reinstall --no-deps "$wheel"
python -m pip install --quiet -e ".[local,dev,legacy,mcp]"
python -c "import llama_cpp; print('llama-cpp-python', llama_cpp.__version__, 'portable build from', '$wheels')"
