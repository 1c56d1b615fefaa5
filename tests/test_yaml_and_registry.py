"""The line-tracking YAML loader and the registry."""

from __future__ import annotations

import pytest

from blimpgen._yaml import load_yaml_text
from blimpgen.errors import SpecError, UnknownNameError
from blimpgen.registry import Registry, base_name


def test_yaml_records_lines_of_nested_keys() -> None:
    data, table = load_yaml_text("a: 1\nb:\n  c: [x, y]\n  d:\n    - e: 2\n", "f.yaml")
    assert data == {"a": 1, "b": {"c": ["x", "y"], "d": [{"e": 2}]}}
    assert table.line_of(("b", "c")) == 3
    assert table.line_of(("b", "d", 0, "e")) == 5
    assert table.line_of(("b", "zzz")) == 2  # nearest recorded ancestor


@pytest.mark.parametrize(
    "text,message",
    [
        ("a: 1\na: 2\n", "f.yaml:2: a: duplicate key 'a' (first written on line 1)"),
        ("a: [1\n", "f.yaml:2: YAML syntax error"),
        ("a: &x 1\nb: *x\n<<: {c: 1}\n", "merge keys"),
        ("? [a]\n: 1\n", "mapping keys must be plain strings"),
        ("a: !!python/object:os.system echo\n", "YAML"),
    ],
)
def test_yaml_errors(text: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        load_yaml_text(text, "f.yaml")
    assert message in str(info.value)


def test_registry_versions_lazy_targets_and_suggestions() -> None:
    reg: Registry = Registry("widget")
    reg.register("thing.v1", "collections:OrderedDict")
    reg.register("thing.v2", "collections:Counter")

    @reg.register("other.v1")
    class Other:
        pass

    import collections

    assert reg.get("thing") is collections.Counter  # newest version
    assert reg.get("thing.v1") is collections.OrderedDict
    assert reg.get("other") is Other
    with pytest.raises(UnknownNameError, match="did you mean 'thing.v1'"):
        reg.get("thng.v1")
    with pytest.raises(ValueError, match="already registered"):
        reg.register("other.v1", dict)


def test_registry_resolves_and_finds_versioned_names() -> None:
    reg: Registry = Registry("widget")
    reg.register("w.v1", "collections:OrderedDict")
    reg.register("w.v2", "collections:Counter")
    reg.register("plain", "collections:deque")
    assert (reg.resolve("w"), reg.resolve("w.v1"), reg.resolve("plain")) == ("w.v2", "w.v1", "plain")
    import collections

    assert reg.find(collections.OrderedDict) == "w.v1"  # a lazy target, matched without importing it
    assert reg.find(collections.Counter) == "w.v2" and reg.find(dict) is None
    names = ("dp.v1", "dp.v12", "dp", "my.version", "v3")
    assert [base_name(n) for n in names] == ["dp", "dp", "dp", "my.version", "v3"]


def test_registry_builtin_kinds_snapshot() -> None:
    from blimpgen.generators.kinds import slot_kinds

    assert slot_kinds.names() == [
        "args.v1",
        "choice.v1",
        "clause.v1",
        "dp.v1",
        "fact.v1",
        "number.v1",
        "verb_group.v1",
        "word.v1",
    ]


def _yaml_texts() -> list:
    from importlib import resources
    from pathlib import Path

    shipped = Path(str(resources.files("blimpgen.grammar")))
    bad = Path(__file__).resolve().parent / "fixtures" / "bad"
    return sorted(shipped.rglob("*.yaml")) + sorted(bad.glob("*.yaml"))


@pytest.mark.parametrize("path", _yaml_texts(), ids=lambda p: p.name)
def test_yaml_libyaml_and_python_parsers_agree(path, monkeypatch: pytest.MonkeyPatch) -> None:
    # libyaml parses when PyYAML has it; what it returns, or raises, is what the Python parser would.
    import blimpgen._yaml as loader

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        pytest.skip("not text: load_yaml refuses it before any parser sees it")

    def outcome() -> tuple:
        try:
            data, table = load_yaml_text(text, path.name)
        except SpecError as exc:
            return "error", str(exc)
        return data, table.lines

    fast = outcome()
    monkeypatch.setattr(loader, "_FAST_LOADER", None)
    assert fast == outcome()
