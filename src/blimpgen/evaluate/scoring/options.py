"""Scorer options: a scorer's constructor parameters are its options, checked against its signature.

On the command line every option is ``--scorer-option KEY=VALUE`` (repeatable, like
lm-evaluation-harness's ``--model_args``); the options every model scorer shares also have a
flag of their own (:data:`SHARED_FLAGS`: ``--model``, ``--device``, ``--dtype``,
``--device-map``, ``--tokenizer``, ``--adapter``, and ``--model-arg KEY=VALUE``, repeatable, which gathers
the ``model_args`` mapping passed on to ``from_pretrained``: :func:`parse_model_args`).
A value is coerced from the parameter's annotation:

* ``int``, ``float``: parsed; ``bool``: ``true``/``false`` (also ``yes``/``no``, ``1``/``0``);
* ``Literal[...]``: one of its values; ``str``, ``Path`` and ``Any``: the text as given;
* anything else (a loaded tokenizer, a counts mapping) is for library callers only.

A key the constructor does not take is an :class:`~blimpgen.errors.OptionError` with
did-you-mean, as is a value the annotation refuses. :func:`describe_options` is what
``blimpgen eval --scorer X --list-options`` prints: each parameter with its type, default and
the description from the class docstring's ``Args:`` section.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from blimpgen.errors import OptionError, did_you_mean

# torch dtypes a model scorer (and the learning curves) can run in
DTYPES = ("float32", "bfloat16", "float16", "auto")
# options that have a flag of their own, shared by the model scorers
SHARED_FLAGS = {
    "model": "--model",
    "device": "--device",
    "dtype": "--dtype",
    "device_map": "--device-map",
    "tokenizer": "--tokenizer",
    "adapter": "--adapter",
    "model_args": "--model-arg",
}
# annotation names the command line can give, and the type their text is parsed as
_SCALARS: dict[str, type] = {
    "str": str,
    "Path": str,
    "PathLike": str,
    "Any": str,
    "int": int,
    "float": float,
    "bool": bool,
}
_TRUE, _FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")


@dataclass(frozen=True)
class ScorerOption:
    """One constructor parameter of a scorer, as an option.

    Attributes:
        name: the keyword.
        annotation: the annotation as written (``int | None``).
        types: what the command line can give, tried in this order; empty: library callers only.
        choices: the values of a ``Literal`` annotation.
        default: the default (``inspect.Parameter.empty`` when required).
        doc: the docstring's description of the parameter.
    """

    name: str
    annotation: str
    types: tuple[type, ...]
    choices: tuple[Any, ...]
    default: Any
    doc: str

    @property
    def required(self) -> bool:
        """Whether the constructor needs it."""
        return self.default is inspect.Parameter.empty

    def coerce(self, text: str) -> Any:
        """The value ``KEY=text`` gives this option.

        Raises:
            OptionError: naming the option, when its annotation refuses the text.
        """
        where = f"--scorer-option {self.name}={text}"
        if not self.types:
            raise OptionError(f"{where}: {self.name} takes {self.annotation}, which only a library caller can pass")
        if self.choices:
            if text in map(str, self.choices):
                return next(choice for choice in self.choices if str(choice) == text)
            raise OptionError(f"{where}: expected one of: {', '.join(map(str, self.choices))}")
        for kind in (bool, int, float, str):
            if kind not in self.types:
                continue
            if kind is bool and text.lower() in _TRUE + _FALSE:
                return text.lower() in _TRUE
            if kind in (int, float):
                try:
                    return kind(text)
                except ValueError:
                    continue
            if kind is str:
                return text
        expected = " or ".join(
            {bool: "true or false", int: "an integer", float: "a number"}[k]
            for k in (bool, int, float)
            if k in self.types
        )
        raise OptionError(f"{where}: expected {expected} ({self.name}: {self.annotation})")


def scorer_options(factory: Callable[..., Any]) -> list[ScorerOption]:
    """The options of a scorer class (or factory): its keyword parameters, in order."""
    docs = _arg_docs(inspect.getdoc(factory) or "")
    out = []
    for name, parameter in inspect.signature(factory).parameters.items():
        if name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        annotation = parameter.annotation
        text = (
            ""
            if annotation is parameter.empty
            else (annotation if isinstance(annotation, str) else inspect.formatannotation(annotation))
        )
        types, choices = _annotation_types(text) if text else ((str,), ())
        out.append(ScorerOption(name, text or "any", types, choices, parameter.default, docs.get(name, "")))
    return out


def check_options(name: str, factory: Callable[..., Any], options: Mapping[str, Any]) -> None:
    """Refuse options the scorer does not take, and missing required ones.

    Raises:
        OptionError: for an unknown key (with did-you-mean) or a missing required option.
    """
    parameters = inspect.signature(factory).parameters
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return
    known = [key for key in parameters if key != "self"]
    for key in options:
        if key not in parameters:
            raise OptionError(f"scorer {name!r} takes no option {key!r}{did_you_mean(key, known)}")
    for key, parameter in parameters.items():
        if (
            parameter.default is parameter.empty
            and parameter.kind is parameter.POSITIONAL_OR_KEYWORD
            and key not in options
            and key != "self"
        ):
            flag = SHARED_FLAGS.get(key, f"--scorer-option {key}=VALUE")
            raise OptionError(f"scorer {name!r} needs option {key!r} ({flag})")


def parse_assignments(assignments: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` texts (``--scorer-option``) as a mapping; the value may contain ``=``.

    Raises:
        OptionError: for a text without ``=`` or with an empty key, or a key given twice.
    """
    out: dict[str, str] = {}
    for text in assignments:
        key, equals, value = text.partition("=")
        key = key.strip().replace("-", "_")
        if not equals or not key:
            raise OptionError(f"--scorer-option {text!r}: expected KEY=VALUE, e.g. batch_tokens=1024")
        if key in out:
            raise OptionError(f"--scorer-option {key} is given twice ({key}={out[key]}, {key}={value})")
        out[key] = value
    return out


