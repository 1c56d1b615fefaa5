"""One mechanism for evaluation options: frozen, strict pydantic models whose errors are one line.

Every options model (:class:`~blimpgen.evaluate.tasks.base.TaskOptions` and its per-task
subclasses, the learning curves' :class:`~blimpgen.evaluate.curves.head.TrainOptions`) derives
from :class:`OptionsModel` and declares its fields with :func:`option_field`, which records the
command-line flag that sets the field. A bad value, from the command line or from a library
caller, is an :class:`~blimpgen.errors.OptionError` naming that flag, never a pydantic
traceback::

    PairOptions(limit=0)        # OptionError: --limit must be at least 1, got 0
    PairOptions(tie="never")    # OptionError: unknown tie policy 'never'; expected one of: wrong, half, right
"""

from __future__ import annotations

from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from blimpgen.errors import OptionError, did_you_mean


def option_field(default: Any, flag: str, label: str = "", **constraints: Any) -> Any:
    """A field of an options model: its default, the flag that sets it, and pydantic constraints.

    Args:
        default: the value when the option is not given.
        flag: the command-line flag, for messages (``--limit``).
        label: what a value is called in "unknown ..." messages (``tie policy``); default: the flag.
        constraints: passed to :func:`pydantic.Field` (``ge=1``, ``lt=1``, ``min_length=1``...).
    """
    return Field(default, json_schema_extra={"flag": flag, "label": label or flag}, **constraints)


class OptionsModel(BaseModel):
    """Options validated on construction; every problem is one :class:`OptionError` line.

    Raises:
        OptionError: for an unknown option (with did-you-mean) or a value out of range,
            naming the option's flag.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise OptionError("; ".join(self._message(error) for error in exc.errors())) from None

    @classmethod
    def flag(cls, name: str) -> str:
        """The command-line flag of field ``name``."""
        extra = cls.model_fields[name].json_schema_extra
        return str(extra["flag"]) if isinstance(extra, dict) else f"--{name.replace('_', '-')}"

    @classmethod
    def _message(cls, error: Any) -> str:
        name = str(error["loc"][0]) if error["loc"] else ""
        value, kind, context = error.get("input"), error["type"], error.get("ctx") or {}
        if kind == "extra_forbidden":
            return f"unknown option {name!r}{did_you_mean(name, list(cls.model_fields))}"
        if name not in cls.model_fields:  # a model validator's own message
            return str(error["msg"]).removeprefix("Value error, ")
        flag = cls.flag(name)
        extra = cls.model_fields[name].json_schema_extra
        label = str(extra.get("label", flag)) if isinstance(extra, dict) else flag
        bounds = {
            "greater_than_equal": ("at least", "ge"),
            "greater_than": ("greater than", "gt"),
            "less_than": ("less than", "lt"),
            "less_than_equal": ("at most", "le"),
        }
        if kind == "literal_error":
            choices = _literal_values(cls.model_fields[name].annotation)
            return f"unknown {label} {value!r}; expected one of: {', '.join(map(str, choices))}"
        if kind in bounds:
            words, key = bounds[kind]
            bound = context[key]
            return f"{flag} must be {words} {f'{bound:g}' if isinstance(bound, float) else bound}, got {value!r}"
        if kind == "too_short":
            return f"{flag} needs at least {context['min_length']} value(s)"
        if kind == "value_error":
            return f"{flag}: {str(error['msg']).removeprefix('Value error, ')}"
        message = str(error["msg"])
        return f"{flag}: {message[:1].lower()}{message[1:]}, got {value!r}"


def _literal_values(annotation: Any) -> tuple[Any, ...]:
    """The values of the ``Literal`` inside an annotation (``Literal[...] | None`` too)."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    if get_origin(annotation) is Union or type(annotation).__name__ == "UnionType":
        return tuple(value for arg in get_args(annotation) for value in _literal_values(arg))
    return ()
