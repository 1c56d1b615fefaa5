"""The plausibility audit: links read off slots, events counted per class, evidence, the CLI."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from blimpgen.authoring.plausibility import (
    Evidence,
    Link,
    PlausibilityResult,
    agency,
    audit_plausibility,
    label,
    render_markdown,
    render_text,
    slot_links,
)
from blimpgen.cli import main
from blimpgen.errors import BlimpgenError
from blimpgen.generators.generate import load_paradigms
from blimpgen.vocab import load_lexicon


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue()


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


def noun(lexicon, lemma: str, category: str = "N"):
    return next(w for w in lexicon.category(category) if w.lemma == lemma)


@pytest.mark.parametrize(
    ("lemma", "category", "expected"),
    [
        ("teacher", "N", "person"),
        ("baby", "N", "person:baby"),
        ("toddler", "N", "person:baby"),
        ("girl", "N", "person:child"),
        ("teenager", "N", "person:teen"),
        ("Mary", "PN", "name"),
        ("dog", "N", "animal:pet"),
        ("cow", "N", "animal:farm"),
        ("eagle", "N", "animal:bird"),
        ("storm", "N", "event:disaster"),
        ("hammer", "N", "tool"),
        ("cod", "N", "animal:fish"),
    ],
)
def test_plausibility_label_names_the_class(lexicon, lemma: str, category: str, expected: str) -> None:
    assert label(noun(lexicon, lemma, category)) == expected


def test_plausibility_agency_orders_things_before_people() -> None:
    assert agency("tool") < agency("animal:pet") < agency("event:disaster") < agency("group") < agency("person")
    assert agency("person:baby") == agency("animal:wild") and agency("name") == agency("person")


def test_plausibility_links_come_from_slot_parameters() -> None:
    (paradigm,) = load_paradigms(["determiner_noun_agreement_with_adj_2"])
    links, adjective_first = slot_links(paradigm)  # one link set per branch
    assert Link("verb", "arg1", "subj") in links  # verb_group subject
    assert Link("verb", "arg2", "noun") in links  # fits(verb.arg2)
    assert Link("adj", "arg1", "noun") in links  # takes(arg1, noun)
    assert Link("adj", "arg1", "noun") in adjective_first  # fits(adj.arg1), drawn the other way round
    (negated,) = slot_links(load_paradigms(["animate_subject_trans"])[0])
    assert not [link for link in negated if link.argument == "inanimate"]  # not fits(verb.arg1) is no link
    (contrast,) = slot_links(load_paradigms(["transitive"])[0])
    assert not [link for link in contrast if link.predicate == "wrong"]  # printed only in the bad sentence


def test_plausibility_audit_counts_every_event(lexicon) -> None:
    (paradigm,) = load_paradigms(["regular_plural_subject_verb_agreement_1"])
    result = audit_plausibility(paradigm, 40, 3)
    assert result.pairs == 40 and not result.error
    assert sum(result.combinations.values()) == 40  # one verb with subject and object per pair
    for (_predicate, arg1, arg2, arg3), _ in result.combinations.items():
        assert arg1 != "-" and arg2 != "-" and arg3 == "-"
    assert result.predicates.total() == 40
    again = audit_plausibility(paradigm, 40, 3)
    assert render_text([again]) == render_text([result])  # same seed, same report


def test_plausibility_audit_follows_nested_clauses() -> None:
    (paradigm,) = load_paradigms(["expletive_it_object_raising"])
    result = audit_plausibility(paradigm, 20, 0)
    assert sum(result.combinations.values()) > result.pairs  # the embedded clause's verb counts too


def test_plausibility_ranking_puts_unattested_and_unlikely_agents_first() -> None:
    result = PlausibilityResult("u", 10)
    result.combinations.update(
        {("eat", "person", "food", "-"): 5, ("eat", "tool", "food", "-"): 1, ("read", "person", "food", "-"): 1}
    )
    order = [key for key, _, _ in result.ranked()]
    assert order[0] == ("eat", "tool", "food", "-") and order[1] == ("eat", "person", "food", "-")
    evidence = Evidence({("read", "arg2", "*"): 9, ("read", "arg2", "document"): 9})
    first, count, unattested = result.ranked(evidence)[0]
    assert first == ("read", "person", "food", "-") and unattested == ["arg2"]
    assert evidence.attested("eat", "arg2", "food") is None  # too rare to judge


def test_plausibility_evidence_file(tmp_path: Path) -> None:
    path = tmp_path / "evidence.tsv"
    path.write_text("# counts\neat\targ2\t*\t10\neat\targ2\tfood\t7\neat\targ2\tanimal\t2\n")
    evidence = Evidence.read(path)
    assert evidence.attested("eat", "arg2", "food") == 7
    assert evidence.attested("eat", "arg2", "animal:pet") == 2  # a sublabel counts its class
    assert evidence.attested("eat", "arg2", "tool") == 0
    path.write_text("see\targ1\t*\t9\nsee\targ1\tperson\t4\n")
    assert Evidence.read(path).attested("see", "arg1", "name") == 4  # a first name counts as a person
    path.write_text("eat\targ9\tfood\t7\n")
    with pytest.raises(BlimpgenError, match="evidence.tsv:1: expected"):
        Evidence.read(path)


def test_plausibility_markdown_has_one_row_per_paradigm() -> None:
    results = [audit_plausibility(p, 20, 0) for p in load_paradigms(["transitive", "intransitive"])]
    text = render_markdown(results, 20, 0)
    assert text.startswith("# Plausibility audit") and "| `intransitive` | 20 |" in text and "| `transitive` |" in text


def test_plausibility_cli(tmp_path: Path) -> None:
    code, output = run("audit", "--plausibility", "transitive", "-n", "20", "--top", "3")
    assert code == 0 and output.startswith("transitive: 20 pairs") and "arg1 classes:" in output, output
    evidence = tmp_path / "e.tsv"
    evidence.write_text("eat\targ2\t*\t10\n")
    code, output = run("audit", "--plausibility", "transitive", "-n", "20", "--evidence", str(evidence))
    assert code == 0, output
    code, output = run("audit", "transitive", "--evidence", str(evidence))
    assert code != 0 and "--evidence goes with --plausibility" in output
