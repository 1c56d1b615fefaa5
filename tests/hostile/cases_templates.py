"""Templates (T) of the reliability report through ``check`` and ``gen``, and own inputs that
render through the sandbox directly (the budget and immutability hold at render time, not only
because the static checks refuse these templates at load).
"""

from __future__ import annotations

from pathlib import Path

from tests.hostile.cases_spec import spec_case
from tests.hostile.corpus import Case, Error, Ok, cli, py
from tests.hostile.prerequisites import GOOD, base, tpl


def t_case(id: str, x: str, expect: Error | Ok, what: str = "", finding: str = "", deferred: str = "") -> Case:
    uid = "t_" + id.lower()
    return spec_case(
        id,
        uid,
        tpl(uid, x),
        expect,
        what or f"template prefix {x!r}",
        finding=finding,
        surface="template",
        deferred=deferred,
    )


def good_error(message: str) -> Error:
    """The error of a template written before the good template's first slot (line 14 of BASE)."""
    return Error(f":14: good: {message}", located=True)


FOR8 = "".join(f"{{% for a{i} in '{'x' * 40}' %}}" for i in range(8)) + "y" + "{% endfor %}" * 8
FOR8_SILENT = FOR8.replace("y", "")
SETS = "{% set s = 'x' %}" + "{% set s = s ~ s %}" * 31 + "{{ s|length }}"

