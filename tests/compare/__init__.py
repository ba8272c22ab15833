"""Tests of `custom_react.compare`: questions, the harness with scripted models, and the reports."""
