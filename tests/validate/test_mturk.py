"""The optional boto3 path, driven by a fake client: no network, no boto3 needed."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.validate.batch import load_batch, write_batch
from blimpgen.validate.design import BatchOptions
from blimpgen.validate.ingest import ingest
from blimpgen.validate.mturk import advance_batch, fetch_results, make_client, parse_answer_xml, post_batch
from blimpgen.validate.page import PageText

from .conftest import DATA, answers_for

PAGE = PageText(contact="Test Lab <lab@example.org>")
NS = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd"


def _answer_xml(answers: dict[str, str]) -> str:
    body = "".join(
        f"<Answer><QuestionIdentifier>{name}</QuestionIdentifier><FreeText>{value}</FreeText></Answer>"
        for name, value in answers.items()
    )
    return f'<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="{NS}">{body}</QuestionFormAnswers>'


class FakeMTurk:
    """Records calls; each HIT gets two assignments answered correctly, one page at a time."""

    def __init__(self, balance: str = "10000.00") -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.hits: dict[str, str] = {}
        self.balance = balance
        self.batch = None

    def get_account_balance(self) -> dict[str, str]:
        return {"AvailableBalance": self.balance}

    def create_hit_type(self, **kwargs: Any) -> dict[str, str]:
        self.calls.append(("create_hit_type", kwargs))
        return {"HITTypeId": f"TYPE{sum(name == 'create_hit_type' for name, _ in self.calls)}"}

    def create_qualification_type(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_qualification_type", kwargs))
        return {"QualificationType": {"QualificationTypeId": f"Q-{kwargs['Name']}"}}

    def associate_qualification_with_worker(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("associate_qualification_with_worker", kwargs))
        return {}

    def create_hit_with_hit_type(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_hit_with_hit_type", kwargs))
        hit_id = f"HIT{len(self.hits)}"
        self.hits[hit_id] = kwargs["RequesterAnnotation"]
        return {"HIT": {"HITId": hit_id}}

    def list_assignments_for_hit(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("list_assignments_for_hit", kwargs))
        code = self.hits[kwargs["HITId"]]
        number = 1 if "NextToken" in kwargs else 0
        accept = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
        page = {
            "Assignments": [
                {
                    "AssignmentId": f"AS-{code}-{number}",
                    "WorkerId": f"W{number}-{code}",
                    "AssignmentStatus": "Submitted",
                    "AcceptTime": accept,
                    "SubmitTime": accept + timedelta(seconds=95),
                    "Answer": _answer_xml(answers_for(self.batch, code)),
                }
            ]
        }
        if number == 0:
            page["NextToken"] = "more"
        return page


@pytest.fixture
def batch_folder(tmp_path: Path) -> Path:
    write_batch(
        DATA,
        tmp_path / "hits",
        BatchOptions(pairs_per_paradigm=5, judgments=2, items_per_hit=10),
        questions=True,
        page=PAGE,
    )
    return tmp_path / "hits"


def test_mturk_post_then_fetch_then_ingest(batch_folder: Path, tmp_path: Path) -> None:
    client = FakeMTurk()
    client.batch = load_batch(batch_folder)
    posted = post_batch(batch_folder, client=client)
    assert posted.read_text().splitlines()[0] == "hit_code,list,HITId,HITTypeId,QualificationTypeId,endpoint"
    kinds = [name for name, _ in client.calls]
    assert kinds == ["create_qualification_type", "create_hit_type", "create_hit_with_hit_type"] * 2
    hit_type = client.calls[1][1]
    assert hit_type["Reward"] == "0.62" and len(hit_type["QualificationRequirements"]) == 4
    assert hit_type["QualificationRequirements"][-1] == {
        "QualificationTypeId": f"Q-{client.calls[0][1]['Name']}",
        "Comparator": "DoesNotExist",
        "ActionsGuarded": "DiscoverPreviewAndAccept",
    }
    created = client.calls[2][1]
    assert created["MaxAssignments"] == 2 and created["Question"].startswith("<?xml")
    results = fetch_results(batch_folder, tmp_path / "results.csv", client=client)
    analysis = ingest(batch_folder, [results])
    assert analysis.n_rows == 4 and len(analysis.included) == 4  # both pages of both HITs
    assert analysis.overall.aggregate == 1.0
    assert {s.row.seconds for s in analysis.screened} == {95}


def test_mturk_posts_replicas_of_a_list_one_after_another(tmp_path: Path) -> None:
    folder = tmp_path / "hits"
    write_batch(
        DATA,
        folder,
        BatchOptions(pairs_per_paradigm=5, judgments=4, max_assignments=2, items_per_hit=10),
        questions=True,
        page=PAGE,
    )
    client = FakeMTurk()
    client.batch = load_batch(folder)
    post_batch(folder, client=client)
    assert sum(name == "create_hit_with_hit_type" for name, _ in client.calls) == 2  # replica 1 of each list
    granted, posted = advance_batch(folder, client=client)
    assert (granted, posted) == (4, 2)  # both workers of each replica 1 excluded, then replica 2 posted
    grants = [kwargs for name, kwargs in client.calls if name == "associate_qualification_with_worker"]
    assert {g["QualificationTypeId"] for g in grants} == {
        f"Q-blimpgen {client.batch.tag} list 001 done",
        f"Q-blimpgen {client.batch.tag} list 002 done",
    }
    assert advance_batch(folder, client=client)[1] == 0  # everything is posted
    results = fetch_results(folder, tmp_path / "results.csv", client=client)
    assert ingest(folder, [results]).n_rows == 8


def test_mturk_refuses_to_post_twice_or_without_questions(batch_folder: Path, tmp_path: Path) -> None:
    client = FakeMTurk()
    post_batch(batch_folder, client=client)
    with pytest.raises(BlimpgenError, match="already posted"):
        post_batch(batch_folder, client=client)
    write_batch(DATA, tmp_path / "plain", BatchOptions(judgments=2), page=PAGE)
    with pytest.raises(BlimpgenError, match="write the batch with --questions"):
        post_batch(tmp_path / "plain", client=client)


def test_mturk_refuses_a_page_without_contact(tmp_path: Path) -> None:
    write_batch(DATA, tmp_path / "hits", BatchOptions(judgments=2), questions=True)
    client = FakeMTurk()
    with pytest.raises(BlimpgenError, match=r"names no requester contact; .* --contact 'NAME <EMAIL>'"):
        post_batch(tmp_path / "hits", client=client)
    assert client.calls == [] and not (tmp_path / "hits" / "posted.csv").exists()


def test_mturk_production_checks_the_balance(batch_folder: Path) -> None:
    with pytest.raises(BlimpgenError, match=r"account balance \$1.00 is below the estimated cost"):
        post_batch(batch_folder, sandbox=False, client=FakeMTurk(balance="1.00"))


def test_mturk_fetch_needs_a_posted_batch(batch_folder: Path, tmp_path: Path) -> None:
    with pytest.raises(BlimpgenError, match=r"no posted\.csv"):
        fetch_results(batch_folder, tmp_path / "r.csv", client=FakeMTurk())


def test_mturk_without_boto3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "boto3", None)
    with pytest.raises(BlimpgenError, match=r"pip install 'blimpgen\[mturk\]'"):
        make_client()


def test_mturk_answer_xml() -> None:
    assert parse_answer_xml(_answer_xml({"q1": "2", "native": "yes", "homepage": ""})) == {
        "q1": "2",
        "native": "yes",
        "homepage": "",
    }
