"""The catalogue: one documented order of spec sources, each file parsed once, every type answered."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from blimpgen.errors import OptionError, SpecErrors, UnknownNameError
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_records, load_paradigms
from blimpgen.generators.paradigm import Paradigm
from blimpgen.generators.probe import Probe
from blimpgen.grammar import ParadigmSpec, ProbeSpec, load_shipped_specs, loader

SHIPPED = Path(__file__).resolve().parents[2] / "src" / "blimpgen" / "grammar"


def copy_spec(folder: Path, shipped: str, uid: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    old = Path(shipped).stem
    path = folder / f"{uid}.yaml"
    path.write_text((SHIPPED / shipped).read_text().replace(f"uid: {old}", f"uid: {uid}"))
    return path


def fake_entry_points(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    class EntryPoint:
        name, value = "pack", "pack:folder"

        def load(self) -> object:
            return str(folder)

    real = metadata.entry_points
    monkeypatch.setattr(
        metadata, "entry_points", lambda **kw: [EntryPoint()] if kw.get("group") == "blimpgen.paradigms" else real(**kw)
    )


def test_catalog_names_every_type_and_each_type(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLIMPGEN_PARADIGM_PATH", raising=False)
    catalog = Catalog.from_environment()
    paradigms, probes = catalog.names(ParadigmSpec), catalog.names(ProbeSpec)
    assert paradigms == sorted(load_shipped_specs()) and probes == sorted(load_shipped_specs(ProbeSpec))
    assert catalog.names() == sorted(paradigms + probes)


def test_catalog_sources_come_in_the_documented_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flag, env, pack = tmp_path / "flag", tmp_path / "env", tmp_path / "pack"
    copy_spec(flag, "paradigms/morphology/determiner_noun_agreement_1.yaml", "from_flag")
    copy_spec(env, "paradigms/morphology/determiner_noun_agreement_1.yaml", "from_env")
    copy_spec(pack, "probes/neg_simp.yaml", "from_pack")
    monkeypatch.setenv("BLIMPGEN_PARADIGM_PATH", str(env))
    fake_entry_points(monkeypatch, pack)
    catalog = Catalog.from_environment([flag])
    assert catalog.paths == (str(flag), str(env), str(pack))
    assert {"from_flag", "from_env"} <= set(catalog.names(ParadigmSpec)) and "from_pack" in catalog.names(ProbeSpec)
    # the same UID in a later source is an error naming both files
    copy_spec(pack, "paradigms/morphology/determiner_noun_agreement_1.yaml", "from_env")
    with pytest.raises(SpecErrors, match=rf"from_env.yaml:\d+: uid: duplicate UID 'from_env' \(also in {env}"):
        Catalog.from_environment([flag]).names()


def test_catalog_library_callers_see_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_spec(tmp_path, "paradigms/morphology/determiner_noun_agreement_1.yaml", "env_only")
    monkeypatch.setenv("BLIMPGEN_PARADIGM_PATH", str(tmp_path))
    (paradigm,) = load_paradigms(["env_only"])
    assert paradigm.uid == "env_only"


def test_catalog_parses_each_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_spec(tmp_path, "paradigms/morphology/determiner_noun_agreement_1.yaml", "mine")
    copy_spec(tmp_path, "probes/neg_simp.yaml", "my_probe")
    monkeypatch.setenv("BLIMPGEN_PARADIGM_PATH", str(tmp_path))  # the same folder as the flag: read once
    parsed: list[str] = []
    real = loader.parse_spec
    monkeypatch.setattr(
        loader, "parse_spec", lambda text, file, folders=None: parsed.append(file) or real(text, file, folders)
    )
    catalog = Catalog.from_environment([tmp_path])
    sources = catalog.build(["mine", "my_probe"])
    catalog.names(), catalog.get("mine"), catalog.check([str(tmp_path / "mine.yaml")])
    assert sorted(parsed) == sorted([str(tmp_path / "mine.yaml"), str(tmp_path / "my_probe.yaml")])
    assert [type(s) for s in sources] == [Paradigm, Probe]


def test_catalog_get_names_the_type_it_needs() -> None:
    catalog = Catalog()
    with pytest.raises(UnknownNameError, match="unknown paradigm or probe suite 'neg_simpl'; did you mean 'neg_simp'"):
        catalog.get("neg_simpl")
    with pytest.raises(OptionError, match="neg_simp is a probe suite, not a paradigm; for pairs"):
        catalog.build(["neg_simp"], ParadigmSpec, purpose="; for pairs")


def test_catalog_check_never_raises_for_a_spec(tmp_path: Path) -> None:
    good = copy_spec(tmp_path, "probes/neg_simp.yaml", "fine")
    bad = copy_spec(tmp_path, "paradigms/morphology/determiner_noun_agreement_1.yaml", "broken")
    bad.write_text(bad.read_text().replace("kind: dp", "kind: dpp", 1))
    problems, checked = Catalog([tmp_path]).check([str(good), str(bad)])
    assert problems == []
    by_uid = {c.loaded.uid: c for c in checked}
    assert isinstance(by_uid["fine"].source, Probe) and by_uid["broken"].source is None
    assert "unknown slot kind 'dpp'; did you mean 'dp'" in by_uid["broken"].problems[0].message


def test_catalog_sources_generate_through_one_loop() -> None:
    catalog = Catalog()
    for source in catalog.build(["npi_present_1", "olmpics_age_comparison"]):
        records = [record for record, _ in generate_records(source, 3, 0)]
        assert len(records) == 3 and all(r.record_id.startswith(source.uid) for r in records)
