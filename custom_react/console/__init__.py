"""The console, the one place that prints.

`printing.ConsolePrinter` writes a run's events as a live transcript, `live_reply.LiveReply` shows
a reply while the model writes it, and `labels.py` holds the transcript's words (EN + ZH).
"""
