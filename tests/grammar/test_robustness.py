"""The loader never crashes, and templates cannot reach Python internals or the filesystem.

A Hypothesis test mutates valid shipped specs (deleted keys, wrong types, garbage strings,
deep nesting, huge numbers, lists where mappings are expected...) and asserts that loading and
building answer with a :class:`BlimpgenError` or succeed, never with another exception.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from blimpgen._yaml import load_yaml_text
from blimpgen.errors import BlimpgenError, SpecErrors
from blimpgen.generators import build_paradigm
from blimpgen.grammar.loader import parse_spec
from blimpgen.grammar.templates import TemplateRenderError, make_environment

PARADIGMS = Path(__file__).resolve().parents[2] / "src" / "blimpgen" / "grammar" / "paradigms"
VALID = [p.read_text(encoding="utf-8") for p in sorted(PARADIGMS.rglob("*.yaml"))][:20]


def deep(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = {"a": [value]}
    return value


GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**20, max_value=10**400),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.sampled_from(
        [
            "{{",
            "}}",
            "{% if %}",
            "{{ x.__class__ }}",
            "N and (",
            "fits(",
            "takes(a,",
            "kind",
            "word",
            "{{ subj | flip('nope') }}",
            "\x07",
            "é" * 50,
            "a" * 2000,
        ]
    ),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.integers(min_value=10, max_value=120).map(deep),
)


def mutate(value: object, data: st.DataObject, depth: int = 0) -> object:
    """Walk to a random place in the document and delete, replace or wrap what is there."""
    if isinstance(value, dict) and value and depth < 6:
        key = data.draw(st.sampled_from(sorted(value, key=str)))
        action = data.draw(st.sampled_from(["delete", "replace", "descend", "descend", "add", "listify"]))
        if action == "delete":
            del value[key]
        elif action == "replace":
            value[key] = data.draw(GARBAGE)
        elif action == "add":
            garbage = data.draw(GARBAGE)  # drawn first, as the assignment's value always was
            value[data.draw(st.sampled_from(["kind", "slots", "extra", "good", "where", "branches"]))] = garbage
        elif action == "listify":
            value[key] = [value[key]]
        else:
            value[key] = mutate(value[key], data, depth + 1)
        return value
    if isinstance(value, list) and value and depth < 6:
        index = data.draw(st.integers(0, len(value) - 1))
        value[index] = mutate(value[index], data, depth + 1) if data.draw(st.booleans()) else data.draw(GARBAGE)
        return value
    return data.draw(GARBAGE)


@given(data=st.data())
def test_robustness_mutated_specs_raise_only_blimpgen_errors(data: st.DataObject, mini_lexicon) -> None:
    raw = copy.deepcopy(yaml.safe_load(data.draw(st.sampled_from(VALID))))
    for _ in range(data.draw(st.integers(1, 3))):
        raw = mutate(raw, data)
    try:
        text = yaml.safe_dump(raw, width=10**6)
    except (yaml.YAMLError, RecursionError, ValueError):
        return  # not every Python value can be written as YAML
    try:
        build_paradigm(parse_spec(text, "mutant.yaml"), mini_lexicon)
    except BlimpgenError as exc:
        assert str(exc).startswith("mutant.yaml"), str(exc)


@given(text=st.text(max_size=300))
def test_robustness_garbage_text_raises_only_blimpgen_errors(text: str) -> None:
    try:
        parse_spec(text, "garbage.yaml")
    except BlimpgenError:
        pass


@pytest.mark.parametrize("text,line", [("a: 1\nb: \x00\n", 2), ("a: " + "9" * 5000 + "\n", 1)])
def test_robustness_reader_errors_are_located(text: str, line: int) -> None:
    with pytest.raises(BlimpgenError) as info:
        load_yaml_text(text, "f.yaml")
    assert str(info.value).startswith(f"f.yaml:{line}: YAML error")


# ----------------------------------------------------------------------------- sandbox

ESCAPES = [
    "{{ x.__class__ }}",
    "{{ x.__class__.__mro__[1].__subclasses__() }}",
    "{{ f.__globals__ }}",
    "{{ f.__code__ }}",
    "{{ x|attr('__class__') }}",
    "{{ x['__class__'] }}",
    "{{ w.__init__.__globals__ }}",
    "{{ f.__builtins__ }}",
]


@pytest.mark.parametrize("source", ESCAPES)
def test_robustness_sandbox_blocks_python_internals(source: str) -> None:
    env = make_environment(None)
    with pytest.raises(TemplateRenderError, match="unsafe|not available"):
        env.from_string(source).render(x="a", f=lambda: 0, w=object())


@pytest.mark.parametrize(
    "source",
    [
        "{% include '/etc/passwd' %}",
        "{% import 'os' as os %}",
        "{% extends '/etc/passwd' %}",
        "{% from 'os' import system %}",
    ],
)
def test_robustness_sandbox_reads_no_files(source: str) -> None:
    env = make_environment(None)
    with pytest.raises(TemplateRenderError):  # no loader: nothing can be read
        env.from_string(source).render()


@pytest.mark.parametrize("source", ["{{ open }}", "{{ __import__ }}", "{{ os }}", "{{ config }}", "{{ request }}"])
def test_robustness_sandbox_has_no_builtins(source: str) -> None:
    with pytest.raises(TemplateRenderError):
        make_environment(None).from_string(source).render()


@pytest.mark.parametrize(
    "template,message",
    [
        ("{{ noun.__class__ }}", "attribute '__class__' is not allowed"),
        ("{{ noun.flip.__globals__ }}", "attribute '__globals__' is not allowed"),
        ("{{ noun['__dict__'] }}", "attribute '__dict__' is not allowed"),
        ("{{ noun | attr('__class__') }}", "the attr filter is not allowed"),
        ("{% include '/etc/passwd' %}{{ noun }}", "'include' is not allowed"),
        ("{% import 'os' as os %}{{ noun }}", "'import' is not allowed"),
        ("{% extends 'base' %}{{ noun }}", "'extends' is not allowed"),
        ("{{ 9 ** 9 ** 9 }}{{ noun }}", "arithmetic"),
        ("{{ range(99) }}{{ noun }}", "'range' is not available"),
        ("{{ cycler }}{{ noun }}", "'cycler' is not available"),
    ],
)
def test_robustness_loader_rejects_escapes_with_the_line(template: str, message: str) -> None:
    text = (
        f"uid: x\nfield: syntax\nlinguistics_term: t\ndescription: d\ncontrast: [noun]\n"
        f"slots:\n  noun: {{kind: word, where: N}}\ngood: {template!r}\nbad: '{{{{ noun }}}}s'\n"
    )
    with pytest.raises(SpecErrors) as info:
        parse_spec(text, "x.yaml")
    assert f"x.yaml:8: good: {message}" in str(info.value)


def test_robustness_inline_if_without_else_prints_nothing_but_unknown_names_fail() -> None:
    env = make_environment(None)
    assert env.from_string("a{{ 'b' if x == 1 }}c").render(x=2) == "ac"  # Jinja: an empty else
    assert env.from_string("a{{ 'b' if x == 1 }}c").render(x=1) == "abc"
    with pytest.raises(Exception, match="undefined"):
        env.from_string("a{{ y }}c").render(x=1)
