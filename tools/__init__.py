"""Tools for the custom-react agent: calculator, date, search and workspace file and terminal tools.

Importing this package reads no environment variable and opens no connection; `default_tools()` and
`make_search_tool()` decide between Tavily and the offline snapshot only when called. The agent loop,
prompts and printing live in `custom_react` and `prompts`, not here.
"""

from langchain_core.tools import BaseTool

from tools.calculator import CalculatorError, calculator
from tools.clock import current_date
from tools.search import make_search_tool
from tools.workspace import make_workspace_tools

__all__ = [
    "CalculatorError",
    "calculator",
    "current_date",
    "default_tools",
    "make_search_tool",
    "make_workspace_tools",
]


def default_tools() -> list[BaseTool]:
    """Return the everyday tools: `[search, calculator, current_date]`.

    The search backend is chosen now (Tavily if `TAVILY_API_KEY` is set, else the offline snapshot).
    The workspace tools are not included: they need a folder and, for commands, user approval.
    """
    return [make_search_tool(), calculator, current_date]