TEMPLATE_CASES = [
    t_case("T01", "{{ ''.__class__.__mro__[1].__subclasses__() }}", good_error("attribute '__class__' is not allowed")),
    t_case("T02", "{{ cycler.__init__.__globals__ }}", good_error("attribute '__init__' is not allowed")),
    t_case("T03", "{% for i in range(10**9) %}{% endfor %}", good_error("")),
    t_case(
        "T04", FOR8, good_error("'for' is not allowed in templates"), "8 nested for over a 40-char string", finding="F4"
    ),
    t_case(
        "T05",
        "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
        good_error("'macro' is not allowed in templates"),
        "self-recursive macro",
        finding="F9",
    ),
    t_case(
        "T06",
        "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
        good_error("'macro' is not allowed in templates"),
        "macro calling itself twice, f(40)",
        finding="F4",
    ),
    t_case("T07", SETS, good_error("'set' is not allowed in templates"), "31 x {% set s = s ~ s %}", finding="F4"),
    t_case(
        "T08",
        "{{ 'x'|center(2000000000)|length }}",
        good_error("filter 'center' is not available in templates"),
        finding="F4",
    ),
    t_case(
        "T09",
        "{{ ('%02000000000d'|format(1))|length }}",
        good_error("filter 'format' is not available in templates"),
        finding="F4",
    ),
    t_case(
        "T10",
        "{{ [1]|batch(300000000, 0)|list|length }}",
        good_error("filter 'batch' is not available in templates"),
        finding="F4",
    ),
    t_case("T11", "{{ self }}", good_error("'self' is not available in templates"), finding="F24"),
    t_case(
        "T12",
        "{% block b %}{{ self.b() }}{% endblock %}",
        good_error("'block' is not allowed in templates"),
        finding="F9",
    ),
    t_case("T13", "{% include '/etc/' ~ 'passwd' %}", good_error("'include' is not allowed in templates")),
    t_case("T14", "{% from 'os' import system %}", good_error("'from ... import' is not allowed in templates")),
    t_case("T15", "{{ 1 / 0 }}", good_error("template error: division by zero"), finding="F9"),
    t_case("T16", "{{ 7 % 0 }}", good_error("template error: integer modulo by zero"), finding="F9"),
    t_case(
        "T17",
        "{{ 34|bucket(0) }}",
        good_error("template error: bucket(): the width must be a whole number above 0"),
        finding="F9",
    ),
    t_case(
        "T18",
        "{{ 99|ordinal }}",
        good_error("template error: ordinal(): only 0 to 9 have an ordinal here, not 99"),
        finding="F9",
    ),
    t_case("T19", "{{ noun|ordinal }}", good_error("template error: ordinal(): expected a whole number"), finding="F9"),
    t_case("T20", "{{ []|argmax }}", good_error("template error: argmax(): the list is empty"), finding="F9"),
    t_case(
        "T21",
        "{{ noun|flip }}",
        good_error("filter 'flip' takes 1 argument, the feature (e.g. flip('number')), not 0"),
        finding="F9",
    ),
    t_case("T22", "{{ noun|flip('colour') }}", good_error("")),
    t_case("T23", "{{ noun|form(number='xx', foo='bar') }}", good_error("")),
    t_case("T24", "{{ noun|rank('nofeature') }}", good_error("")),
    t_case(
        "T25",
        "{{ noun.nosuchfeature }}",
        good_error("template error: a Word has no attribute 'nosuchfeature'"),
        finding="F9",
    ),
    t_case(
        "T26",
        "{{ noun.features.clear() or '' }}",
        good_error("'.features' is not available in templates"),
        finding="F5",
    ),
    t_case(
        "T27",
        "{{ [noun]|map(attribute='__class__')|list }}",
        good_error("attribute '__class__' is not allowed"),
        finding="F24",
    ),
    t_case(
        "T28", "{{ ['a', 'b']|random }}", good_error("filter 'random' is not available in templates"), finding="F10"
    ),
    t_case(
        "T29", "{{ " + "7" * 5000 + " }}", good_error("number too long"), "a 5000-digit integer literal", finding="F9"
    ),
    t_case(
        "T30", "{{ '{0.__class__}'.format(noun) }}", good_error("'.format' is not available in templates"), finding="F9"
    ),
    t_case("T31", "{{ noun.lexeme.source }}", good_error("'.lexeme' is not available in templates"), finding="F24"),
    t_case(
        "T32", "{{ subj.parts.pop('det', '') }}", good_error("'.parts' is not available in templates"), finding="F5"
    ),
    t_case(
        "T33",
        "{{ noun|string|indent(1000000000, true)|length }}",
        good_error("filter 'indent' is not available in templates"),
        finding="F4",
    ),
    t_case(
        "T34", "{{ 'a b c'|wordwrap(0) }}", good_error("filter 'wordwrap' is not available in templates"), finding="F9"
    ),
    t_case(
        "T35", "{{ 'abc'|slice(0)|list }}", good_error("filter 'slice' is not available in templates"), finding="F9"
    ),
    t_case(
        "T36", "{{ 'abc'|truncate(-5) }}", good_error("filter 'truncate' is not available in templates"), finding="F9"
    ),
    spec_case(
        "T37",
        "t_rand",
        base(
            "t_rand",
            good="{{ 'Sadly Luckily'.split()|random }} " + GOOD,
            bad="{{ 'Sadly Luckily'.split()|random }} {{ subj }} {{ verb }} {{ dem }} {{ noun | flip('number') }}.",
        ).replace("contrast: [noun]", "contrast: [noun, Sadly, Luckily]"),
        good_error("filter 'random' is not available in templates"),
        "random filter in good and bad",
        finding="F10",
        surface="template",
    ),
]


def shipped_lexicon_untouched(ws: Path) -> None:
    """The lexicon every paradigm shares is unchanged, and the paradigm X01 broke still generates."""
    from blimpgen.generators import load_paradigms
    from blimpgen.generators.generate import generate
    from blimpgen.vocab.lexicon import load_lexicon

    this = load_lexicon().by_id["D:this:this"]
    assert this.features["number"] == "sg", this.features
    assert len(list(generate(load_paradigms(["determiner_noun_agreement_2"])[0], 20, 7))) == 20
    assert not any((ws / "E2").glob("*.jsonl")) if (ws / "E2").exists() else True


EVIL = base("aaa_evil", good="{{ dem.features.update({'number': 'pl'}) or '' }}" + GOOD)

