"""The crashing stand-in for `llama_cpp.server`; `python -m` runs its `__main__` (tests only)."""
