"""Posting a batch through the MTurk API and fetching its results (optional ``[mturk]`` extra).

boto3 is imported only when a client is needed, and every function takes a ``client`` so
tests pass a fake one and never touch the network. The sandbox is the default; production
needs an explicit ``sandbox=False`` and a prepaid balance that covers the cost estimate.

API-posted HITs do not appear in the requester website's results download, so
:func:`fetch_results` rebuilds the same MTurk results CSV from ``ListAssignmentsForHIT``,
and ``ingest`` reads it like a website download.
"""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ElementTree
from decimal import Decimal
from pathlib import Path
from typing import Any

from blimpgen._io import atomic_writer, csv_text
from blimpgen.errors import DataError, MissingDependencyError, OptionError, ServiceError
from blimpgen.validate.batch import LoadedBatch, load_batch
from blimpgen.validate.simulate import Submission, write_results

SANDBOX_ENDPOINT = "https://mturk-requester-sandbox.us-east-1.amazonaws.com"
PRODUCTION_ENDPOINT = "https://mturk-requester.us-east-1.amazonaws.com"
POSTED_FILE = "posted.csv"
# A HIT not yet posted (a later replica waiting for the one before it) has an empty HITId.
POSTED_COLUMNS = ("hit_code", "list", "HITId", "HITTypeId", "QualificationTypeId", "endpoint")
STATUSES = ["Submitted", "Approved", "Rejected"]


def make_client(sandbox: bool = True) -> Any:
    """A boto3 MTurk client for the sandbox or production (credentials from the usual AWS chain).

    Raises:
        MissingDependencyError: when boto3 is not installed.
    """
    try:
        import boto3
    except ImportError:
        raise MissingDependencyError("posting to MTurk needs boto3: pip install 'blimpgen[mturk]'") from None
    endpoint = SANDBOX_ENDPOINT if sandbox else PRODUCTION_ENDPOINT
    return boto3.client("mturk", region_name="us-east-1", endpoint_url=endpoint)


def post_batch(batch_folder: Path | str, *, sandbox: bool = True, client: Any = None) -> Path:
    """Create each list's exclusion qualification and HIT type, and post each list's first replica.

    Later replicas are posted by :func:`advance_batch`, one after another per list, so no worker
    takes two replicas of a list (see :class:`~blimpgen.validate.batch.PostingList`).

    Args:
        batch_folder: a batch written with ``questions=True`` (``questions/<hit>.xml``).
        sandbox: post to the worker sandbox (default) instead of the real marketplace.
        client: an MTurk client; made with :func:`make_client` when omitted.

    Returns:
        The path of ``posted.csv`` (:data:`POSTED_COLUMNS`; ``HITId`` empty for HITs still waiting).

    Raises:
        DataError: missing question files or a damaged batch.
        OptionError: a batch already posted there, or one whose page names no requester contact.
        ServiceError: too little balance.
    """
    batch = load_batch(batch_folder)
    endpoint = SANDBOX_ENDPOINT if sandbox else PRODUCTION_ENDPOINT
    posted = batch.folder / POSTED_FILE
    if posted.exists():
        raise OptionError(f"{posted}: this batch was already posted; delete the file only if its HITs are gone")
    questions = {
        code: batch.folder / "questions" / f"{code}.xml" for plan in batch.posting_lists() for code in plan.hits
    }
    missing = [str(path) for path in questions.values() if not path.is_file()]
    if missing:
        raise DataError(f"{missing[0]}: no HTMLQuestion file; write the batch with --questions to post it")
    props = batch.properties
    if not (props.get("blimpgen", {}).get("page") or {}).get("contact"):
        raise OptionError(
            f"{batch.folder}: the HIT page names no requester contact; write the batch again with "
            "`blimpgen validate batch ... --contact 'NAME <EMAIL>'` before posting it"
        )
    client = client or make_client(sandbox)
    if not sandbox:
        balance = Decimal(client.get_account_balance()["AvailableBalance"])
        needed = Decimal(props["blimpgen"]["cost"]["total"])
        if balance < needed:
            raise ServiceError(f"account balance ${balance} is below the estimated cost ${needed}")
    rows = []
    for plan in batch.posting_lists():
        qualification = client.create_qualification_type(
            Name=plan.qualification,
            QualificationTypeStatus="Active",
            Description="Already did this list of sentences (blimpgen); keeps a worker off its other copies.",
        )["QualificationType"]["QualificationTypeId"]
        for worker in plan.exclude_workers:
            _grant(client, qualification, worker)
        requirements = [
            *props["QualificationRequirements"],
            {
                "QualificationTypeId": qualification,
                "Comparator": "DoesNotExist",
                "ActionsGuarded": "DiscoverPreviewAndAccept",
            },
        ]
        hit_type = client.create_hit_type(
            AutoApprovalDelayInSeconds=props["AutoApprovalDelayInSeconds"],
            AssignmentDurationInSeconds=props["AssignmentDurationInSeconds"],
            Reward=props["Reward"],
            Title=props["Title"],
            Keywords=props["Keywords"],
            Description=props["Description"],
            QualificationRequirements=requirements,
        )["HITTypeId"]
        for number, code in enumerate(plan.hits):
            hit_id = _create_hit(client, batch, code, hit_type) if number == 0 else ""
            rows.append(
                {
                    "hit_code": code,
                    "list": str(plan.list_index),
                    "HITId": hit_id,
                    "HITTypeId": hit_type,
                    "QualificationTypeId": qualification,
                    "endpoint": endpoint,
                }
            )
    _write_posted(posted, rows)
    return posted


