"""Loading shipped and user specs; computed metadata; template analysis."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.grammar import load_shipped_specs, parse_spec
from blimpgen.grammar.templates import lexical_items, template_problems

SPEC = """uid: tiny
field: syntax
linguistics_term: binding
description: d
contrast: [a]
slots:
  a: {kind: word, where: "N"}
  b: {kind: word, where: "V"}
good: "{{ a }} {{ b }}."
bad: "{{ b }} {{ a }}."
"""


def test_loader_every_shipped_spec_loads() -> None:
    specs = load_shipped_specs()
    assert len(specs) >= 12
    for uid, loaded in specs.items():
        assert loaded.spec.uid == uid
        assert Path(loaded.file).stem == uid
        assert len(loaded.sha) == 12


def test_loader_reordering_is_lexically_identical() -> None:
    assert parse_spec(SPEC, "tiny.yaml").spec.lexically_identical() is True


@pytest.mark.parametrize(
    "good,bad,identical",
    [
        ("{{ a }} {{ b }}.", "{{ b }} {{ a }}.", True),
        ("{{ a }} {{ b }}.", "{{ a | flip('number') }} {{ b }}.", True),
        ("{{ a }} not {{ b }}.", "{{ a }} {{ b }} not.", True),
        ("{{ a }} {{ b }}.", "{{ a }} ever {{ b }}.", False),
        ("Even {{ a }} {{ b }}.", "Only {{ a }} {{ b }}.", False),
    ],
)
def test_loader_lexically_identical_is_computed(good: str, bad: str, identical: bool) -> None:
    assert (lexical_items(good) == lexical_items(bad)) is identical


def test_templates_problems_report_line_within_template() -> None:
    problems = template_problems("{{ a }}\n{{ a | nope }}", {"a"})
    assert problems == [(2, "unknown filter 'nope'")]


def test_templates_sandbox_blocks_python_internals() -> None:
    from blimpgen.grammar.templates import TemplateRenderError, make_environment

    env = make_environment()
    with pytest.raises(TemplateRenderError, match="unsafe"):
        env.from_string("{{ a.__class__.__mro__ }}").render(a="x")
    with pytest.raises(TemplateRenderError, match="'.format' is not available"):
        env.from_string("{{ a.format.__globals__ }}").render(a="x")


def test_loader_reports_template_problems_alongside_structural_errors() -> None:
    from blimpgen.errors import SpecErrors

    text = SPEC.replace("description: d", "descripton: d").replace('bad: "{{ b }} {{ a }}."', 'bad: "{{ b }} {{ c }}."')
    with pytest.raises(SpecErrors) as info:
        parse_spec(text, "tiny.yaml")
    messages = str(info.value)
    assert "tiny.yaml:4: descripton: unknown key 'descripton'" in messages
    assert "tiny.yaml:10: bad: undeclared template variable 'c'" in messages
