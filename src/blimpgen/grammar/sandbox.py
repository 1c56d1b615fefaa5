"""The sandbox templates render in: immutable, budgeted, deterministic.

Templates are user-authored input (a shared paradigm pack), so beyond Jinja's
``ImmutableSandboxedEnvironment`` (no private attributes, no calls that modify a list, dict or
set) every render runs under a :class:`Budget` enforced at render time, whatever the static
checks of :mod:`blimpgen.grammar.templates` let through:

* steps: every attribute or item lookup, call, filter, operator, ``~`` and loop iteration counts
  one step; a render may take :data:`MAX_STEPS` (a wall-clock limit of :data:`MAX_SECONDS` is
  the backstop);
* size: no value may grow past :data:`MAX_VALUE_CHARS` characters (checked *before* an
  operator or ``~`` builds it where the size is known, after a filter or call otherwise), and
  the output of one render past :data:`MAX_OUTPUT_CHARS`;
* values: the internals of lexicon words and phrases (``lexeme``, ``features``, ``parts``...)
  and ``str.format`` are not reachable; sets come out sorted, so output never depends on hash
  order; Jinja's globals (``range``, ``lipsum``, ``cycler``...) do not exist; filters that
  build text of any size or are random exist only as stubs that refuse.

Whatever goes wrong while rendering (a refused value, a division by zero, a filter given a bad
argument, the budget running out) is a :class:`TemplateRenderError`, one line; the source that
rendered (a paradigm, a probe suite) reports it at the template's ``file:line: key``.
"""

from __future__ import annotations

import contextvars
import functools
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.environment import Template
from jinja2.exceptions import SecurityError, TemplateError, UndefinedError
from jinja2.runtime import Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from blimpgen.errors import BlimpgenError

MAX_STEPS = 100_000
MAX_SECONDS = 2.0
MAX_VALUE_CHARS = 10_000
MAX_OUTPUT_CHARS = 10_000
MAX_INT_BITS = 10_000  # about 3,000 decimal digits

# Attributes of lexicon words, phrases and slot values that templates may not reach: the lexicon's
# own objects (mutable, shared by every paradigm of a process) and provenance (file:line).
HIDDEN_ATTRIBUTES = frozenset({"lexeme", "features", "parts", "position", "words", "values", "source"})
# Methods of str that format (the format spec can ask for a width of 2 GB).
HIDDEN_STR_METHODS = frozenset({"format", "format_map"})
# Jinja built-in filters kept for templates; every other one is a stub that refuses (see WHY_NOT).
KEPT_BUILTIN_FILTERS = (
    "abs",
    "capitalize",
    "count",
    "d",
    "default",
    "first",
    "float",
    "int",
    "join",
    "last",
    "length",
    "list",
    "lower",
    "map",
    "max",
    "min",
    "reject",
    "rejectattr",
    "replace",
    "reverse",
    "round",
    "select",
    "selectattr",
    "sort",
    "string",
    "sum",
    "title",
    "trim",
    "unique",
    "upper",
    "wordcount",
)
WHY_NOT = {
    "random": "its output would differ from run to run",
    "format": "a format can ask for text of any size; write the text with ~",
    "attr": "write slot.part",
}
SIZE_REASON = "it can build text or lists of any size"
# Jinja's default globals: not in the environment; the static check names them.
JINJA_GLOBALS = frozenset({"range", "dict", "lipsum", "cycler", "joiner", "namespace"})
LOOP_FILTER = "blimpgen_loop_step"


class TemplateRenderError(BlimpgenError):
    """A template failed while rendering: a refused value, a bad argument, or its budget ran out.

    ``field`` is the output field whose template failed, where the caller knows it.
    """

    field: str | None = None


class Budget:
    """Steps and time one render may take."""

    __slots__ = ("steps", "deadline")

    def __init__(self) -> None:
        self.steps = 0
        self.deadline = time.monotonic() + MAX_SECONDS

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise TemplateRenderError(f"template budget exceeded: more than {MAX_STEPS:,} steps (a loop or recursion?)")
        if not self.steps & 255 and time.monotonic() > self.deadline:
            raise TemplateRenderError(f"template budget exceeded: more than {MAX_SECONDS:g} s for one render")


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("blimpgen_template_budget", default=None)


def tick() -> None:
    """Count one step of the render in progress (outside a render, e.g. a filter called directly, nothing)."""
    budget = _BUDGET.get()
    if budget is not None:
        budget.tick()


