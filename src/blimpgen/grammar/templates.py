"""The one Jinja2 environment paradigm templates run in, and static checks on templates.

Templates are user-authored input, so they run in ``SandboxedEnvironment`` with
``StrictUndefined`` (a misspelt variable is an error, never an empty string). Filters:

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

import re
from collections import Counter
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateSyntaxError, meta, nodes
from jinja2.sandbox import SandboxedEnvironment

from blimpgen.errors import BlimpgenError, did_you_mean
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


def argmax(values: Any) -> int:
    """Index of the (first) largest item."""
    values = list(values)
    return max(range(len(values)), key=values.__getitem__)


def argmin(values: Any) -> int:
    """Index of the (first) smallest item."""
    values = list(values)
    return min(range(len(values)), key=values.__getitem__)


def ordinal(index: Any) -> str:
    """0 -> first, 1 -> second, ..."""
    return ORDINALS[int(index)]


def bucket(value: Any, width: int = 10) -> str:
    """The band of ``width`` the number falls in: 34 -> "30-39"."""
    low = int(value) - int(value) % int(width)
    return f"{low}-{low + int(width) - 1}"


def make_environment(lexicon: Any = None) -> SandboxedEnvironment:
    """A sandboxed environment whose filters can reach ``lexicon`` for other word forms."""
    env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.filters["flip"] = lambda value, feature: flip(value, feature, lexicon)
    env.filters["form"] = lambda value, **changes: form(value, lexicon, **changes)
    env.filters["a_an"] = a_an
    env.filters["det_for"] = det_for
    env.filters["possessive"] = possessive
    env.filters["cap"] = cap
    env.filters["article"] = article
    env.filters["rank"] = lambda value, feature: rank(value, feature, lexicon)
    env.filters["argmax"] = argmax
    env.filters["argmin"] = argmin
    env.filters["ordinal"] = ordinal
    env.filters["bucket"] = bucket
    return env


def render(template: Template, bindings: dict[str, Any]) -> str:
    """``template.render(bindings)``, a third faster: the compiled root function run on a
    context that reads ``bindings`` itself (templates name only slots, never Jinja's globals:
    :func:`template_problems` refuses them), without the copy and the error wrapping.

    Raises:
        RenderDeadEnd: when a filter finds no form. Any other error is raised by rendering
            again through ``template.render``, for Jinja's report of the template line.
    """
    try:
        return "".join(template.root_render_func(template.new_context(bindings, shared=True)))
    except RenderDeadEnd:
        raise
    except Exception:
        return template.render(bindings)


@lru_cache(maxsize=1)
def _check_env() -> SandboxedEnvironment:
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
    control = next((c for c in source if ord(c) < 32 and c not in "\n\t"), None)
    if control is not None:
        return [(1, f"control character {control!r} in template")]
    try:
        ast = _parse(source)
    except TemplateSyntaxError as exc:
        return [(exc.lineno or 1, f"template syntax error: {exc.message}")]
    problems = [(node.lineno, f"unknown filter {node.name!r}{did_you_mean(node.name, env.filters)}")
                for node in ast.find_all(nodes.Filter) if node.name not in env.filters]
    problems += [(node.lineno, f"unknown test {node.name!r}{did_you_mean(node.name, env.tests)}")
                 for node in ast.find_all(nodes.Test) if node.name not in env.tests]
    if problems:
        return problems
    problems = _unsafe_constructs(ast, env, slots)
    if problems:
        return problems
    for name in sorted(_undeclared(source) - slots):
        problems.append((1, f"undeclared template variable {name!r}{did_you_mean(name, slots)}"))
    return problems


def _unsafe_constructs(ast: nodes.Template, env: SandboxedEnvironment, slots: set[str]) -> list[tuple[int, str]]:
    """Template constructs the sandbox would only refuse (or choke on) at render time.

    Rejected at load so that a shared paradigm pack fails ``check`` with a line instead of
    ``gen`` with a traceback: private attributes (``x.__class__``), ``include``/``import``/
    ``extends`` (there is no template loader: no file can be read), ``*``/``**`` (a template
    computing ``10**10**10`` would hang the generator) and Jinja's globals (``range``,
    ``lipsum``, ``cycler``...), which ``find_undeclared_variables`` does not report.
    """
    problems: list[tuple[int, str]] = []
    env = _check_env()
    for node in ast.find_all(nodes.Node):
        name = None
        if isinstance(node, nodes.Name) and node.name in env.globals and node.name not in slots:
            problems.append((node.lineno, f"{node.name!r} is not available in templates (only the slots "
                                          f"{', '.join(sorted(slots))} are)"))
        if isinstance(node, nodes.Getattr):
            name = node.attr
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const):
            name = str(node.arg.value)
        elif isinstance(node, nodes.Filter) and node.name == "attr":
            problems.append((node.lineno, "the attr filter is not allowed in templates; write slot.part"))
        if name is not None and name.startswith("_"):
            problems.append((node.lineno, f"attribute {name!r} is not allowed in templates"))
        elif isinstance(node, (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)):
            problems.append((node.lineno, f"'{type(node).__name__.lower()}' is not allowed in templates "
                                          f"(a paradigm is one self-contained file)"))
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
