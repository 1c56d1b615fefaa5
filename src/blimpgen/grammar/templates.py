"""The one Jinja2 environment paradigm templates run in, its filters, and static checks on templates.

Templates are user-authored input, so they run in the sandbox of :mod:`blimpgen.grammar.sandbox`
(immutable, with a step, size and time budget per render, no random or unbounded filters) with
``StrictUndefined`` (a misspelt variable is an error, never an empty string). A template is
text with ``{{ expressions }}`` and ``{% if %}`` blocks; loops, macros, ``set``, blocks and
imports are refused when the file loads (:func:`template_problems`), and the sandbox's budget
holds at render time whatever the static checks miss. Filters:

``flip(feature)``     the same word in the other value of ``feature`` (cat -> cats, is -> are)
``form(**changes)``   the same word with some features changed (``form(vform='en')``)
``a_an``              prefix the indefinite article (``an apple``)
``det_for(noun)``     a determiner as written before ``noun`` (``a`` -> ``an`` before apple)
``possessive``        the possessive of a noun phrase (the boy's, the boys', the children's)
``cap``               capitalise the first letter

For probe suites (answers computed from sampled values):

``article``           the indefinite article alone for a word (``a`` / ``an``)
``rank(feature)``     position of a word's value in the feature's declared order (size: tiny=0 ... huge=4)
``argmax`` ``argmin`` index of the largest / smallest number in a list
``ordinal``           0 -> first, 1 -> second, ... (an index, as ``argmax`` gives)
``bucket(width)``     the band of ``width`` a number falls in (34 | bucket(10) -> "30-39")
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, TemplateSyntaxError, meta, nodes

from blimpgen._io import describe_character, odd_character
from blimpgen.errors import BlimpgenError, did_you_mean
from blimpgen.grammar.sandbox import (
    HIDDEN_ATTRIBUTES,
    HIDDEN_STR_METHODS,
    JINJA_GLOBALS,
    KEPT_BUILTIN_FILTERS,
    LOOP_FILTER,
    SIZE_REASON,
    WHY_NOT,
    TemplateEnvironment,
    TemplateRenderError,
)
from blimpgen.vocab import morphology
from blimpgen.vocab.lexeme import Word

WORD_RE = re.compile(r"[A-Za-z0-9']+")


class RenderDeadEnd(BlimpgenError):
    """A template asked for a form the lexicon does not have (e.g. flip on a mass noun).

    The generator treats this as a dead end and samples again; it counts them per template.
    """


def flip(value: Any, feature: str, lexicon: Any = None) -> Any:
    """The same word with the other value of ``feature``; phrases flip their agreeing word."""
    if isinstance(value, Word):
        other = lexicon.other_form(value, **{feature: "*other*"}) if lexicon is not None else None
        if other is None:
            raise RenderDeadEnd(f"{value.id} has no form with another {feature}")
        return other
    method = getattr(value, "flip", None)
    if method is None:
        raise RenderDeadEnd(f"cannot flip {feature} of {value!r}")
    return method(feature, lexicon)


def form(value: Any, lexicon: Any = None, **changes: str) -> Any:
    """The same word with some form features changed (``form(vform='en')``)."""
    if isinstance(value, Word):
        if all(value.get(k) == v for k, v in changes.items()):
            return value
        other = lexicon.other_form(value, **changes) if lexicon is not None else None
        if other is None:
            # A word that does not mark a feature (a modal's or a past "had"'s number) fits any
            # value of it: keep only the changes to features it has.
            marked = {k: v for k, v in changes.items() if value.get(k) is not None}
            if all(value.get(k) == v for k, v in marked.items()):
                return value
            other = lexicon.other_form(value, **marked) if lexicon is not None and marked else None
        if other is None:
            raise RenderDeadEnd(f"{value.id} has no form {changes}")
        return other
    if isinstance(value, str) and not str(value):
        return value  # an empty part (no auxiliary) has no form to change
    method = getattr(value, "form", None)
    if method is None or not callable(method):
        raise RenderDeadEnd(f"cannot change the form of {value!r}")
    return method(lexicon, **changes)


def possessive(value: Any) -> str:
    """The possessive of a noun phrase: the boy's, the boys', the children's, James's."""
    text = str(value).strip()
    head = value.get("number") if hasattr(value, "get") else None
    if head == "pl" and text.endswith("s"):
        return text + "'"
    return text + "'s"


def a_an(value: Any) -> str:
    """Prefix the indefinite article chosen by the value's first word."""
    text = str(value).strip()
    return morphology.with_article(text) if text else text


