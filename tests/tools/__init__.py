"""Tests of the top-level `tools` package: each tool, and the package as a whole."""
