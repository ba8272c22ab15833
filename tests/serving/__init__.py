"""Tests of `custom_react.serving`: model settings, the bundled weights and the local server."""
