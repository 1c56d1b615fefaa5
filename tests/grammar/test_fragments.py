"""Named formulas (``@name``), fragments (``include:``), spec versions and derived method flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen.errors import SpecErrors
from blimpgen.generators.catalog import Catalog
from blimpgen.grammar import parse_spec
from blimpgen.grammar.loader import load_spec_file

HEAD = """uid: {uid}
field: syntax
linguistics_term: binding
description: d
contrast: [verb]
"""
SPELLED = (
    HEAD
    + """slots:
  subj: {{kind: dp, head: "(N and (human or domestic=pet)) or PN"}}
  verb: {{kind: verb_group, verb: "frames=intransitive and takes(arg1, subj)", subject: subj}}
good: "{{{{ subj }}}} {{{{ verb }}}}."
bad: "{{{{ verb }}}} {{{{ subj }}}}."
"""
)


def errors_of(text: str, file: str = "x.yaml", folders=None) -> str:
    with pytest.raises(SpecErrors) as info:
        parse_spec(text, file, folders)
    return str(info.value)


def generated(folder: Path, uid: str, n: int = 30) -> list[dict]:
    catalog = Catalog((str(folder),))
    from blimpgen.generators.generate import generate

    out = []
    for pair in generate(catalog.build([uid])[0], n, 7):
        record = pair.to_dict()
        out.append({k: v for k, v in record.items() if k not in ("spec_hash", "UID", "pair_id")})
    return out


def test_fragments_formula_expands_to_the_spelled_out_query(tmp_path: Path) -> None:
    spelled = SPELLED.format(uid="s")
    local = spelled.replace('"(N and (human or domestic=pet)) or PN"', '"@agent"').replace(
        "slots:", 'formulas:\n  agent: "(N and (human or domestic=pet)) or PN"\nslots:'
    )
    shipped = spelled.replace('"(N and (human or domestic=pet)) or PN"', '"@person_or_pet"').replace(
        "slots:", "include: [subjects]\nslots:"
    )
    outputs = []
    for name, text in (("spelled", spelled), ("local", local), ("shipped", shipped)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "s.yaml").write_text(text)
        outputs.append(generated(tmp_path / name, "s"))
    assert outputs[0] == outputs[1] == outputs[2]


def test_fragments_user_fragment_beside_the_spec_and_its_bytes_in_the_hash(tmp_path: Path) -> None:
    (tmp_path / "_mine.yaml").write_text('formulas:\n  who: "@base and human"\n  base: "N"\n')
    text = SPELLED.format(uid="mine").replace('"(N and (human or domestic=pet)) or PN"', '"@who or PN"')
    spec = tmp_path / "mine.yaml"
    spec.write_text(text.replace("slots:", "include: [mine]\nslots:"))
    first = load_spec_file(spec)
    assert first.spec.slots["subj"]["head"] == "((N) and human) or PN"
    assert first.spec.include == ["mine"]
    assert [uid for uid in Catalog((str(tmp_path),)).names() if uid == "mine"] == ["mine"]  # _mine.yaml is no spec
    (tmp_path / "_mine.yaml").write_text('formulas:\n  who: "@base and human"\n  base: "N and number=sg"\n')
    assert load_spec_file(spec).sha != first.sha


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ('"(N and (human or domestic=pet)) or PN"', '"@persn"'),
            "x.yaml:7: slots.subj.head: unknown formula @persn; did you mean 'person'?",
        ),
        (("slots:", "include: [nowhere]\nslots:"), "x.yaml:6: include[0]: no fragment _nowhere.yaml"),
        (("slots:", "include: [sub-jects]\nslots:"), "x.yaml:6: include: include must be a fragment name or a list"),
        (("slots:", "formulas:\n  bad name: N\nslots:"), "x.yaml:7: formulas.bad name: formula name"),
    ],
)
def test_fragments_bad_formulas_are_located(change: tuple[str, str], expected: str) -> None:
    text = SPELLED.format(uid="x").replace(*change)
    if "@persn" in change[1]:
        text = text.replace("slots:", "include: [subjects]\nslots:")
        expected = expected.replace("x.yaml:7", "x.yaml:8")
    assert expected in errors_of(text)


def test_fragments_a_formula_that_uses_itself_is_named() -> None:
    text = SPELLED.format(uid="x").replace('"(N and (human or domestic=pet)) or PN"', '"@a"')
    text = text.replace("slots:", 'formulas:\n  a: "@b"\n  b: "N and @a"\nslots:')
    assert "formula @a uses itself (@a -> @b -> @a)" in errors_of(text)


def test_fragments_keys_from_a_fragment_keep_their_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "_broken.yaml").write_text("formulas:\n  ok: N\nformula: {}\n")
    spec = tmp_path / "x.yaml"
    spec.write_text(SPELLED.format(uid="x").replace("slots:", "include: [broken]\nslots:"))
    with pytest.raises(SpecErrors) as info:
        load_spec_file(spec)
    assert f"{tmp_path / '_broken.yaml'}:3: formula: unknown key 'formula'; did you mean 'formulas'?" in str(info.value)


def test_fragments_the_spec_s_own_keys_and_formulas_win(tmp_path: Path) -> None:
    (tmp_path / "_base.yaml").write_text(
        "field: morphology\ndescription: from the fragment\n"
        'formulas:\n  agent: "N and human"\n  thing: "N and not animate"\n'
    )
    text = SPELLED.format(uid="x").replace('"(N and (human or domestic=pet)) or PN"', '"@agent"')
    text = text.replace("field: syntax\n", "").replace("slots:", 'include: base\nformulas:\n  agent: "PN"\nslots:')
    spec = tmp_path / "x.yaml"
    spec.write_text(text)
    loaded = load_spec_file(spec).spec
    assert (loaded.field, loaded.description) == ("morphology", "d")
    assert loaded.slots["subj"]["head"] == "(PN)" and loaded.formulas["thing"] == "N and not animate"


def test_fragments_that_include_each_other_are_named(tmp_path: Path) -> None:
    (tmp_path / "_a.yaml").write_text("include: [b]\n")
    (tmp_path / "_b.yaml").write_text("include: [a]\n")
    spec = tmp_path / "x.yaml"
    spec.write_text(SPELLED.format(uid="x").replace("slots:", "include: [a]\nslots:"))
    with pytest.raises(SpecErrors) as info:
        load_spec_file(spec)
    assert "fragments include each other (_a.yaml -> _b.yaml -> _a.yaml)" in str(info.value)
    (tmp_path / "_b.yaml").write_text("uid: b\n")
    with pytest.raises(SpecErrors) as info:
        load_spec_file(spec)
    assert f"{tmp_path / '_b.yaml'}:1: uid: a fragment cannot set uid" in str(info.value)


def test_fragments_version_is_recorded_in_every_record(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text(SPELLED.format(uid="v").replace("contrast:", "version: 3\ncontrast:"))
    records = generated(tmp_path, "v", 5)
    assert {r["spec_version"] for r in records} == {3}
    assert {tuple(r["kinds"]) for r in records} == {("dp.v1", "verb_group.v1")}
    assert "x.yaml:5: version: Input should be greater than or equal to 1" in errors_of(
        SPELLED.format(uid="x").replace("contrast:", "version: 0\ncontrast:")
    )


def test_fragments_shipped_records_carry_version_and_kinds() -> None:
    from blimpgen.generators.generate import generate

    pair = next(iter(generate(Catalog().build(["anaphor_gender_agreement"])[0], 1, 0)))
    record = json.loads(json.dumps(pair.to_dict()))
    assert record["spec_version"] >= 1 and all(kind.rsplit(".v", 1)[1].isdigit() for kind in record["kinds"])


ONE_PREFIX = '\none_prefix: {prefix: "{{ subj }}", word_good: "{{ verb }}", word_bad: "{{ verb }}"}\n'


def test_fragments_method_flags_follow_the_prefix_blocks() -> None:
    spec = parse_spec(SPELLED.format(uid="x") + ONE_PREFIX, "x.yaml").spec
    assert spec.one_prefix_method is True and spec.two_prefix_method is False
    assert parse_spec(SPELLED.format(uid="x"), "x.yaml").spec.one_prefix_method is False
    written = SPELLED.format(uid="x").replace("contrast:", "one_prefix_method: false\ncontrast:") + ONE_PREFIX
    assert "one_prefix: a one_prefix block needs one_prefix_method: true" in errors_of(written)


def test_fragments_old_parameter_names_still_read_and_located(tmp_path: Path) -> None:
    """`where` is the head formula of every kind; dp's `head` and verb_group's `verb` (and
    clause's `subject` / `verb`) are old names, still read, with errors at the key written."""
    new = (
        SPELLED.format(uid="s")
        .replace("{kind: dp, head:", "{kind: dp, where:")
        .replace("{kind: verb_group, verb:", "{kind: verb_group, where:")
    )
    outputs = []
    for name, text in (("old", SPELLED.format(uid="s")), ("new", new)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "s.yaml").write_text(text)
        outputs.append(generated(tmp_path / name, "s"))
    assert outputs[0] == outputs[1]
    both = new.replace("{kind: dp, where:", '{kind: dp, head: "N", where:')
    (tmp_path / "both").mkdir()
    (tmp_path / "both" / "s.yaml").write_text(both)
    with pytest.raises(SpecErrors, match=r"s.yaml:7: slots.subj.head: give where, not both where and head"):
        Catalog((str(tmp_path / "both"),)).build(["s"])
    bad = SPELLED.format(uid="s").replace('"(N and (human or domestic=pet)) or PN"', '"N and nosuchfeature"')
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "s.yaml").write_text(bad)
    with pytest.raises(SpecErrors, match=r"s.yaml:7: slots.subj.head: .*nosuchfeature"):
        Catalog((str(tmp_path / "bad"),)).build(["s"])