def check_size(value: Any) -> Any:
    """``value``, unless it is a string or collection longer than ``MAX_VALUE_CHARS``."""
    if isinstance(value, (str, list, tuple, dict, set, frozenset)) and len(value) > MAX_VALUE_CHARS:
        raise TemplateRenderError(f"a value longer than {MAX_VALUE_CHARS:,} characters or items")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise TemplateRenderError(f"a number of more than {MAX_INT_BITS:,} bits")
    return value


def stable(value: Any) -> Any:
    """Sets as sorted tuples (their order would otherwise depend on the process's hash seed)."""
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(value, key=str))
    return value


def is_blimpgen_value(obj: Any) -> bool:
    """A lexicon word, phrase or slot value (their internals are hidden from templates)."""
    return type(obj).__module__.startswith("blimpgen.")


def hidden(obj: Any, name: Any) -> bool:
    """Whether templates may not read attribute ``name`` of ``obj``."""
    if not isinstance(name, str):
        return False
    if name in HIDDEN_STR_METHODS and isinstance(obj, str):
        return True
    return name in HIDDEN_ATTRIBUTES and is_blimpgen_value(obj)


def not_available(name: str) -> TemplateRenderError:
    return TemplateRenderError(f"'.{name}' is not available in templates (write slot.feature or slot.part)")


def printable(value: Any) -> Any:
    """What ``{{ ... }}`` may print: text, numbers, words and phrases; not None, lists or objects."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool) or is_blimpgen_value(value):
        return value
    if isinstance(value, Undefined):
        # StrictUndefined (an unknown name or attribute) raises its own message (what, and where);
        # an inline ``{{ x if c }}`` without ``else`` gives Jinja's plain Undefined, which prints
        # as nothing whatever the environment's undefined is (Jinja's documented behaviour)
        return str(value)
    shown = "None" if value is None else type(value).__name__
    raise TemplateRenderError(f"the template printed {shown}; print a slot, a feature or text")


def guard_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` counted as a step, its result size-checked and made stable."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        tick()
        return check_size(stable(function(*args, **kwargs)))

    guarded.__name__ = guarded.__qualname__ = name
    functools.update_wrapper(guarded, function, assigned=(), updated=())  # sets __wrapped__ only
    for mark in ("jinja_pass_arg",):  # pass_context / pass_environment markers
        if hasattr(function, mark):
            setattr(guarded, mark, getattr(function, mark))
    return guarded


def refusing_filter(name: str, reason: str) -> Callable[..., Any]:
    """A stub for a filter templates may not use."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise TemplateRenderError(f"filter {name!r} is not available in templates ({reason})")

    refuse.__name__ = name
    return refuse


def loop_step(iterable: Any) -> Iterator[Any]:
    """What every ``{% for %}`` iterates through: one step per item."""
    for item in iterable:
        tick()
        yield item


class _BudgetCodeGenerator(CodeGenerator):
    """Jinja's code generator with ``~`` routed through the environment (sized before it is built)."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.guarded_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class BudgetedTemplate(Template):
    """A template whose every render runs under a fresh :class:`Budget`, with errors as
    :class:`TemplateRenderError`."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        token = _BUDGET.set(Budget())
        try:
            chunks, size = [], 0
            for chunk in super().generate(*args, **kwargs):
                size += len(chunk)
                if size > MAX_OUTPUT_CHARS:
                    raise TemplateRenderError(f"the template's output is longer than {MAX_OUTPUT_CHARS:,} characters")
                tick()
                chunks.append(chunk)
            return "".join(chunks)
        except BlimpgenError:
            raise
        except RecursionError:
            raise TemplateRenderError("template budget exceeded: recursion too deep") from None
        except MemoryError:
            raise TemplateRenderError("template budget exceeded: out of memory") from None
        except (SecurityError, UndefinedError, TemplateError) as exc:
            # "'blimpgen.vocab.lexeme.Word object' has no attribute 'x'" -> "a Word has no attribute 'x'"
            message = re.sub(r"'(?:\w+\.)*(\w+) object'", r"a \1", exc.message or type(exc).__name__)
            raise TemplateRenderError(message) from exc
        except Exception as exc:  # a user template can make any filter or operator fail
            raise TemplateRenderError(describe(exc)) from exc
        finally:
            _BUDGET.reset(token)

    def generate(self, *args: Any, **kwargs: Any) -> Iterator[str]:
        """The whole render as one chunk (a budget covers one render, start to end)."""
        yield self.render(*args, **kwargs)


