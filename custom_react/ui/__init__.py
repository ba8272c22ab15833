"""`custom-react ui`: a local web page to watch, pause and change a ReAct run (an add-on).

`make_app(session)` is the Starlette app the command serves on 127.0.0.1 (`app.py`); a
`Session` runs the agent in a thread and pauses it where the page decides (`session.py`); the
page itself is one HTML file with its script inline (`page.html`), its words in English and
Chinese (`labels.py`). The core never imports this package (an import contract).
"""

from custom_react.ui.app import make_app, scripted_session, serve
from custom_react.ui.session import Session

__all__ = ["Session", "make_app", "scripted_session", "serve"]
