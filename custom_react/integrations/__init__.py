"""The agent's parts used by other frameworks, and tools from MCP servers.

`create_agent.py`: `TextReActMiddleware`, text ReAct for LangChain 1.x `create_agent` on models
without native tool calls (the `legacy` extra), with `react_messages.py` and `text_calls.py`. `mcp.py`: the tools of an MCP server on stdio as
LangChain tools (the `mcp` extra). Neither is loaded by `import custom_react`.
"""