def det_for(det: Any, noun: Any) -> str:
    """A determiner as written before ``noun``: the article becomes a/an by the noun's sound."""
    if isinstance(det, Word) and det.get("article"):
        return morphology.indefinite_article(str(noun).strip())
    return str(det)


def cap(value: Any) -> str:
    """Capitalise the first character."""
    text = str(value)
    return text[:1].upper() + text[1:]


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def article(value: Any) -> str:
    """The indefinite article for a word or a number: ``a`` or ``an`` (an 8, an 11, an 18, an 80)."""
    text = str(value).strip()
    if text.isdigit():
        digits = text.lstrip("0") or "0"
        return "an" if digits[0] == "8" or (len(digits) % 3 == 2 and digits[:2] in ("11", "18")) else "a"
    return morphology.indefinite_article(text) if text else "a"


def rank(value: Any, feature: str, lexicon: Any = None) -> int:
    """Position of the value's ``feature`` in the inventory's declared order of values."""
    if lexicon is None:
        raise RenderDeadEnd("rank needs the lexicon")
    declared = lexicon.inventory.features.get(feature)
    found = value.get(feature) if hasattr(value, "get") else None
    if declared is None or found is None or found not in (declared.values or ()):
        raise RenderDeadEnd(f"{value!r} has no {feature} to rank")
    return list(declared.values).index(found)


def _whole_number(name: str, value: Any, what: str = "a whole number") -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TemplateRenderError(f"{name}(): expected {what}, got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise TemplateRenderError(f"{name}(): expected {what}, got {value!r}") from None
    return number


def _numbers(name: str, values: Any) -> list[Any]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TemplateRenderError(f"{name}(): expected a list of numbers, got {values!r}")
    items = list(values)
    if not items:
        raise TemplateRenderError(f"{name}(): the list is empty")
    return items


def argmax(values: Any) -> int:
    """Index of the (first) largest item."""
    values = _numbers("argmax", values)
    return max(range(len(values)), key=values.__getitem__)


def argmin(values: Any) -> int:
    """Index of the (first) smallest item."""
    values = _numbers("argmin", values)
    return min(range(len(values)), key=values.__getitem__)


def ordinal(index: Any) -> str:
    """0 -> first, 1 -> second, ..."""
    number = _whole_number("ordinal", index)
    if not 0 <= number < len(ORDINALS):
        raise TemplateRenderError(f"ordinal(): only 0 to {len(ORDINALS) - 1} have an ordinal here, not {number}")
    return ORDINALS[number]


def bucket(value: Any, width: int = 10) -> str:
    """The band of ``width`` the number falls in: 34 -> "30-39"."""
    number, width = _whole_number("bucket", value), _whole_number("bucket", width, "a whole-number width")
    if width <= 0:
        raise TemplateRenderError(f"bucket(): the width must be a whole number above 0, not {width}")
    low = number - number % width
    return f"{low}-{low + width - 1}"


# Arguments our filters take after the value, for the load-time check: (positional, example).
FILTER_ARGUMENTS = {
    "flip": ("feature", "flip('number')"),
    "rank": ("feature", "rank('size')"),
    "det_for": ("noun", "det_for(noun)"),
}
MAX_TEMPLATE_CHARS = 10_000


def make_environment(lexicon: Any = None) -> TemplateEnvironment:
    """The sandbox (see :mod:`blimpgen.grammar.sandbox`) with filters that reach ``lexicon`` for other forms."""
    env = TemplateEnvironment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)

    def flip_filter(value: Any, feature: str) -> Any:
        return flip(value, feature, lexicon)

    def form_filter(value: Any, **changes: str) -> Any:
        return form(value, lexicon, **changes)

    def rank_filter(value: Any, feature: str) -> int:
        return rank(value, feature, lexicon)

    for name, function in (
        ("flip", flip_filter),
        ("form", form_filter),
        ("a_an", a_an),
        ("det_for", det_for),
        ("possessive", possessive),
        ("cap", cap),
        ("article", article),
        ("rank", rank_filter),
        ("argmax", argmax),
        ("argmin", argmin),
        ("ordinal", ordinal),
        ("bucket", bucket),
    ):
        env.add_filter(name, function)
    return env


@lru_cache(maxsize=1)
def _check_env() -> TemplateEnvironment:
    return make_environment(None)


