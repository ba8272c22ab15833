# One task runner. `make check` is what CI runs (through .ci/run) and what the README calls the test command.
PYTHON ?= python

# import-linter ships no `python -m` entry point: call its CLI through the same interpreter, so this
# works with an activated venv (PYTHON=python) and with PYTHON=.venv/bin/python alike.
LINT_IMPORTS = $(PYTHON) -c "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"

.PHONY: check lint imports format typecheck docs-check test test-fast golden docs bench

check: lint typecheck docs-check test

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(LINT_IMPORTS)

imports:  # only the import contracts of [tool.importlinter] in pyproject.toml (also part of `lint`)
	$(LINT_IMPORTS)

format:
	$(PYTHON) -m ruff check --fix .
	$(PYTHON) -m ruff format .

typecheck:
	$(PYTHON) -m mypy

test:
	$(PYTHON) -m pytest

test-fast:  # everything but the end-to-end runs on the local model
	$(PYTHON) -m pytest -m "not e2e"

golden:  # rewrite the golden prompts, transcripts, exports and scripted docs assets after an intended change
	$(PYTHON) -m pytest tests/core/test_prompt.py tests/core/test_printing.py tests/export/test_export.py --regenerate-golden
	$(PYTHON) scripts/make_docs_assets.py --scripted

docs-check:  # offline: is any real transcript or saved result made with another prompt than the shipped one?
	$(PYTHON) scripts/make_docs_assets.py --check

docs:  # rerun the real docs transcripts on the local model (one model run at a time)
	flock /tmp/custom-react-model.lock $(PYTHON) scripts/make_docs_assets.py

bench:  # the benchmarks that need no model; they print their tables and save nothing (docs/measurements.md)
	$(PYTHON) bench/parser_robustness.py --quiet
	$(PYTHON) bench/overhead.py
	$(PYTHON) bench/parser_speed.py