def parse_model_args(assignments: Sequence[str]) -> dict[str, Any]:
    """``--model-arg KEY=VALUE`` texts as ``from_pretrained`` keyword arguments; a value is
    ``true``/``false``, ``none``, an integer, a number, else the text (``revision=v1.0``).

    Raises:
        OptionError: for a text without ``=`` or with an empty key, or a key given twice.
    """
    out: dict[str, Any] = {}
    for text in assignments:
        key, equals, value = text.partition("=")
        key = key.strip()
        if not equals or not key:
            raise OptionError(f"--model-arg {text!r}: expected KEY=VALUE, e.g. revision=main")
        if key in out:
            raise OptionError(f"--model-arg {key} is given twice")
        out[key] = _model_value(value)
    return out


def _model_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def resolve_options(
    name: str, factory: Callable[..., Any], assignments: Mapping[str, str], flags: Mapping[str, Any]
) -> dict[str, Any]:
    """The constructor options of scorer ``name`` from ``KEY=VALUE`` texts and the shared flags.

    Args:
        name: the scorer, for messages.
        factory: its class.
        assignments: ``--scorer-option`` keys and their texts (coerced here).
        flags: values of the shared flags (``model``, ``device``...) that were given, already typed.

    Raises:
        OptionError: for an unknown key, a value the parameter's annotation refuses, or an
            option set both by its flag and by ``--scorer-option``.
    """
    for key in sorted(assignments.keys() & flags.keys()):
        raise OptionError(f"{SHARED_FLAGS.get(key, key)} and --scorer-option {key}=... both set {key!r}; give one")
    check_options(name, factory, {**flags, **assignments})
    known = {option.name: option for option in scorer_options(factory)}
    return {**flags, **{key: known[key].coerce(text) if key in known else text for key, text in assignments.items()}}


def describe_options(name: str, resolved: str, factory: Callable[..., Any]) -> str:
    """The text of ``blimpgen eval --scorer NAME --list-options``."""
    summary = (inspect.getdoc(factory) or "").split("\n\n", 1)[0].replace("\n", " ")
    target = f"{getattr(factory, '__module__', '')}:{getattr(factory, '__qualname__', '')}"
    shared = [key for key in SHARED_FLAGS if key in inspect.signature(factory).parameters]
    flags = ", ".join(SHARED_FLAGS[key] for key in shared)
    lines = [
        f"{resolved} ({target})",
        summary,
        "",
        f"Options (--scorer-option KEY=VALUE{f'; {flags} also set theirs' if shared else ''}):",
    ]
    for option in scorer_options(factory):
        if not option.types:
            kind = "library only"
        elif option.choices:
            kind = "one of: " + ", ".join(map(str, option.choices))
        else:
            kind = " or ".join(k.__name__ for k in option.types)
        default = "required" if option.required else f"default: {option.default}"
        lines.append(f"  {option.name} ({kind}; {default})")
        if option.doc:
            lines.append(f"      {option.doc}")
    return "\n".join(lines)


def _annotation_types(text: str) -> tuple[tuple[type, ...], tuple[Any, ...]]:
    """(the types the command line can give, Literal choices) of an annotation written as text."""
    types: list[type] = []
    choices: tuple[Any, ...] = ()
    for part in _top_level(text, "|"):
        part = part.strip().removeprefix("typing.")
        if part.startswith("Optional[") and part.endswith("]"):
            inner, more = _annotation_types(part[len("Optional[") : -1])
            types += inner
            choices += more
        elif part.startswith("Literal[") and part.endswith("]"):
            try:
                values = ast.literal_eval(f"({part[len('Literal[') : -1]},)")
            except (ValueError, SyntaxError):
                continue
            choices += tuple(values)
            types += [type(value) for value in values]
        elif part.rsplit(".", 1)[-1] in _SCALARS:
            types.append(_SCALARS[part.rsplit(".", 1)[-1]])
    return tuple(dict.fromkeys(types)), choices


def _top_level(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside brackets."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return [*parts, text[start:]]


def _arg_docs(docstring: str) -> dict[str, str]:
    """Parameter name -> its one-paragraph description, from a Google-style ``Args:`` section."""
    out: dict[str, str] = {}
    lines = docstring.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Args:")
    except StopIteration:
        return out
    indent: int | None = None
    current: str | None = None
    names: list[str] = []
    for line in lines[start + 1 :]:
        if not line.strip():
            continue
        width = len(line) - len(line.lstrip())
        if indent is None:
            indent = width
        if width < indent:
            break
        match = re.match(r"(\w+(?:, \w+)*)(?: \([^)]*\))?: (.*)", line.strip())
        if width == indent and match:
            names, current = match.group(1).split(", "), match.group(2)
            for key in names:
                out[key] = current
        elif width > indent and current is not None:
            for key in names:
                out[key] += " " + line.strip()
    return out