# Every template is parsed for its problems, its variables and its lexical items, while specs load
# and again when paradigms are built: once per text is enough (the trees are only read).
@lru_cache(maxsize=4096)
def _parse(source: str) -> nodes.Template:
    return _check_env().parse(source)


@lru_cache(maxsize=4096)
def _undeclared(source: str) -> frozenset[str]:
    return frozenset(meta.find_undeclared_variables(_parse(source)))


def template_problems(source: str, slots: set[str]) -> list[tuple[int, str]]:
    """Syntax errors and undeclared variables in one template: ``[(template_line, message)]``."""
    env = _check_env()
    if len(source) > MAX_TEMPLATE_CHARS:
        return [(1, f"the template is {len(source):,} characters long; a template is at most {MAX_TEMPLATE_CHARS:,}")]
    odd = odd_character(source, allowed="\n\t")
    if odd is not None:
        return [(source.count("\n", 0, source.index(odd)) + 1, f"{describe_character(odd)} in template")]
    try:
        ast = _parse(source)
    except TemplateSyntaxError as exc:
        return [(exc.lineno or 1, f"template syntax error: {exc.message}")]
    except ValueError as exc:  # Python refuses integer literals of more than 4300 digits
        return [(1, f"number too long ({str(exc).split(':')[0]})")]
    except RecursionError:
        return [(1, "template nesting is too deep")]
    problems = [
        (node.lineno, _filter_problem(node.name, env))
        for node in ast.find_all(nodes.Filter)
        if node.name not in env.filters or node.name not in _USABLE_FILTERS
    ]
    problems += [
        (node.lineno, f"unknown test {node.name!r}{did_you_mean(node.name, env.tests)}")
        for node in ast.find_all(nodes.Test)
        if node.name not in env.tests
    ]
    if problems:
        return problems
    problems = _unsafe_constructs(ast, slots) + _filter_arity(ast, env)
    if problems:
        return problems
    for name in sorted(_undeclared(source) - slots):
        problems.append((1, f"undeclared template variable {name!r}{did_you_mean(name, slots)}"))
    return problems


OUR_FILTERS = (
    "flip",
    "form",
    "a_an",
    "det_for",
    "possessive",
    "cap",
    "article",
    "rank",
    "argmax",
    "argmin",
    "ordinal",
    "bucket",
)
_USABLE_FILTERS = frozenset(OUR_FILTERS + KEPT_BUILTIN_FILTERS)


def _filter_problem(name: str, env: TemplateEnvironment) -> str:
    if name == "attr":
        return "the attr filter is not allowed in templates; write slot.part"
    if name in env.filters and name != LOOP_FILTER:
        return f"filter {name!r} is not available in templates ({WHY_NOT.get(name, SIZE_REASON)})"
    return f"unknown filter {name!r}{did_you_mean(name, _USABLE_FILTERS)}"


def _filter_arity(ast: nodes.Template, env: TemplateEnvironment) -> list[tuple[int, str]]:
    """Filters given the wrong arguments (``noun | flip`` without the feature), found at load."""
    problems = []
    for node in ast.find_all(nodes.Filter):
        if node.dyn_args is not None or node.dyn_kwargs is not None or node.name not in OUR_FILTERS:
            continue
        function = getattr(env.filters[node.name], "__wrapped__", env.filters[node.name])
        try:
            inspect.signature(function).bind(None, *node.args, **{str(kw.key): kw.value for kw in node.kwargs})
        except TypeError as exc:
            expected, example = FILTER_ARGUMENTS.get(node.name, (None, None))
            if expected is not None:
                message = (
                    f"filter {node.name!r} takes 1 argument, the {expected} (e.g. {example}), "
                    f"not {len(node.args) + len(node.kwargs)}"
                )
            else:
                message = f"filter {node.name!r}: {exc}"
            problems.append((node.lineno, message))
    return problems


# Statements a template may hold: text and {{ }} are Output nodes; {% if %} is If.
ALLOWED_STATEMENTS = (nodes.Output, nodes.If)
STATEMENT_NAMES: dict[type[nodes.Node], str] = {
    nodes.For: "for",
    nodes.Macro: "macro",
    nodes.CallBlock: "call",
    nodes.FilterBlock: "filter",
    nodes.Block: "block",
    nodes.Assign: "set",
    nodes.AssignBlock: "set",
    nodes.With: "with",
    nodes.Scope: "scope",
    nodes.ExprStmt: "do",
}
FILE_STATEMENTS: dict[type[nodes.Node], str] = {
    nodes.Include: "include",
    nodes.Import: "import",
    nodes.FromImport: "from ... import",
    nodes.Extends: "extends",
}


