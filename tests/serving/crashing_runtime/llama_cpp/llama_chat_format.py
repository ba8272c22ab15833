"""The registry the launcher adds the tool-calling chat format to (nothing is ever answered)."""

HANDLERS = {}


def register_chat_completion_handler(name):
    """Keep the handler under ``name``, as llama-cpp-python's decorator does."""

    def register(handler):
        HANDLERS[name] = handler
        return handler

    return register
