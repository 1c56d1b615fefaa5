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
from blimpgen.validate.batch import load_batch
from blimpgen.validate.simulate import Submission, write_results

SANDBOX_ENDPOINT = "https://mturk-requester-sandbox.us-east-1.amazonaws.com"
PRODUCTION_ENDPOINT = "https://mturk-requester.us-east-1.amazonaws.com"
POSTED_FILE = "posted.csv"
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
    """Create one HIT type and every HIT of a batch; record HIT ids in ``posted.csv``.

    Args:
        batch_folder: a batch written with ``questions=True`` (``questions/<hit>.xml``).
        sandbox: post to the worker sandbox (default) instead of the real marketplace.
        client: an MTurk client; made with :func:`make_client` when omitted.

    Returns:
        The path of ``posted.csv`` (``hit_code, HITId, HITTypeId, endpoint``).

    Raises:
        DataError: missing question files or a damaged batch.
        OptionError: a batch already posted there.
        ServiceError: too little balance.
    """
    batch = load_batch(batch_folder)
    endpoint = SANDBOX_ENDPOINT if sandbox else PRODUCTION_ENDPOINT
    posted = batch.folder / POSTED_FILE
    if posted.exists():
        raise OptionError(f"{posted}: this batch was already posted; delete the file only if its HITs are gone")
    questions = {code: batch.folder / "questions" / f"{code}.xml" for code in batch.hits}
    missing = [str(path) for path in questions.values() if not path.is_file()]
    if missing:
        raise DataError(f"{missing[0]}: no HTMLQuestion file; write the batch with --questions to post it")
    client = client or make_client(sandbox)
    props = batch.properties
    if not sandbox:
        balance = Decimal(client.get_account_balance()["AvailableBalance"])
        needed = Decimal(props["blimpgen"]["cost"]["total"])
        if balance < needed:
            raise ServiceError(f"account balance ${balance} is below the estimated cost ${needed}")
    hit_type = client.create_hit_type(
        AutoApprovalDelayInSeconds=props["AutoApprovalDelayInSeconds"],
        AssignmentDurationInSeconds=props["AssignmentDurationInSeconds"], Reward=props["Reward"],
        Title=props["Title"], Keywords=props["Keywords"], Description=props["Description"],
        QualificationRequirements=props["QualificationRequirements"])["HITTypeId"]
    rows = []
    for code, path in questions.items():
        response = client.create_hit_with_hit_type(
            HITTypeId=hit_type, MaxAssignments=batch.assignments_per_hit,
            LifetimeInSeconds=props["LifetimeInSeconds"], Question=path.read_text(encoding="utf-8"),
            RequesterAnnotation=code, UniqueRequestToken=code[:64])
        rows.append((code, response["HIT"]["HITId"], hit_type, endpoint))
    text = csv_text(["hit_code", "HITId", "HITTypeId", "endpoint"], rows)
    with atomic_writer(posted, "wb") as handle:
        handle.write(text.encode("utf-8"))
    return posted


def fetch_results(batch_folder: Path | str, out: Path | str, *, client: Any = None) -> Path:
    """Download every assignment of a posted batch as an MTurk results CSV.

    Raises:
        DataError: when the batch was not posted (no ``posted.csv``).
    """
    batch = load_batch(batch_folder)
    posted = batch.folder / POSTED_FILE
    if not posted.is_file():
        raise DataError(f"{batch.folder}: no {POSTED_FILE}; post the batch with `blimpgen validate batch --post`")
    with posted.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
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
        hit_code=code, worker_id=assignment["WorkerId"], answers=parse_answer_xml(assignment["Answer"]),
        seconds=max(0, round((submit - accept).total_seconds())), accept_time=accept.replace(tzinfo=None),
        status=assignment["AssignmentStatus"], assignment_id=assignment["AssignmentId"])