def _unsafe_constructs(ast: nodes.Template, slots: set[str]) -> list[tuple[int, str]]:
    """Template constructs that have no place in a sentence template or that the sandbox refuses.

    Rejected at load so that a shared paradigm pack fails ``check`` with a line instead of
    ``gen`` at render time: statements other than ``{% if %}`` (loops, macros, ``set``, blocks:
    a template writes one sentence), private and internal attributes (``x.__class__``,
    ``noun.lexeme``, ``str.format``), ``include``/``import``/``extends`` (there is no template
    loader: no file can be read), ``*``/``**`` and ``self`` and Jinja's globals (``range``,
    ``lipsum``...), which ``find_undeclared_variables`` does not report. The sandbox's budget
    holds at render time regardless (see :mod:`blimpgen.grammar.sandbox`).
    """
    problems: list[tuple[int, str]] = []
    for node in ast.find_all(nodes.Node):
        name = None
        if (
            isinstance(node, nodes.Name)
            and node.name not in slots
            and (node.name in JINJA_GLOBALS or node.name == "self")
        ):
            problems.append(
                (
                    node.lineno,
                    f"{node.name!r} is not available in templates (only the slots {', '.join(sorted(slots))} are)",
                )
            )
        if isinstance(node, nodes.Getattr):
            name = node.attr
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const):
            name = str(node.arg.value)
        elif isinstance(node, nodes.Keyword) and node.key == "attribute" and isinstance(node.value, nodes.Const):
            name = next((part for part in str(node.value.value).split(".") if part.startswith("_")), None)
        if name is not None and name.startswith("_"):
            problems.append((node.lineno, f"attribute {name!r} is not allowed in templates"))
        elif name in HIDDEN_ATTRIBUTES or name in HIDDEN_STR_METHODS:
            problems.append(
                (node.lineno, f"'.{name}' is not available in templates (write slot.feature, slot.part or slot.text)")
            )
        elif type(node) in FILE_STATEMENTS:
            problems.append(
                (
                    node.lineno,
                    f"'{FILE_STATEMENTS[type(node)]}' is not allowed in templates "
                    f"(a paradigm is one self-contained file)",
                )
            )
        elif isinstance(node, nodes.Stmt) and not isinstance(node, ALLOWED_STATEMENTS):
            keyword = STATEMENT_NAMES.get(type(node), type(node).__name__.lower())
            problems.append(
                (
                    node.lineno,
                    f"'{keyword}' is not allowed in templates (a template is text with "
                    "{{ expressions }} and {% if %})",
                )
            )
        elif isinstance(node, (nodes.Pow, nodes.Mul)):
            problems.append((node.lineno, "arithmetic ('*', '**') is not allowed in templates"))
    return problems


def used_variables(source: str) -> set[str]:
    """Slot names a template refers to."""
    return set(_undeclared(source))


def lexical_items(source: str, split_slots: frozenset[str] = frozenset()) -> tuple[frozenset[str], Counter[str]]:
    """The lexical material a template outputs: the set of slots used and its literal words.

    ``{{ noun | flip('number') }}`` and ``{{ noun }}`` both use slot ``noun``, and
    ``{{ vg }}`` uses the same slot as ``{{ vg.aux }} ... {{ vg.verb }}``; so two templates with
    equal results use the same lexemes up to inflection and order (BLiMP's
    ``lexically_identical``, computed rather than declared). Slots in ``split_slots`` hold
    alternative words under attribute names (linked choices), so ``{{ q.good }}`` and
    ``{{ q.bad }}`` count as different items.
    """
    slots: set[str] = set()
    words: Counter[str] = Counter()
    ast = _parse(source)
    for output in ast.find_all(nodes.Output):
        for child in output.nodes:
            if isinstance(child, nodes.TemplateData):
                words.update(w.lower() for w in WORD_RE.findall(child.data))
                continue
            root: nodes.Expr | None = child
            attribute = None
            while isinstance(root, (nodes.Filter, nodes.Getattr, nodes.Getitem, nodes.Call)):
                if isinstance(root, nodes.Getattr):
                    attribute = root.attr
                root = root.node
            if isinstance(root, nodes.Name):
                split = root.name in split_slots and attribute is not None
                slots.add(f"{root.name}.{attribute}" if split else root.name)
            elif isinstance(root, nodes.Const):
                words.update(w.lower() for w in WORD_RE.findall(str(root.value)))
    return frozenset(slots), words
