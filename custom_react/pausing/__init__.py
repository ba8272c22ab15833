"""Runs that wait and resume: approval, a run as JSON, and the SQLite checkpoint store.

`approval.py` is everything about a person's approval: the callback, the pause
(`approval="interrupt"`), the `Decision` a paused run resumes with. `state.py` writes a run as JSON
and reads it back to resume it, and defines `RunStore`, what the agent's `checkpoint=` takes;
`typed_json.py` writes a step record's fields as JSON and reads them back, every field checked;
`threads.py` gives a new question of a thread (`thread_id`) the thread's earlier turns.
`checkpoints.py` is the SQLite store, an add-on the agent never loads itself:
`CustomReActAgent(llm, tools, checkpoint=SQLiteStore("runs.db"))`.
"""