TEMPLATE_CASES.append(
    Case(
        id="X01",
        surface="template",
        finding="F5",
        what="a paradigm whose template updates a shared lexicon word",
        files={"evil/aaa_evil.yaml": EVIL},
        expect=Error(
            ":14: good: '.features' is not available in templates", located=True, check=shipped_lexicon_untouched
        ),
        run=(
            cli("check", "evil"),
            cli("gen", "--all", "-n", "100", "--seed", "7", "--paradigm-path", "evil", "--out-dir", "E2", "--quiet"),
        ),
    )
)


# ----------------------------------------------------------------------------- runtime budget (own inputs)
# The static checks refuse every input above at load. These render through the sandbox directly,
# as a library caller (or a static check that missed something) would: the budget holds at render time.


def render(source: str, **values) -> str:
    from blimpgen.grammar.templates import make_environment
    from blimpgen.vocab.lexicon import load_lexicon

    return make_environment(load_lexicon()).from_string(source).render(**values)


def word(word_id: str = "N:cat:sg"):
    from blimpgen.vocab.lexicon import load_lexicon

    return load_lexicon().by_id[word_id]


def render_case(id: str, source: str, message: str, what: str, finding: str, values=None, check=None) -> Case:
    def run(ws: Path) -> str:
        return render(source, **(values() if values else {}))

    return Case(
        id=id,
        surface="template",
        what=what,
        finding=finding,
        run=(py(run, f"render {id}"),),
        expect=Error(message, check=check),
    )


def cat_unchanged(ws: Path) -> None:
    assert word().features["number"] == "sg" and word().get("animate") is True


RUNTIME_CASES = [
    render_case(
        "T38",
        "{{ w.features.update({'number': 'pl'}) or '' }}{{ w }}",
        "not available in templates",
        "sandbox bypassed: a word's features updated at render",
        "F5",
        lambda: {"w": word()},
        cat_unchanged,
    ),
    render_case(
        "T39",
        "{{ w.parts.pop('det', '') }}{{ w }}",
        "not available in templates",
        "sandbox bypassed: a phrase's parts popped at render",
        "F5",
        lambda: {"w": word()},
    ),
    render_case("T40", FOR8_SILENT, "template budget", "sandbox bypassed: 8 nested loops (40^8 steps)", "F4"),
    render_case("T41", SETS, "longer than", "sandbox bypassed: a string doubled 31 times", "F4"),
    render_case(
        "T42",
        "{{ 'x'" + "|replace('x', 'xxxxxxxxxx')" * 12 + " }}",
        "longer than",
        "sandbox bypassed: replace() multiplying a string 10^12 times",
        "F4",
    ),
    render_case(
        "T43",
        "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
        "template budget",
        "sandbox bypassed: 2^40 macro calls",
        "F4",
    ),
    render_case(
        "T44",
        "{{ '{:>2000000000}'.format(1) }}",
        "not available in templates",
        "sandbox bypassed: str.format with a 2 GB width",
        "F4",
    ),
    render_case("T45", "x" * 20_000, "longer than", "sandbox bypassed: a 20,000-character template", "F19"),
    render_case(
        "T46",
        "{{ 'x'|center(2000000000) }}",
        "not available in templates",
        "sandbox bypassed: center() with a 2 GB width",
        "F4",
    ),
    render_case(
        "T47", "{{ ['a', 'b']|random }}", "not available in templates", "sandbox bypassed: the random filter", "F10"
    ),
    render_case(
        "T48", "{{ w.get('nosuchfeature') }}", "printed None", "a template printing None", "F24", lambda: {"w": word()}
    ),
    render_case(
        "T49",
        "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
        "template budget",
        "sandbox bypassed: endless recursion",
        "F9",
    ),
    render_case(
        "T50",
        "{{ ('%02000000000d' % 1)|length }}",
        "not available in templates",
        "sandbox bypassed: %-formatting with a 2 GB width",
        "F4",
    ),
]
