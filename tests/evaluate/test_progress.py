"""Progress of eval: per batch, with rate and ETA; a bar on a terminal, lines in a log; --quiet (issue 16)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from blimpgen.evaluate.progress import Progress

from .tiny import SENTENCES, make_bytelevel_gpt2, run_cli

LINE = re.compile(r"^eval: [\d,]+/[\d,]+ (pair|item)s \(\d+%\), [\d,.]+ (pair|item)s/s, ETA (\d+:\d\d:\d\d|\?)$")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_log_lines_come_after_the_first_batch_then_every_interval():
    stream, clock = io.StringIO(), Clock()
    progress = Progress(1000, "pair", stream=stream, interval=10, tty=False, clock=clock)
    clock.now = 2
    progress.update_to(100)  # the first batch: a line at once
    clock.now = 5
    progress.update_to(250)  # within the interval: none
    clock.now = 12.5
    progress.update_to(500.7)
    progress.update_to(400)  # never back
    clock.now = 20
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines == [
        "eval: 100/1,000 pairs (10%), 50.0 pairs/s, ETA 0:00:18",
        "eval: 500/1,000 pairs (50%), 40.0 pairs/s, ETA 0:00:12",
        "eval: 500/1,000 pairs scored in 0:00:20",
    ]
    assert all(LINE.match(line) for line in lines[:2])


def test_progress_on_a_terminal_is_a_bar():
    stream = io.StringIO()
    progress = Progress(10, "item", stream=stream, tty=True)
    progress.update_to(4)
    assert progress.bar is not None and progress.bar.n == 4
    progress.close()
    assert "eval:" not in stream.getvalue()


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    return make_bytelevel_gpt2(SENTENCES, tmp_path_factory.mktemp("models") / "tiny-gpt2")


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_eval_writes_lines_to_a_log_unless_quiet(
    tiny_model: Path, blimp_data: Path, capsys, monkeypatch, quiet: bool
):
    monkeypatch.setattr("blimpgen.evaluate.progress.LOG_INTERVAL", 0.0)  # a line per batch
    args = [
        "eval",
        "--model",
        str(tiny_model),
        "--device",
        "cpu",
        "--data",
        str(blimp_data),
        "--scorer-option",
        "batch_tokens=16",
        *(["--quiet"] if quiet else []),
    ]
    code, out, err = run_cli(args, capsys)
    assert code == 0 and "acc" in out
    lines = [line for line in err.splitlines() if line.startswith("eval:")]
    if quiet:
        assert lines == []
        return
    assert len(lines) >= 3 and all(LINE.match(line) for line in lines[:-1])
    counts = [int(line.split()[1].split("/")[0]) for line in lines[:-1]]
    assert counts == sorted(counts) and counts[0] < 9  # per batch, not once per chunk of 8,192
    assert lines[-1].startswith("eval: 9/9 pairs scored in ")


# -- per-batch progress of the scorers without batches of their own, and of cloze probes --------
def _hooked(scorer) -> list[float]:
    """Install a batch hook that records the share of the current call reported done."""
    shares: list[float] = []
    scorer.batch_hook = lambda done, total: shares.append(done / total)
    return shares


@pytest.mark.parametrize("kind", ["unigram", "ngram"])
def test_progress_ngram_and_unigram_report_every_query_batch(kind: str, tmp_path: Path):
    from blimpgen.evaluate.scoring.base import QUERY_BATCH, Query
    from blimpgen.evaluate.scoring.scorers.ngram import NgramScorer, train_ngram_file
    from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

    if kind == "unigram":
        scorer = UnigramScorer(counts={"cat": 3, "is": 2})
    else:
        corpus = tmp_path / "corpus.txt"
        corpus.write_text("\n".join(SENTENCES) + "\n")
        train_ngram_file(corpus, tmp_path / "lm.arpa", order=2)
        scorer = NgramScorer(tmp_path / "lm.arpa")
    queries = [Query("", SENTENCES[i % len(SENTENCES)]) for i in range(2 * QUERY_BATCH + 7)]
    shares = _hooked(scorer)
    batched = scorer.score(queries)
    assert shares == [1 / 3, 2 / 3, 1.0]  # one report per batch of QUERY_BATCH queries
    scorer.batch_hook = None
    assert batched == scorer._score(queries)  # batching changes nothing in the scores


def test_progress_eval_with_ngram_moves_within_a_chunk(tmp_path: Path, capsys, monkeypatch):
    from .tiny import AGREEMENT, write_fixture

    monkeypatch.setattr("blimpgen.evaluate.progress.LOG_INTERVAL", 0.0)
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(SENTENCES) + "\n")
    data = tmp_path / "data"
    data.mkdir()
    write_fixture(data, "agreement_1", "subject_verb_agreement", AGREEMENT * 200)  # 1,200 pairs, one chunk
    code, _, err = run_cli(
        ["ngram", "train", str(corpus), "-o", str(tmp_path / "lm.arpa"), "--order", "2", "--unk-cutoff", "1"], capsys
    )
    assert code == 0, err
    args = ["eval", "--scorer", "ngram", "--scorer-option", f"ngram_model={tmp_path / 'lm.arpa'}", "--data", str(data)]
    code, _, err = run_cli(args, capsys)
    assert code == 0, err
    counts = [int(line.split()[1].split("/")[0].replace(",", "")) for line in err.splitlines() if LINE.match(line)]
    assert len(counts) >= 4 and counts == sorted(counts) and counts[0] < 1200  # 2,400 queries, 5 batches


def test_progress_probe_chunk_stages_move_forward(tmp_path: Path):
    """A probe chunk runs blank queries, then top-k blanks, then sentences: progress never restarts."""
    from blimpgen.evaluate.runner import read_data, run_task
    from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer
    from blimpgen.evaluate.tasks import make_task

    from .tiny import ITEMS, write_items

    items = [item for _ in range(300) for item in ITEMS]
    items = [type(item)(**{**vars(item), "item_id": f"{item.UID}-{n:05d}"}) for n, item in enumerate(items)]
    data = read_data([write_items(tmp_path / "items.jsonl", items)])
    task = make_task(data.record_type, {"probe_method": "sentence"})
    stream = io.StringIO()
    progress = Progress(len(items), "item", stream=stream, interval=0, tty=False)
    scorer = UnigramScorer(counts={"is": 3, "dog": 2})
    seen: list[int] = []
    original = progress.update_to
    progress.update_to = lambda done: (seen.append(int(done)), original(done))[1]  # type: ignore[method-assign]
    run_task(task, scorer, data, task.select(data.records), reporter=progress)
    assert seen == sorted(seen) and len(set(seen)) >= 3 and seen[-1] == len(items)


def test_progress_masked_and_causal_cloze_report_their_batches():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from blimpgen.evaluate.scoring.base import BlankQuery
    from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer
    from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

    from .tiny import make_bert, make_gpt2, make_tokenizer

    tokenizer = make_tokenizer("wordlevel")
    words = ["cat", "dog", "child", "doctor", "teacher", "student", "nurse", "boys"]
    queries = [BlankQuery(f"The {w} who the nurses admire ", " tired .", ("is", "are")) for w in words]
    masked = MaskedLMScorer(make_bert(tokenizer), tokenizer, batch_tokens=24)
    shares = _hooked(masked)
    masked.blank(queries, top_k=5)
    assert len(shares) >= 3 and shares == sorted(shares) and shares[-1] == 1.0
    causal = CausalLMScorer(make_gpt2(tokenizer), tokenizer, batch_tokens=24)
    shares = _hooked(causal)
    causal.blank(queries, top_k=5)  # the options' pass, then the next-token pass: one forward progress
    assert len(shares) >= 4 and shares == sorted(shares) and shares[-1] == 1.0
