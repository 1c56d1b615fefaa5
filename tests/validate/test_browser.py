"""The HIT page in a real browser (Debian's chromium driven by Playwright, no network).

Answers are submitted to a local capture server standing in for MTurk's externalSubmit,
turned into an MTurk results CSV, and read back by ingest to the figures the answers imply.
Skips with a reason when /usr/bin/chromium or the playwright package is missing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qsl, urlencode

import pytest

from blimpgen.validate.batch import LoadedBatch, load_batch, write_batch
from blimpgen.validate.design import BatchOptions
from blimpgen.validate.ingest import ingest
from blimpgen.validate.page import fill
from blimpgen.validate.simulate import Submission, write_results

from .conftest import write_jsonl

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)", allow_module_level=True
    )
try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:
    pytest.skip(
        "playwright is not installed: pip install playwright (never `playwright install`)", allow_module_level=True
    )

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PREVIEW = "ASSIGNMENT_ID_NOT_AVAILABLE"
HOSTILE_A = [
    ('It\'s "quoted" & <b>bold</b> here, friend.', 'It\'s "quoted" & <b>bold</b> here, friends friend.'),
    (
        "She said </span><script>window.pwned = 1</script> loudly today.",
        "She say </span><script>window.pwned = 1</script> loudly today.",
    ),
    ("Tom & Ann's <i>dog</i> barks at night.", "Tom & Ann's <i>dog</i> bark at night."),
    ("The ]]> marker isn't a problem ${s1_a} here.", "The ]]> marker aren't a problem ${s1_a} here."),
    ("Who said 'hello' to the new teacher?", "Who said 'hello' to the new teachers teacher?"),
    ("A cat with \U0001f600 on it is sleeping.", "A cat with \U0001f600 on it are sleeping."),
]
HOSTILE_B = [
    (f"The {noun} near the old gate {verb} loudly.", f"The {noun} near the old gate {bad} loudly.")
    for noun, verb, bad in [
        ("dog", "barks", "bark"),
        ("bird", "sings", "sing"),
        ("child", "laughs", "laugh"),
        ("baby", "cries", "cry"),
        ("owl", "hoots", "hoot"),
        ("goat", "bleats", "bleat"),
    ]
]


class _Capture(BaseHTTPRequestHandler):
    """Serves files under ``root`` and records form posts (MTurk's externalSubmit stand-in)."""

    root: Path = Path(".")
    posts: ClassVar[list[list[tuple[str, str]]]] = []

    def do_GET(self) -> None:
        path = (self.root / self.path.split("?")[0].lstrip("/")).resolve()
        if not path.is_file() or self.root.resolve() not in path.parents:
            self.send_error(404)
            return
        body = path.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        fields = parse_qsl(self.rfile.read(length).decode("utf-8"), keep_blank_values=True)
        type(self).posts.append(fields)
        body = b"<!DOCTYPE html><p>submitted</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _Capture.root = tmp_path_factory.mktemp("site")
    _Capture.posts = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Capture)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(scope="module")
def batch(server: str) -> LoadedBatch:
    root = _Capture.root
    write_jsonl(root / "data", "hostile_a", HOSTILE_A)
    write_jsonl(root / "data", "hostile_b", HOSTILE_B)
    write_batch(root / "data", root / "hits", BatchOptions(pairs_per_paradigm=3, judgments=4, items_per_hit=3, seed=2))
    return load_batch(root / "hits")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context()
    blocked: list[str] = []

    def route(request_route) -> None:
        url = request_route.request.url
        if url.startswith(server):
            request_route.continue_()
        else:
            blocked.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    yield page
    context.close()
    assert blocked == [], f"the page tried to reach the network: {blocked}"


def _open(page: Page, server: str, code: str, **params: str) -> None:
    page.goto(f"{server}/hits/preview/{code}.html?{urlencode(params)}")


def _work(page: Page, server: str, code: str, worker: str) -> None:
    _open(
        page,
        server,
        code,
        assignmentId=f"ASG-{code}-{worker}",
        hitId=f"HIT-{code}",
        workerId=worker,
        turkSubmitTo=server,
    )


