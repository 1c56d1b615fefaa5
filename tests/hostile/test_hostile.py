"""The hostile-input corpus: every input ends in a clean one-line error or a correct result.

One runner for every case of ``cases_*.py`` (see ``corpus.py`` for what a case is and
``README.md`` for how to add one). A case deferred to another change must still fail
(strict xfail), so the corpus shows the remaining work and notices when it is done.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import (
    cases_cli,
    cases_eval,
    cases_export,
    cases_files,
    cases_lexicon,
    cases_spec,
    cases_templates,
    cases_validate,
)
from tests.hostile.corpus import Case, materialise, outcome_problems
from tests.hostile.prerequisites import Prerequisites

CASES: list[Case] = [
    *cases_files.CASES,
    *cases_spec.SPEC_CASES,
    *cases_templates.TEMPLATE_CASES,
    *cases_templates.RUNTIME_CASES,
    *cases_lexicon.CASES,
    *cases_cli.CASES,
    *cases_eval.CASES,
    *cases_validate.CASES,
    *cases_export.CASES,
]


@pytest.fixture(scope="session")
def prerequisites(tmp_path_factory: pytest.TempPathFactory) -> Prerequisites:
    return Prerequisites(tmp_path_factory.mktemp("prerequisites"))


def test_hostile_corpus_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_hostile_corpus_every_input_file_is_used() -> None:
    from tests.hostile.corpus import INPUTS, Input

    used = {spec.name for case in CASES for spec in case.files.values() if isinstance(spec, Input)}
    assert {p.name for p in INPUTS.iterdir()} == used


def _param(case: Case):
    marks = [pytest.mark.xfail(strict=True, reason=case.deferred)] if case.deferred else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_hostile_input(case: Case, tmp_path: Path, prerequisites: Prerequisites) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    prerequisites.copy_into(ws, case.needs)
    materialise(ws, case.files)
    ctx: dict = {}
    for command in case.setup:
        outcome = command.run(ws, ctx)
        assert outcome.code == 0 and not outcome.crashed, f"setup {command.label}: {outcome.err or outcome.crashed}"
    for command in case.run:
        outcome = command.run(ws, ctx)
        problems = outcome_problems(case, outcome, ws)
        assert not problems, f"{case.id} ({case.what}) - {command.label}:\n  " + "\n  ".join(problems)
    if case.expect.check is not None:  # a check asserts, or returns False when the outcome is wrong
        assert case.expect.check(ws) is not False, f"{case.id} ({case.what}): the check of what it left failed"
