"""The one runner: --data read once, the task picked by record type, one writer, errors before scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate import runner
from blimpgen.evaluate.runner import evaluate, read_data, run_eval, write_results
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer
from blimpgen.evaluate.tasks import TASKS, PairTask, ProbeTask
from blimpgen.evaluate.tasks.pairs import PairOptions
from blimpgen.evaluate.tasks.probes import ProbeOptions
from blimpgen.records.item import ProbeItem
from blimpgen.records.pair import MinimalPair
from blimpgen.records.types import RECORD_TYPES

from .tiny import ITEMS, write_items

COUNTS = {"the": 50, "cat": 5, "cats": 5, "is": 20, "are": 4, "was": 10, "were": 3, "herself": 2, "themselves": 1}


def test_runner_every_record_type_has_a_task():
    assert set(TASKS) == set(RECORD_TYPES)
    assert all(task.record_type is record for record, task in TASKS.items())


def test_runner_reads_every_data_file_once(blimp_data: Path, tmp_path: Path, monkeypatch):
    """`eval` used to read --data three times: a kind sniff, an early count, the evaluation."""
    opened: list[str] = []
    real = runner.read_json_lines

    def counting(path):
        opened.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(runner, "read_json_lines", counting)
    run_eval("unigram", {"counts": COUNTS}, [blimp_data], tmp_path / "out", {"limit": 2})
    assert sorted(opened) == ["anaphor_number_agreement.jsonl", "subject_verb_agreement_1.jsonl"]


@pytest.mark.parametrize("data,task", [("pairs", PairTask), ("items", ProbeTask)])
def test_runner_picks_the_task_of_the_records_and_writes_its_files(data, task, blimp_data: Path, tmp_path: Path):
    path = blimp_data if data == "pairs" else write_items(tmp_path / "probes.jsonl", ITEMS)
    result = evaluate(UnigramScorer(counts=COUNTS), path)
    assert type(result.task) is task and read_data(path).record_type is task.record_type
    written = write_results(result, tmp_path / "out")
    assert [p.name for p in written] == [task.records_file, "results.json", "results.csv"]
    assert (tmp_path / "out" / task.records_file).read_text().count("\n") == len(result.rows)
    assert json.loads((tmp_path / "out" / "results.json").read_text())["options"][f"n_{task.noun}s"] == len(result.rows)


def test_runner_data_mixing_record_types_is_refused(blimp_data: Path, tmp_path: Path):
    items = write_items(tmp_path / "probes.jsonl", ITEMS)
    with pytest.raises(OptionError, match=r"^--data mixes minimal pairs \(.*\) and probe items \(.*probes.jsonl\); "):
        read_data([blimp_data, items])


def test_runner_a_line_of_another_type_is_located(blimp_data: Path, tmp_path: Path):
    path = tmp_path / "mixed.jsonl"
    first = (blimp_data / "anaphor_number_agreement.jsonl").read_text().splitlines()[0]
    path.write_text(
        first
        + "\n"
        + json.dumps(ProbeItem("x-00000", "x", "multiple_choice", "A [MASK] .", ("b", "c"), "b").to_dict())
        + "\n"
    )
    with pytest.raises(DataError, match=r"mixed.jsonl:2: a probe item, not a minimal pair \(it has an 'item_type'"):
        read_data(path)


def test_runner_no_records_is_an_error(tmp_path: Path):
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(DataError, match="empty.jsonl: no pairs to evaluate"):
        read_data(tmp_path)


@pytest.mark.parametrize(
    "options,message",
    [
        (
            {"method": "one-prefix"},
            "--method applies to minimal pairs, but --data holds probe items; probe items take "
            "--probe-method, --top-k and --sensitivity-margin",
        ),
        (PairOptions(), "PairOptions are not options of probe items (those are ProbeOptions)"),
        ({"top_kk": (1,)}, "unknown option 'top_kk'; did you mean 'top_k'?"),
    ],
)
def test_runner_options_of_another_record_type_are_refused(options, message, tmp_path: Path):
    items = write_items(tmp_path / "probes.jsonl", ITEMS)
    with pytest.raises(OptionError) as info:
        evaluate(UnigramScorer(counts=COUNTS), items, options)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "options,message",
    [
        ({"limit": 0}, "--limit must be at least 1, got 0"),
        ({"tie": "never"}, "unknown tie policy 'never'; expected one of: wrong, half, right"),
        ({"top_k": (1, 0)}, "--top-k must be at least 1, got 0"),
        ({"top_k": ()}, "--top-k needs at least 1 value(s)"),
        ({"margin": 1.5}, "--sensitivity-margin must be less than 1, got 1.5"),
        ({"probe_method": "cloze"}, "unknown probe method 'cloze'; expected one of: blank, sentence"),
    ],
)
def test_runner_bad_option_values_are_one_line_naming_the_flag(options, message):
    with pytest.raises(OptionError) as info:
        ProbeOptions(**options)
    assert str(info.value) == message


def test_runner_out_that_is_a_file_fails_before_scoring(blimp_data: Path, tmp_path: Path, monkeypatch):
    out = tmp_path / "out"
    out.write_text("")
    monkeypatch.setattr(runner, "make_scorer", lambda *a, **k: pytest.fail("scorer built"))
    with pytest.raises(OptionError, match="-o/--output must be a folder, not a file"):
        run_eval("unigram", {"counts": COUNTS}, [blimp_data], out)


def test_runner_bad_data_fails_before_the_scorer_is_built(tmp_path: Path, monkeypatch):
    (tmp_path / "p_1.jsonl").write_text(json.dumps({"sentence_good": "a", "UID": "p_1"}) + "\n")
    monkeypatch.setattr(runner, "make_scorer", lambda *a, **k: pytest.fail("scorer built"))
    with pytest.raises(DataError, match="p_1.jsonl:1: missing required field 'sentence_bad'"):
        run_eval("hf-causal", {"model": "no-such-model"}, [tmp_path], None)


def test_runner_records_the_resolved_scorer_id(blimp_data: Path):
    assert evaluate(UnigramScorer(counts=COUNTS), blimp_data).options["scorer"] == "unigram.v1"
    assert read_data(blimp_data).record_type is MinimalPair


def test_runner_places_the_scorer_when_launched_on_several_processes(blimp_data: Path, monkeypatch):
    """Placement is the scorer's capability (Scorer.place), not a test of its name."""
    seen: dict = {}

    class Built(Exception):
        pass

    def make(name, **options):
        seen.update(options)
        raise Built

    monkeypatch.setattr(runner, "launched_processes", lambda: 2)
    monkeypatch.setattr(runner, "local_rank", lambda: 1)
    monkeypatch.setattr(runner, "make_scorer", make)
    monkeypatch.setattr(UnigramScorer, "place", classmethod(lambda cls, options, rank: {**options, "rank": rank}))
    with pytest.raises(Built):
        run_eval("unigram", {"counts": COUNTS}, [blimp_data], None)
    assert seen == {"counts": COUNTS, "rank": 1}