def _answer(page: Page, batch: LoadedBatch, code: str, *, wrong_uid: str = "", fail_check: bool = False) -> None:
    for item in batch.hits[code].items:
        wrong = (item.kind == "real" and item.uid == wrong_uid) or (item.kind == "check" and fail_check)
        value = item.good_position if not wrong else 3 - item.good_position
        page.check(f'input[name="q{item.slot}"][value="{value}"]')
    page.check('input[name="native"][value="yes"]')


def _submit(page: Page) -> dict[str, str]:
    before = len(_Capture.posts)
    with page.expect_response(lambda response: "/mturk/externalSubmit" in response.url):
        page.click("#submitButton")
    assert len(_Capture.posts) == before + 1
    return dict(_Capture.posts[-1])


def test_browser_preview_mode_disables_everything(page: Page, server: str, batch: LoadedBatch) -> None:
    code = next(iter(batch.hits))
    _open(page, server, code, assignmentId=PREVIEW, hitId="HIT1")
    assert page.is_visible("#bg-preview-note")
    inputs = page.locator("#blimpgen-hit input, #blimpgen-hit textarea")
    assert inputs.count() > 0
    assert all(inputs.nth(i).is_disabled() for i in range(inputs.count()))
    assert page.is_disabled("#submitButton")


def test_browser_radio_groups_required_and_counter(page: Page, server: str, batch: LoadedBatch) -> None:
    code = next(iter(batch.hits))
    _work(page, server, code, "WREQ")
    assert not page.is_visible("#bg-preview-note")
    names = page.eval_on_selector_all(
        "#mturk_form input[type=radio]", "els => [...new Set(els.filter(e => e.form).map(e => e.name))]"
    )
    slots = len(batch.hits[code].items)
    assert names == [f"q{slot}" for slot in range(1, slots + 1)] + ["native"]
    assert page.eval_on_selector_all(
        "#mturk_form input[type=radio]", "els => els.filter(e => e.form).every(e => e.required)"
    )
    values = page.eval_on_selector_all('input[name="q1"]', "els => els.map(e => e.value)")
    assert values == ["1", "2"]
    assert page.text_content("#bg-answered") == "0"
    page.check('input[name="q1"][value="2"]')
    page.check('input[name="q2"][value="1"]')
    page.check('input[name="q2"][value="2"]')
    assert page.text_content("#bg-answered") == "2"
    before = len(_Capture.posts)
    page.click("#submitButton")  # the browser's own validation stops it
    page.wait_for_timeout(300)
    assert len(_Capture.posts) == before
    assert page.evaluate("document.getElementById('mturk_form').checkValidity()") is False


def test_browser_honeypot_hidden_and_practice_not_sent(page: Page, server: str, batch: LoadedBatch) -> None:
    code = next(iter(batch.hits))
    _work(page, server, code, "WPRACTICE")
    honeypot = page.locator('input[name="homepage"]')
    assert honeypot.count() == 1 and not honeypot.is_visible()
    page.check('input[name="bg_practice"][value="2"]')
    assert "Not quite" in page.text_content("#bg-practice-feedback")
    page.check('input[name="bg_practice"][value="1"]')
    assert "Right" in page.text_content("#bg-practice-feedback")
    _answer(page, batch, code)
    fields = _submit(page)
    assert "bg_practice" not in fields
    assert fields["homepage"] == "" and fields["assignmentId"] == f"ASG-{code}-WPRACTICE"
    assert fields["hit_code"] == code and float(fields["elapsed_s"]) >= 0
    assert set(fields) == {
        "assignmentId",
        "hit_code",
        "native",
        "homepage",
        "elapsed_s",
        "comments",
        *(f"q{item.slot}" for item in batch.hits[code].items),
    }
    _Capture.posts.pop()


