"""The `custom-react` command: `app.py` holds the commands, `support.py` what they share."""
