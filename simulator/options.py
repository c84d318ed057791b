"""Typed options shared by rule sets and strategy parameters.

Both are frozen dataclasses whose fields carry their help text, and for strings their allowed
choices and for numbers their range, in `dataclasses.field(metadata=...)`. Values arrive as text
(command line, TOML, `key=value` lists) or as TOML scalars; `coerce` turns them into the field's
type and `build` makes an instance from a chain of sources, later sources overriding earlier ones.
"""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, get_type_hints

from simulator.errors import DealsimError

T = TypeVar("T")

# numbers as a person types them: ASCII digits, a sign, a decimal point, an exponent (no '_', no other digits)
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Needs:
    """When an option is read at all: `holds(x)` is true of the object `x` it is checked against (the
    options' own instance, or the rules a strategy plays under), `text` says so to a person and `fields`
    names the fields of `x` it looks at (shown when it fails)."""

    text: str
    holds: Callable[[Any], bool]
    fields: tuple[str, ...]


def needs(**values: Any) -> Needs:
    """Read only where one of these fields has the value given: `needs(bidder="threshold")`,
    `needs(bidding="sampled", naming="sampled")` (either will do)."""
    text = " or ".join(f"{k}={_text(v)}" for k, v in values.items())
    return Needs(text, lambda x: any(getattr(x, k) == v for k, v in values.items()), tuple(values))


def option(
    default: Any,
    help: str,
    *,
    choices: tuple[str, ...] | None = None,
    lo: float | None = None,
    hi: float | None = None,
    read_if: Needs | None = None,
    rules_need: Needs | None = None,
    match_only: bool = False,
) -> Any:
    """A dataclass field with the metadata that `coerce` checks and `describe` prints. An option that is
    not always read says when it is: `read_if` (other options of the same object), `rules_need` (a
    strategy's parameter that only some rules let it use) and `match_only` (read only where whole matches
    are played); `build` and `unread` refuse it where it would be ignored."""
    meta: dict[str, Any] = {"help": help, "choices": choices, "lo": lo, "hi": hi}
    meta |= {"read_if": read_if, "rules_need": rules_need, "match_only": match_only}
    return dataclasses.field(default=default, metadata=meta)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def fields_of(cls: type) -> dict[str, tuple[dataclasses.Field, type]]:
    hints = get_type_hints(cls)
    return {f.name: (f, hints[f.name]) for f in dataclasses.fields(cls) if f.init}


def coerce(what: str, name: str, field: dataclasses.Field, kind: type, value: Any) -> Any:
    """Turn `value` (text or a TOML scalar) into the field's type, or raise one clear DealsimError."""
    meta = field.metadata
    bad = f"{what} {name}: "
    if kind is bool:
        if isinstance(value, bool):
            out: Any = value
        elif str(value).strip().lower() in _TRUE:
            out = True
        elif str(value).strip().lower() in _FALSE:
            out = False
        else:
            raise DealsimError(bad + f"expected true or false, got {value!r}")
    elif kind in (int, float):
        if isinstance(value, bool):
            raise DealsimError(bad + f"expected a number, got {value!r}")
        try:
            # Python would read '４' and '1_00' as numbers; a person means neither (inf and nan: see below)
            written = isinstance(value, str) and (_INT if kind is int else _FLOAT).fullmatch(value.strip())
            infinite = kind is float and str(value).strip().lower().lstrip("+-") in ("inf", "infinity", "nan")
            if isinstance(value, str) and not written and not infinite:
                raise ValueError(value)
            out = kind(value) if not isinstance(value, str) or kind is float else int(value.strip(), 10)
        except (TypeError, ValueError, OverflowError):
            raise DealsimError(
                bad + f"expected {'a whole number' if kind is int else 'a number'}, got {value!r}"
            ) from None
        if kind is float and not math.isfinite(out):
            raise DealsimError(bad + f"expected a finite number, got {value!r}")
        if kind is int and isinstance(value, float) and value != out:
            raise DealsimError(bad + f"expected a whole number, got {value!r}")
        lo, hi = meta.get("lo"), meta.get("hi")
        if (lo is not None and out < lo) or (hi is not None and out > hi):
            raise DealsimError(bad + f"{out} is out of range {lo}..{hi}")
    elif kind is str:
        out = str(value).strip()
        choices = meta.get("choices")
        if choices and out not in choices:
            raise DealsimError(bad + f"{out!r} is not one of {', '.join(choices)}")
    else:  # pragma: no cover - a programming error in a dataclass, not user input
        raise TypeError(f"unsupported option type {kind} for {name}")
    return out