def test_browser_hostile_sentences_render_as_text(page: Page, server: str, batch: LoadedBatch) -> None:
    for code, hit in batch.hits.items():
        _work(page, server, code, "WESC")
        shown = page.locator("fieldset.bg-item .bg-sentence").all_text_contents()
        assert shown == [sentence for item in hit.items for sentence in item.options]
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert (
            page.locator(
                "#blimpgen-hit fieldset.bg-item b, #blimpgen-hit fieldset.bg-item i, "
                "#blimpgen-hit fieldset.bg-item script"
            ).count()
            == 0
        )


def test_browser_layout_inside_an_mturk_style_form(page: Page, server: str, batch: LoadedBatch) -> None:
    """layout.html as MTurk's requester site serves it: raw ${} substitution inside MTurk's own form."""
    code, row = next(iter(batch.hits)), batch.batch_rows()[0]
    layout = (batch.folder / "layout.html").read_text(encoding="utf-8")
    wrapper = (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
        f'<form name="mturk_form" method="post" id="mturk_form" action="{server}/mturk/externalSubmit">'
        f'<input type="hidden" value="ASG-LAYOUT" name="assignmentId" id="assignmentId">{fill(layout, row)}'
        f'<p><input type="submit" id="submitButton" value="Submit"></p></form></body></html>'
    )
    (_Capture.root / "hits" / "wrapped.html").write_text(wrapper, encoding="utf-8")
    page.goto(f"{server}/hits/wrapped.html?assignmentId=ASG-LAYOUT&hitId=H&workerId=WL")
    hit = batch.hits[code]
    assert page.locator("fieldset.bg-item .bg-sentence").all_text_contents() == [
        s for item in hit.items for s in item.options
    ]
    _answer(page, batch, code)
    fields = _submit(page)
    assert fields["assignmentId"] == "ASG-LAYOUT" and fields["hit_code"] == code and fields["elapsed_s"]
    _Capture.posts.pop()
    page.goto(f"{server}/hits/wrapped.html?assignmentId={PREVIEW}&hitId=H")
    assert page.is_disabled('input[name="q1"][value="1"]') and page.is_disabled("#submitButton")


def test_browser_answers_become_results_ingest_reads(
    page: Page, server: str, batch: LoadedBatch, tmp_path: Path
) -> None:
    """Four workers per HIT: right, wrong on hostile_b, failing the check, and a bot in the honeypot."""
    _Capture.posts.clear()
    submissions = []
    for code in batch.hits:
        for worker, wrong_uid, fail_check, bot in [
            ("W1", "", False, False),
            ("W2", "hostile_b", False, False),
            ("W3", "", True, False),
            ("W4", "", False, True),
        ]:
            _work(page, server, code, worker)
            _answer(page, batch, code, wrong_uid=wrong_uid, fail_check=fail_check)
            if bot:
                page.evaluate("document.querySelector('input[name=homepage]').value = 'http://spam.example'")
            fields = _submit(page)
            assignment = fields.pop("assignmentId")
            submissions.append(
                Submission(
                    hit_code=fields["hit_code"], worker_id=worker, answers=fields, seconds=90, assignment_id=assignment
                )
            )
    results = write_results(tmp_path / "Batch_1_results.csv", batch, submissions)
    analysis = ingest(batch.folder, [results])
    assert analysis.n_rows == 4 * len(batch.hits)
    reasons = {(s.row.worker_id, s.reasons_at(analysis.threshold)) for s in analysis.screened}
    assert reasons == {("W1", ()), ("W2", ()), ("W3", ("failed_attention",)), ("W4", ("honeypot",))}
    paradigms = {p.uid: p for p in analysis.paradigms}
    assert (paradigms["hostile_a"].human_accuracy, paradigms["hostile_a"].individual_accuracy) == (1.0, 1.0)
    assert (paradigms["hostile_b"].human_accuracy, paradigms["hostile_b"].individual_accuracy) == (0.0, 0.5)
    assert paradigms["hostile_a"].passed and not paradigms["hostile_b"].passed
    assert analysis.overall.aggregate == 0.5 and analysis.overall.individual == 0.75