def describe(exc: Exception) -> str:
    """One line for an exception raised while rendering."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return text or type(exc).__name__


def _size_of(value: Any) -> int | None:
    return len(value) if isinstance(value, (str, list, tuple)) else None


def _mul_size(left: Any, right: Any) -> None:
    for seq, count in ((left, right), (right, left)):
        if _size_of(seq) is not None and isinstance(count, int):
            if len(seq) * max(count, 0) > MAX_VALUE_CHARS:
                raise TemplateRenderError(f"a value longer than {MAX_VALUE_CHARS:,} characters or items")
    if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > MAX_INT_BITS:
        raise TemplateRenderError(f"a number of more than {MAX_INT_BITS:,} bits")


def _pow_size(left: Any, right: Any) -> None:
    if (
        isinstance(left, int)
        and isinstance(right, int)
        and right > 0
        and max(left.bit_length(), 1) * right > MAX_INT_BITS
        and abs(left) > 1
    ):
        raise TemplateRenderError(f"a number of more than {MAX_INT_BITS:,} bits")


def _add_size(left: Any, right: Any) -> None:
    left_size, right_size = _size_of(left), _size_of(right)
    if left_size is not None and right_size is not None and left_size + right_size > MAX_VALUE_CHARS:
        raise TemplateRenderError(f"a value longer than {MAX_VALUE_CHARS:,} characters or items")


def _mod_check(left: Any, right: Any) -> None:
    if isinstance(left, str):
        raise TemplateRenderError("'%' formatting is not available in templates (it can build text of any size)")


PRECHECKS: dict[str, Callable[[Any, Any], None]] = {"*": _mul_size, "**": _pow_size, "+": _add_size, "%": _mod_check}


class TemplateEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox every template renders in (see the module docstring)."""

    code_generator_class = _BudgetCodeGenerator
    template_class = BudgetedTemplate
    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})
    intercepted_unops = frozenset({"-", "+"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.globals.clear()
        self.finalize = printable
        for name in list(self.filters):
            if name in KEPT_BUILTIN_FILTERS:
                self.filters[name] = guard_filter(name, self.filters[name])
            else:
                self.filters[name] = refusing_filter(name, WHY_NOT.get(name, SIZE_REASON))
        self.filters[LOOP_FILTER] = loop_step

    def add_filter(self, name: str, function: Callable[..., Any]) -> None:
        """Register one of blimpgen's filters (guarded like the built-in ones)."""
        self.filters[name] = guard_filter(name, function)

    # ------------------------------------------------------------------ lookups and calls

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        return not hidden(obj, attr) and super().is_safe_attribute(obj, attr, value)

    def getattr(self, obj: Any, attribute: str) -> Any:
        tick()
        if hidden(obj, attribute):
            raise not_available(attribute)
        return check_size(stable(super().getattr(obj, attribute)))

    def getitem(self, obj: Any, argument: Any) -> Any:
        tick()
        if hidden(obj, argument):
            raise not_available(argument)
        return check_size(stable(super().getitem(obj, argument)))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's form)
        tick()
        return check_size(stable(super().call(__context, __obj, *args, **kwargs)))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        tick()
        check = PRECHECKS.get(operator)
        if check is not None:
            check(left, right)
        return check_size(super().call_binop(context, operator, left, right))

    def call_unop(self, context: Any, operator: str, arg: Any) -> Any:
        tick()
        return super().call_unop(context, operator, arg)

    def guarded_concat(self, values: Iterable[Any]) -> str:
        """``a ~ b``: the joined text, refused before it is built when it would be too long."""
        tick()
        parts = [str(value) for value in values]
        if sum(map(len, parts)) > MAX_VALUE_CHARS:
            raise TemplateRenderError(f"a value longer than {MAX_VALUE_CHARS:,} characters or items")
        return "".join(parts)

    # ------------------------------------------------------------------ compiling

    def _generate(
        self, source: nodes.Template, name: str | None, filename: str | None, defer_init: bool = False
    ) -> str:
        for loop in list(source.find_all(nodes.For)):  # each iteration is a step
            loop.iter = nodes.Filter(loop.iter, LOOP_FILTER, [], [], None, None, lineno=loop.lineno)
        return super()._generate(source, name, filename, defer_init)
