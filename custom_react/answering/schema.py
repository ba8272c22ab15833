"""A structured Final Answer on any text model: the schema in the prompt, the answer validated.

`AnswerSchema(schema)` takes what `response_format=` takes: a Pydantic model, a `TypedDict` (or a
dataclass), or a JSON-schema dict, given as it is or in LangChain's `ToolStrategy(...)`,
`ProviderStrategy(...)` or `AutoStrategy(...)` (`given_schema` unwraps it: the loop and the
`create_agent` middleware both read the schema alone, in the prompt). `instructions(language, example)` is the block the prompt ends
with: the JSON schema, and how the step format writes such an answer. `read(answer)` finds the
JSON object in the Final Answer's text (forgiving what small models write: `parsing.json_repair`),
validates it, and returns the value the result's `structured_response` holds: an instance of the
model, or a dict for a `TypedDict` or a JSON schema (checked with `jsonschema`). An answer that is
not such an object raises `AnswerInvalid`, whose message, naming the fields, goes back to the
model as the next Observation. No native tool calls and no provider JSON mode are needed.
"""

from __future__ import annotations

import json
import sys
import typing
from typing import Any

import typing_extensions
from pydantic import BaseModel, TypeAdapter, ValidationError

from custom_react.parsing.json_repair import read_json_object
from custom_react.prompts import load_messages


def given_schema(response_format: Any) -> Any:
    """The schema itself: a LangChain strategy's `.schema` (`ToolStrategy(Price)` gives `Price`).

    Read by its attribute, so the core needs no `langchain`; a class (a Pydantic model has a
    `schema` method) or a dict is a schema already.
    """
    if isinstance(response_format, type | dict):
        return response_format
    return getattr(response_format, "schema", response_format)


class AnswerInvalid(ValueError):
    """The Final Answer is not the JSON object the schema asks for; `str()` is for the model."""


class AnswerSchema:
    """What `response_format` asks of the Final Answer (see the module docstring)."""

    def __init__(self, schema: Any) -> None:
        """Read `schema`: a Pydantic model, a `TypedDict` or dataclass, or a JSON-schema dict.

        Raises:
            TypeError: `schema` is none of those (nor a strategy holding one).
        """
        schema = given_schema(schema)
        self.schema = schema
        if isinstance(schema, dict):
            import jsonschema  # only for a JSON-schema dict: the other kinds need none

            jsonschema.validators.validator_for(schema).check_schema(schema)
            self.json_schema: dict[str, Any] = schema
            self.adapter: TypeAdapter[Any] | None = None
        else:
            try:
                self.adapter = TypeAdapter(_readable(schema))
                self.json_schema = self.adapter.json_schema()
            except Exception as error:
                raise TypeError(
                    "response_format takes a Pydantic model, a TypedDict, a dataclass or a "
                    f"JSON-schema dict, not {schema!r}"
                ) from error
        if self.json_schema.get("type", "object") != "object":
            raise TypeError(
                "response_format takes a schema of a JSON object (a Pydantic model, a TypedDict, "
                f"a dataclass, or a JSON schema with type 'object'), not one of type "
                f"{self.json_schema.get('type')!r} ({schema!r}): wrap it in a model with one "
                "field, such as `class Answer(BaseModel): values: list[int]`."
            )
        self.name = str(self.json_schema.get("title") or getattr(schema, "__name__", "answer"))

    def instructions(self, language: str, write_answer: str) -> str:
        """The prompt's block about the answer; `write_answer` shows the format's way of writing it.

        `write_answer` holds `{json}` where the object goes (`Final Answer: {json}` in text).
        """
        schema = json.dumps(self.json_schema, ensure_ascii=False)
        example = write_answer.replace("{json}", "{...}")
        return load_messages(language)["answer_schema"].format(schema=schema, example=example)

    def read(self, answer: str, language: str = "en") -> tuple[Any, str]:
        """The validated answer, and the answer's JSON written cleanly.

        Raises:
            AnswerInvalid: No JSON object in `answer`, or one the schema rejects (the fields named).
        """
        messages = load_messages(language)
        start = answer.find("{")
        data = read_json_object(answer, start) if start >= 0 else None
        if not isinstance(data, dict):
            raise AnswerInvalid(messages["answer_not_json"])
        value, problems = self._validate(data, messages)
        if problems:
            raise AnswerInvalid(messages["answer_invalid"].format(problems="; ".join(problems)))
        shown = (
            value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) else data
        )
        return value, json.dumps(shown, ensure_ascii=False)

    def _validate(self, data: dict[str, Any], messages: dict[str, str]) -> tuple[Any, list[str]]:
        """The validated value, and what is wrong with `data`, one line per field."""
        field = messages["answer_field"]
        if self.adapter is None:
            import jsonschema

            validator = jsonschema.validators.validator_for(self.json_schema)(self.json_schema)
            errors = validator.iter_errors(data)
            return data, [field.format(field=_where(e), problem=e.message) for e in errors]
        try:
            return self.adapter.validate_python(data), []
        except ValidationError as error:
            return None, [
                field.format(field=_path(e["loc"]), problem=e["msg"]) for e in error.errors()
            ]


def _readable(schema: Any) -> Any:
    """`schema` as Pydantic reads it: a `typing.TypedDict` is remade as a `typing_extensions` one.

    Pydantic refuses `typing.TypedDict` before Python 3.12; the fields and their types are kept.
    """
    if not (typing.is_typeddict(schema) and sys.version_info < (3, 12)):
        return schema
    fields = typing.get_type_hints(schema)
    return typing_extensions.TypedDict(schema.__name__, fields, total=schema.__total__)  # type: ignore[operator]


def _where(error: Any) -> str:
    """Where a `jsonschema` error is: a missing required property is named, not its object."""
    location = list(error.absolute_path)
    if error.validator == "required":  # the message is "'yuan' is a required property"
        location += [
            name for name in error.validator_value if error.message.startswith(f"{name!r} ")
        ][:1]
    return _path(location)


def _path(location: Any) -> str:
    """A field's place in the answer: `metres`, `items.0.name`; `(answer)` for the whole."""
    return ".".join(str(part) for part in location) or "(answer)"
