"""Fixtures for validate tests: the small BLiMP-schema data set and helpers that build batches."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from blimpgen.validate.batch import LoadedBatch, load_batch, write_batch
from blimpgen.validate.design import BatchOptions
from blimpgen.validate.page import ELAPSED_FIELD, HIT_FIELD, HONEYPOT_FIELD, NATIVE_FIELD
from blimpgen.validate.simulate import START, Submission

DATA = Path(__file__).parent / "data"
UIDS = (
    "anaphor_gender_agreement",
    "determiner_noun_agreement_1",
    "regular_plural_subject_verb_agreement_1",
    "wh_vs_that_no_gap",
)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Four paradigms of twelve pairs each, one ``<UID>.jsonl`` per paradigm."""
    return DATA


@pytest.fixture
def make_batch(tmp_path: Path) -> Callable[..., LoadedBatch]:
    """Write a batch from the test data into a fresh folder and load it back."""
    counter = iter(range(1000))

    def make(data: Path = DATA, **options: int) -> LoadedBatch:
        folder = tmp_path / f"hits{next(counter)}"
        defaults = {"pairs_per_paradigm": 5, "judgments": 20, "items_per_hit": 6, "seed": 0}
        write_batch(data, folder, BatchOptions(**{**defaults, **options}))
        return load_batch(folder)

    return make


def write_jsonl(folder: Path, uid: str, pairs: list[tuple[str, str]]) -> Path:
    """Write ``pairs`` as a BLiMP-schema ``<uid>.jsonl`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{uid}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for index, (good, bad) in enumerate(pairs):
            handle.write(
                json.dumps(
                    {
                        "sentence_good": good,
                        "sentence_bad": bad,
                        "field": "syntax",
                        "linguistics_term": "test_term",
                        "UID": uid,
                        "simple_LM_method": True,
                        "one_prefix_method": False,
                        "two_prefix_method": False,
                        "lexically_identical": False,
                        "pairID": str(index),
                    }
                )
                + "\n"
            )
    return path


def answers_for(
    batch: LoadedBatch,
    code: str,
    *,
    correct: bool = True,
    check_correct: bool = True,
    native: str = "yes",
    honeypot: str = "",
    wrong_uids: tuple[str, ...] = (),
) -> dict[str, str]:
    """Form fields a worker would send for HIT ``code``."""
    answers = {HIT_FIELD: code, NATIVE_FIELD: native, HONEYPOT_FIELD: honeypot, ELAPSED_FIELD: "30.0"}
    for item in batch.hits[code].items:
        good = check_correct if item.kind == "check" else correct and item.uid not in wrong_uids
        answers[f"q{item.slot}"] = str(item.good_position if good else 3 - item.good_position)
    return answers


def submission(
    batch: LoadedBatch,
    code: str,
    worker: str,
    *,
    seconds: int = 120,
    minute: int = 0,
    status: str = "Submitted",
    **kwargs: object,
) -> Submission:
    """A :class:`Submission` with :func:`answers_for` answers, accepted ``minute`` minutes after START."""
    return Submission(
        hit_code=code,
        worker_id=worker,
        answers=answers_for(batch, code, **kwargs),
        seconds=seconds,
        accept_time=START + timedelta(minutes=minute),
        status=status,
        assignment_id=f"ASSIGN-{code}-{worker}-{minute}",
    )
