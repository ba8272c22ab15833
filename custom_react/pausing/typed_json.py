"""A typed record's fields as JSON data, and back: what JSON cannot hold, and strict reading.

`field_as_json` is what a record's field is written as (`steps.Record.to_dict`): its value when
JSON can hold it; otherwise (a tool's artifact that is an object, say) the field's default, with a
warning, so a checkpoint neither fails nor loses the value without saying so. `read_record`
reads a record back with every field checked against its type first (strict: `"1"` is not an
int), so a malformed or tampered record is refused, naming the field; `adapter` is the validator
of one type, built once. Nothing here knows which records there are (`steps.py`) or where they
are kept (`store.py`).
"""

from __future__ import annotations

import json
import typing
import warnings
from dataclasses import MISSING, Field, fields
from functools import cache
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter, ValidationError

RecordT = TypeVar("RecordT")
ADDED_IN_FORMAT_4 = frozenset({"artifact", "reply_metadata"})
"""The fields format 4 added: a record written in format 3 lacks them, and reads with their defaults."""


def field_as_json(record: Any, item: Field[Any]) -> Any:
    """The value of `record`'s field `item` as JSON data will hold it: as it is, or its default.

    A value that `json.dumps` refuses is written as the field's default (None for an artifact),
    with a warning that names the record, the field and the value's type (once for each).
    A field without a default is written as it is.
    """
    value = getattr(record, item.name)
    if item.default is MISSING and item.default_factory is MISSING:
        return value
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        made = item.default_factory
        default = made() if callable(made) else item.default
        kind = type(value).__name__
        warnings.warn(
            f"{type(record).__name__}.{item.name} holds a {kind}, which JSON cannot hold: the "
            f"checkpoint keeps {default!r} instead (the run's own result keeps the {kind}).",
            stacklevel=4,
        )
        return default
    return value


@cache
def adapter(kind: Any) -> TypeAdapter[Any]:
    """The validator of one type, built once: building it costs far more than using it."""
    return TypeAdapter(kind)


@cache
def field_types(kind: Any) -> dict[str, Any]:
    """A record's field types, resolved once."""
    return typing.get_type_hints(kind)


def read_record(kind: type[RecordT], data: Any, where: str) -> RecordT:
    """The record of type `kind` in `data`, every field checked against its type first.

    Strict: every field present (but those format 4 added), `"1"` not an int, so a malformed or tampered record is refused,
    naming the field.

    Raises:
        ValueError: A field is missing, unknown or of the wrong type, named with `where`.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be a JSON object, not {type(data).__name__}.")
    hints = field_types(cast(Any, kind))  # a class is hashable; the TypeVar hides it
    known = {item.name for item in fields(kind)} - {"type"}  # type: ignore[arg-type]
    if unknown := sorted(set(data) - known):
        raise ValueError(f"{where} has unknown fields {unknown}; it takes {sorted(known)}.")
    if missing := sorted(known - set(data) - ADDED_IN_FORMAT_4):  # `to_dict` writes every field
        raise ValueError(f"{where} is missing the fields {missing}.")
    for name, value in data.items():
        try:
            adapter(hints[name]).validate_python(value, strict=True)
        except ValidationError as error:
            expected = getattr(hints[name], "__name__", str(hints[name]))
            problem = error.errors()[0]["msg"]
            raise ValueError(f"{where}: field {name!r} is not a {expected} ({problem}).") from None
    return kind(**data)