def advance_batch(batch_folder: Path | str, *, client: Any = None) -> tuple[int, int]:
    """One step of the posting loop: grant exclusions, post each list's next replica when its last is done.

    Run it every few minutes until every HIT is posted (``blimpgen validate advance``). Each
    worker with a submitted, approved or rejected assignment on a list gets the list's exclusion
    qualification; a list's next replica goes up once its current one has all its assignments
    submitted, so its workers already hold the qualification when the next one opens.

    Returns:
        ``(workers granted, HITs posted)`` in this step.

    Raises:
        DataError: when the batch was not posted.
    """
    batch = load_batch(batch_folder)
    rows = _read_posted(batch.folder)
    client = client or make_client(sandbox=rows[0]["endpoint"] != PRODUCTION_ENDPOINT)
    granted = posted = 0
    by_list: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_list.setdefault(row["list"], []).append(row)
    for members in by_list.values():
        live = [row for row in members if row["HITId"]]
        done = 0
        for row in live:
            assignments = _assignments(client, row["HITId"])
            for assignment in assignments:
                _grant(client, row["QualificationTypeId"], assignment["WorkerId"])
                granted += 1
            done = len(assignments)
        waiting = [row for row in members if not row["HITId"]]
        if live and waiting and done >= batch.assignments(live[-1]["hit_code"]):
            waiting[0]["HITId"] = _create_hit(client, batch, waiting[0]["hit_code"], waiting[0]["HITTypeId"])
            posted += 1
    _write_posted(batch.folder / POSTED_FILE, rows)
    return granted, posted


def _create_hit(client: Any, batch: LoadedBatch, code: str, hit_type: str) -> str:
    question = (batch.folder / "questions" / f"{code}.xml").read_text(encoding="utf-8")
    response = client.create_hit_with_hit_type(
        HITTypeId=hit_type,
        MaxAssignments=batch.assignments(code),
        LifetimeInSeconds=batch.properties["LifetimeInSeconds"],
        Question=question,
        RequesterAnnotation=code,
        UniqueRequestToken=code[:64],
    )
    return str(response["HIT"]["HITId"])


def _grant(client: Any, qualification: str, worker: str) -> None:
    client.associate_qualification_with_worker(
        QualificationTypeId=qualification, WorkerId=worker, IntegerValue=1, SendNotification=False
    )


def _read_posted(folder: Path) -> list[dict[str, str]]:
    posted = folder / POSTED_FILE
    if not posted.is_file():
        raise DataError(f"{folder}: no {POSTED_FILE}; post the batch with `blimpgen validate batch --post`")
    with posted.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows or not {"hit_code", "HITId", "endpoint"} <= set(rows[0]):
        raise DataError(f"{posted}: damaged; expected columns {', '.join(POSTED_COLUMNS)}")
    return rows


def _write_posted(path: Path, rows: list[dict[str, str]]) -> None:
    text = csv_text(POSTED_COLUMNS, [[row.get(name, "") for name in POSTED_COLUMNS] for row in rows])
    with atomic_writer(path, "wb") as handle:
        handle.write(text.encode("utf-8"))


def fetch_results(batch_folder: Path | str, out: Path | str, *, client: Any = None) -> Path:
    """Download every assignment of a posted batch as an MTurk results CSV.

    Raises:
        DataError: when the batch was not posted (no ``posted.csv``).
    """
    batch = load_batch(batch_folder)
    rows = [row for row in _read_posted(batch.folder) if row["HITId"]]
    client = client or make_client(sandbox=rows[0]["endpoint"] != PRODUCTION_ENDPOINT)
    submissions = []
    for row in rows:
        for assignment in _assignments(client, row["HITId"]):
            submissions.append(_submission(row["hit_code"], assignment))
    return write_results(out, batch, submissions)


def parse_answer_xml(text: str) -> dict[str, str]:
    """Form fields from MTurk's ``QuestionFormAnswers`` XML (namespace-agnostic)."""
    answers: dict[str, str] = {}
    for element in ElementTree.fromstring(text).iter():
        if element.tag.rsplit("}", 1)[-1] != "Answer":
            continue
        name = value = ""
        for child in element:
            tag = child.tag.rsplit("}", 1)[-1]
            if tag == "QuestionIdentifier":
                name = child.text or ""
            elif tag == "FreeText":
                value = child.text or ""
        if name:
            answers[name] = value
    return answers


def _assignments(client: Any, hit_id: str) -> list[dict[str, Any]]:
    found, token = [], None
    while True:
        kwargs = {"HITId": hit_id, "MaxResults": 100, "AssignmentStatuses": STATUSES}
        if token:
            kwargs["NextToken"] = token
        page = client.list_assignments_for_hit(**kwargs)
        found += page.get("Assignments", [])
        token = page.get("NextToken")
        if not token:
            return found


def _submission(code: str, assignment: dict[str, Any]) -> Submission:
    accept, submit = assignment["AcceptTime"], assignment["SubmitTime"]
    return Submission(
        hit_code=code,
        worker_id=assignment["WorkerId"],
        answers=parse_answer_xml(assignment["Answer"]),
        seconds=max(0, round((submit - accept).total_seconds())),
        accept_time=accept.replace(tzinfo=None),
        status=assignment["AssignmentStatus"],
        assignment_id=assignment["AssignmentId"],
    )
