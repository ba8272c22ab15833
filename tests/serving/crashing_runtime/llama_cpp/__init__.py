"""A stand-in for llama-cpp-python whose runtime crashes at the first completion (tests only).

Put this folder first on ``PYTHONPATH`` and ``python -m llama_cpp.server`` starts the server in
``server/__main__.py``: it answers ``GET /v1/models`` like the real one, then dies of SIGSEGV at the
first chat completion, as a llama.cpp build for instructions the CPU cannot run does.
"""

__version__ = "0.0.0+crashes"
