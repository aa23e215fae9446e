"""Wire shapes, declared once: a dataclass is the shape, and its JSON is derived from it.

``to_wire(obj)`` gives the plain data of a dataclass (what ``--json``, the MCP
tools and the saved session write); ``from_wire(cls, data)`` reads it back.
Both follow each field's declared type: a nested dataclass, a list of them or
an enum is converted, anything else (``str``, ``list[str]``, ``dict[str, Any]``)
is taken as it is; lists are copied, other values shared, never deep-copied (a
session of a thousand groups is saved on every edit, and an applied commit's
``state_before`` is large). The MCP output schemas are derived from the same
dataclasses, with pydantic, in ``segmint_core.mcp.schemas``.

Reading is lenient in one way only: keys the dataclass does not declare are
left out (a session saved by a later version still loads); a missing key takes
the field's default.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")

Convert = Callable[[Any], Any]


def to_wire(obj: Any) -> dict[str, Any]:
    """The dataclass ``obj`` as plain data, field by field in declaration order."""
    return {name: encode(getattr(obj, name)) for name, encode in _encoders(type(obj))}


def from_wire(cls: type[T], data: dict[str, Any]) -> T:
    """The dataclass ``cls`` read from ``to_wire``'s data."""
    decoders = _decoders(cls)
    return cls(**{name: decoders[name](value) for name, value in data.items() if name in decoders})


_ENCODERS: dict[type, tuple[tuple[str, Convert], ...]] = {}
_DECODERS: dict[type, dict[str, Convert]] = {}


def _encoders(cls: type) -> tuple[tuple[str, Convert], ...]:
    """Each field's name and encoder, worked out once per class from its type hints."""
    if cls not in _ENCODERS:
        hints = typing.get_type_hints(cls)
        _ENCODERS[cls] = tuple((f.name, _encoder(hints[f.name])) for f in dataclasses.fields(cls))
    return _ENCODERS[cls]


def _decoders(cls: type) -> dict[str, Convert]:
    if cls not in _DECODERS:
        hints = typing.get_type_hints(cls)
        _DECODERS[cls] = {f.name: _decoder(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
    return _DECODERS[cls]


def _same(value: Any) -> Any:
    return value


def _listed(value: Any) -> Any:
    return list(value)


def _encoder(hint: Any) -> Convert:
    inner = _optional_of(hint)
    if inner is not None:
        encode = _encoder(inner)
        return _same if encode is _same else lambda v: None if v is None else encode(v)
    origin = typing.get_origin(hint)
    if origin in (list, tuple):
        item = _encoder(next(iter(typing.get_args(hint)), Any))
        return _listed if item is _same else lambda v: [item(x) for x in v]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return to_wire
    if isinstance(hint, type) and issubclass(hint, Enum):
        return lambda v: v.value if isinstance(v, Enum) else v
    return _same


def _decoder(hint: Any) -> Convert:
    inner = _optional_of(hint)
    if inner is not None:
        decode = _decoder(inner)
        return _same if decode is _same else lambda v: None if v is None else decode(v)
    origin = typing.get_origin(hint)
    if origin is list:
        item = _decoder(next(iter(typing.get_args(hint)), Any))
        return _listed if item is _same else lambda v: [item(x) for x in v]
    if origin is tuple:
        item = _decoder(next(iter(typing.get_args(hint)), Any))
        return lambda v: tuple(item(x) for x in v)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return functools.partial(_from_wire_of, hint)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    return _same


def _from_wire_of(cls: type, value: Any) -> Any:
    return value if isinstance(value, cls) else from_wire(cls, value)


def _optional_of(hint: Any) -> Any:
    """``X`` for ``X | None``; None for any other type."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0]
    return None