def parse_pairs(what: str, pairs: Iterable[str]) -> dict[str, str]:
    """`["a=1", "b=x"]` -> `{"a": "1", "b": "x"}`; a pair without '=' is an error."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise DealsimError(f"{what}: expected key=value, got {pair!r}")
        out[key.strip()] = value
    return out


def build(cls: type[T], what: str, *sources: Mapping[str, Any], base: T | None = None, trusted: int = 0) -> T:
    """An instance of `cls` from `base` (or the defaults) with each source's values applied in turn. A value
    given that the instance never reads is refused (see `refuse_unread`), except in the first `trusted`
    sources (a preset, a saved manifest), which set every option they know of."""
    known = fields_of(cls)
    values: dict[str, Any] = dataclasses.asdict(base) if base is not None else {}  # type: ignore[call-overload]
    given: dict[str, None] = {}
    for k, source in enumerate(sources):
        for name, value in source.items():
            if name not in known:
                raise DealsimError(f"unknown {what} {name!r}; known: {', '.join(known)}")
            field, kind = known[name]
            values[name] = coerce(what, name, field, kind, value)
            if k >= trusted:
                given[name] = None
    try:
        out = cls(**values)
    except (TypeError, ValueError) as exc:  # cross-field checks in __post_init__, or a class that needs more
        raise DealsimError(f"{what}s: {exc}") from None
    refuse_unread(what, given, out, "read_if", out)
    return out


def refuse_unread(what: str, names: Iterable[str], obj: Any, key: str, against: Any) -> None:
    """One clear error for the first of `names` (options of `obj`) whose `key` condition (read_if or
    rules_need) does not hold of `against`: a setting that would be silently ignored."""
    known = fields_of(type(obj))
    for name in names:
        need = known[name][0].metadata.get(key) if name in known else None
        if need is not None and not need.holds(against):
            now = ", ".join(f"{f}={_text(getattr(against, f))}" for f in need.fields)
            if key == "read_if":
                raise DealsimError(
                    f"{what} {name} is read only with {need.text} (here {now}): "
                    f"add {need.text} or leave {name} out"
                )
            raise DealsimError(
                f"{what} {name} is read only under rules with {need.text} (these have {now}): "
                f"play under {need.text} or leave {name} out"
            )


def match_only(cls: type) -> tuple[str, ...]:
    """The options of `cls` that are read only where whole matches are played."""
    return tuple(name for name, (field, _) in fields_of(cls).items() if field.metadata.get("match_only"))


def read_toml(path: str | Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DealsimError(f"rules file not found: {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DealsimError(f"rules file {path}: {exc}") from None
    except OSError as exc:
        raise DealsimError(f"rules file {path}: {exc.strerror or exc}") from None


def _when_read(meta: Mapping[str, Any]) -> str:
    """The conditions under which an option is read, as a note for its help."""
    notes = [f"with {meta[key].text}" for key in ("read_if", "rules_need") if meta.get(key)]
    notes += ["in whole matches"] if meta.get("match_only") else []
    return f" (read only {', '.join(notes)})" if notes else ""


def describe(cls: type) -> list[dict[str, Any]]:
    """One row per option: name, type, default, allowed values and help, for listings."""
    rows = []
    for name, (field, kind) in fields_of(cls).items():
        meta = field.metadata
        allowed = ""
        if meta.get("choices"):
            allowed = " | ".join(meta["choices"])
        elif meta.get("lo") is not None or meta.get("hi") is not None:
            allowed = f"{meta.get('lo', '')}..{meta.get('hi', '')}"
        rows.append(
            {
                "name": name,
                "type": kind.__name__,
                "default": field.default,
                "allowed": allowed,
                "help": meta.get("help", "") + _when_read(meta),
            }
        )
    return rows