def test_fragments_slots_come_first_and_the_spec_s_own_win(tmp_path: Path) -> None:
    """A fragment's slots are merged like its formulas: before the spec's own (so the spec may
    refer to them), a slot the spec names itself winning, and a slot two fragments set an error."""
    (tmp_path / "_who.yaml").write_text(
        'slots:\n  who: {kind: choice, values: [{doer: "N and human"}, {doer: "PN"}]}\n'
        "  unused: {kind: choice, values: [a]}\n"
    )
    text = SPELLED.format(uid="x").replace('"(N and (human or domestic=pet)) or PN"', '"fits(who.doer)"')
    text = text.replace("slots:", "include: [who]\nslots:\n  unused: {kind: choice, values: [b]}")
    text = text.replace('good: "{{ subj }}', 'good: "{{ unused }} {{ subj }}').replace(
        'bad: "{{ verb }}', 'bad: "{{ unused }} {{ verb }}'
    )
    spec = tmp_path / "x.yaml"
    spec.write_text(text)
    loaded = load_spec_file(spec).spec
    assert list(loaded.slots) == ["who", "unused", "subj", "verb"]
    assert loaded.slots["unused"]["values"] == ["b"]
    pairs = generated(tmp_path, "x", 10)
    assert all(p["sentence_good"].startswith("B ") for p in pairs)
    (tmp_path / "_again.yaml").write_text("slots:\n  who: {kind: choice, values: [c]}\n")
    spec.write_text(text.replace("include: [who]", "include: [who, again]"))
    with pytest.raises(SpecErrors) as info:
        load_spec_file(spec)
    assert "slot 'who' is set by both" in str(info.value)
