"""Run an evaluation: read BLiMP-schema JSONL, score pairs, judge them, write results.

Output folder (every file names the options that produced it; all are written only after
everything is scored, each atomically, so a failed run leaves no partial result):

* ``pairs.jsonl``: one line per pair: scores, log-probabilities, token counts, ``correct``.
* ``results.json``: options, overall / per-phenomenon / per-paradigm accuracy with intervals.
* ``results.csv``: the same accuracies, one row per paradigm, phenomenon and overall.

Under ``accelerate launch`` (or any launcher that sets ``WORLD_SIZE``) every process scores
its own shard of the pairs; results are gathered and the main process writes them.

Data whose records are probe items (:mod:`blimpgen.records.item`) is evaluated as probes
by :mod:`blimpgen.evaluate.probe_run` (``items.jsonl`` instead of ``pairs.jsonl``). One run
evaluates one kind: ``--data`` that mixes pair files and item files is an error, since the
two kinds have different result tables and one ``results.json`` holds one of them.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blimpgen import __version__
from blimpgen._io import atomic_writer, data_files
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.scoring.base import QueryError, Scorer, TokenScores
from blimpgen.evaluate.checks import check_not_all_ties
from blimpgen.evaluate.distributed import distributed, run_shards
from blimpgen.evaluate.scoring.methods import check_method, make_queries, method_applies
from blimpgen.evaluate.metrics import TIE_POLICIES, Outcome, judge, summarize
from blimpgen.evaluate.scoring.reductions import check_reduction, reduce_scores
from blimpgen.evaluate.scoring.scorers.unigram import UnigramModel, read_corpus_lines
from blimpgen.records.jsonl import file_holds_items, read_located
from blimpgen.records.pair import MinimalPair

if TYPE_CHECKING:
    from blimpgen.evaluate.probe_run import ProbeResult
    from blimpgen.evaluate.probes import ProbeOptions

CHUNK_PAIRS = 8192  # pairs handed to a scorer at once: large enough for good length sorting


@dataclass(frozen=True)
class EvalOptions:
    """How pairs are compared; every field is written into every result file.

    Args:
        method: ``full-sentence``, ``one-prefix`` or ``two-prefix``.
        reduction: ``sum`` (BLiMP), ``mean`` or ``slor``.
        tie: how an exact tie counts: ``wrong`` (BLiMP: good must score higher), ``half``, ``right``.
        unigram_corpus: plain-text corpus for SLOR's unigram model (counted in the scorer's tokens).
        limit: score at most this many pairs per paradigm (first ones in file order).
        save_tokens: also write each token and its log-probability to ``pairs.jsonl``.
    """

    method: str = "full-sentence"
    reduction: str = "sum"
    tie: str = "wrong"
    unigram_corpus: str | None = None
    limit: int | None = None
    save_tokens: bool = False


@dataclass
class EvalResult:
    """What an evaluation produced: options, per-pair records and accuracy tables."""

    options: dict[str, Any]
    pairs: list[dict[str, Any]]
    summary: dict[str, Any]
    skipped: list[str] = field(default_factory=list)


def load_pairs(data: str | Path | Sequence[str | Path]) -> list[tuple[MinimalPair, str]]:
    """Every pair in a JSONL file, a folder of them, or a list of either, with its ``file:line``.

    Raises:
        BlimpgenError: for missing files, bad JSON or missing fields (``file:line``).
    """
    paths = [data] if isinstance(data, (str, Path)) else list(data)
    files = [file for path in paths for file in data_files(path)]
    pairs = [(pair, str(where)) for file in files for pair, where in read_located(file, MinimalPair)]
    if not pairs:
        raise DataError(f"{', '.join(str(f) for f in files)}: no pairs to evaluate")
    return pairs


def select_pairs(pairs: list[tuple[MinimalPair, str]], method: str,
                 limit: int | None = None) -> tuple[list[tuple[MinimalPair, str]], list[str]]:
    """Keep the pairs ``method`` applies to (at most ``limit`` per paradigm); list skipped paradigms.

    Raises:
        BlimpgenError: when no paradigm supports the method.
    """
    flag = check_method(method)
    kept, skipped, seen = [], set(), {}
    for pair, file in pairs:
        if not method_applies(pair, method):
            skipped.add(pair.UID)
            continue
        seen[pair.UID] = seen.get(pair.UID, 0) + 1
        if limit is None or seen[pair.UID] <= limit:
            kept.append((pair, file))
    if not kept:
        uids = sorted({p.UID for p, _ in pairs})
        raise OptionError(f"--method {method}: none of the {len(uids)} paradigms in the data supports it "
                          f"({flag} is false everywhere); use --method full-sentence")
    skipped -= {p.UID for p, _ in kept}
    return kept, sorted(skipped)


def _file_of(where: str) -> str:
    """The file of a ``file:line`` location."""
    file, _, line = where.rpartition(":")
    return file if file and line.isdigit() else where


def _side(method: str, bad: bool) -> str:
    if method == "full-sentence":
        return "sentence_bad" if bad else "sentence_good"
    return f"the {'bad' if bad else 'good'} {method} continuation"


def _score_chunk(scorer: Scorer, pairs: list[tuple[MinimalPair, str]], queries: list, method: str
                 ) -> list[tuple[TokenScores, TokenScores]]:
    """Score one chunk; a query the scorer refuses, or one of 0 tokens, is an error naming its pair.

    Raises:
        BlimpgenError: ``file:line: pair ID: sentence_good ...``.
    """
    def name(index: int) -> str:
        pair, where = pairs[index]
        return f"{where}: pair {pair.pair_id or f'{pair.UID}-{pair.pairID}'}"

    try:
        scored = scorer.score_pairs(queries)
    except QueryError as exc:
        raise DataError(f"{name(exc.index // 2)}: {_side(method, bool(exc.index % 2))} {exc.problem}") from None
    for index, (good, bad) in enumerate(scored):
        for is_bad, scores in ((False, good), (True, bad)):
            if not len(scores):
                text = queries[index][is_bad].text
                raise DataError(f"{name(index)}: {_side(method, is_bad)} {text[:60]!r} is 0 tokens for scorer "
                                    f"{scorer.name!r}, so it has no score; fix the sentence, or check the model's "
                                    "tokenizer")
    return scored


def evaluate_pairs(scorer: Scorer, pairs: list[tuple[MinimalPair, str]], options: EvalOptions,
                   progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Score and judge pairs; return one JSON-ready record per pair, in input order.

    Raises:
        BlimpgenError: naming the pair (``file:line``) when one of its texts is 0 tokens or
            cannot be scored (e.g. longer than the model's context).
    """
    unigram = None
    if options.reduction == "slor":
        unigram = UnigramModel.train(read_corpus_lines(options.unigram_corpus or ""), scorer.tokenize)
    check_reduction(options.reduction, unigram)
    queries = [make_queries(pair, options.method, file) for pair, file in pairs]
    stamp = _stamp(scorer, options)
    records = []
    for begin in range(0, len(pairs), CHUNK_PAIRS):
        scored = _score_chunk(scorer, pairs[begin:begin + CHUNK_PAIRS], queries[begin:begin + CHUNK_PAIRS],
                              options.method)
        for (pair, _), (good, bad) in zip(pairs[begin:begin + CHUNK_PAIRS], scored):
            score_good = reduce_scores(good, options.reduction, unigram)
            score_bad = reduce_scores(bad, options.reduction, unigram)
            record = {"pair_id": pair.pair_id or f"{pair.UID}-{pair.pairID}", "UID": pair.UID,
                      "phenomenon": pair.linguistics_term or pair.UID, "field": pair.field,
                      "sentence_good": pair.sentence_good, "sentence_bad": pair.sentence_bad,
                      "score_good": score_good, "score_bad": score_bad,
                      "logprob_good": good.total, "logprob_bad": bad.total,
                      "tokens_good": len(good), "tokens_bad": len(bad),
                      "correct": judge(score_good, score_bad, options.tie), "tie": score_good == score_bad,
                      **stamp}
            if options.save_tokens:
                record.update(token_scores_good=list(zip(good.tokens, good.logprobs)),
                              token_scores_bad=list(zip(bad.tokens, bad.logprobs)))
            records.append(record)
        if progress is not None:
            progress(len(scored))
    return records


def _stamp(scorer: Scorer, options: EvalOptions) -> dict[str, Any]:
    settings = scorer.options()
    return {"model": settings.get("model") or settings.get("ngram_model") or settings.get("corpus"),
            "scorer": scorer.name, "method": options.method, "reduction": options.reduction,
            "tie_policy": options.tie, "first_token": settings.get("first_token")}


def check_options(options: EvalOptions) -> None:
    """Reject bad options before any model is loaded.

    Raises:
        BlimpgenError: naming the bad option and the valid values.
    """
    check_method(options.method)
    if options.reduction == "slor" and not options.unigram_corpus:
        raise OptionError("reduction 'slor' needs a unigram model: pass --unigram-corpus FILE")
    check_reduction(options.reduction, UnigramModel({}) if options.unigram_corpus else None)
    if options.tie not in TIE_POLICIES:
        raise OptionError(f"unknown tie policy {options.tie!r}; expected one of: {', '.join(TIE_POLICIES)}")
    if options.limit is not None and options.limit < 1:
        raise OptionError(f"--limit must be at least 1, got {options.limit}")


def evaluate(scorer: Scorer, data: str | Path | Sequence[str | Path], options: EvalOptions = EvalOptions(),
             progress: Callable[[int], None] | None = None) -> EvalResult:
    """Evaluate ``scorer`` on BLiMP-schema data; shard over processes when launched distributed.

    Raises:
        BlimpgenError: for bad data or options (before any scoring).
    """
    check_options(options)
    loaded = load_pairs(data)
    pairs, skipped = select_pairs(loaded, options.method, options.limit)
    rank, world, gather = distributed()
    records = run_shards(lambda: evaluate_pairs(scorer, pairs[rank::world], options, progress), rank, world, gather)
    check_not_all_ties(records, "pair", scorer)
    summary = summarize(Outcome(r["UID"], r["phenomenon"], r["field"], r["correct"]) for r in records)
    files = sorted({_file_of(where) for _, where in loaded})
    settings = {**scorer.options(), **asdict(options), "tie_policy": options.tie, "data": files,
                "n_pairs": len(records), "skipped_paradigms": skipped, "processes": world,
                "blimpgen_version": __version__}
    settings.pop("tie")
    return EvalResult(settings, records, summary, skipped)


def is_main_process() -> bool:
    """False on every process but the first of a distributed launch."""
    return int(os.environ.get("RANK", "0")) == 0


CSV_COLUMNS = ("level", "name", "phenomenon", "field", "n_paradigms", "n_pairs", "accuracy", "ci_low", "ci_high",
               "model", "scorer", "method", "reduction", "tie_policy", "first_token")


def write_results(result: EvalResult, out: str | Path) -> list[Path]:
    """Write ``pairs.jsonl``, ``results.json`` and ``results.csv`` into ``out``; return their paths."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OptionError(f"{out}: --out must be a folder, not a file")
    pairs_text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in result.pairs)
    json_text = json.dumps({"options": result.options, **result.summary}, indent=2, ensure_ascii=False) + "\n"
    csv_text = _csv_text(result)
    written = []
    for name, text in (("pairs.jsonl", pairs_text), ("results.json", json_text), ("results.csv", csv_text)):
        with atomic_writer(out / name) as handle:
            handle.write(text)
        written.append(out / name)
    return written


def _csv_text(result: EvalResult) -> str:
    stamp = {k: result.options.get(k) for k in ("model", "scorer", "method", "reduction", "tie_policy",
                                                "first_token")}
    stamp["model"] = stamp["model"] or result.options.get("ngram_model") or result.options.get("corpus")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    summary = result.summary
    writer.writerow({"level": "overall", "name": "overall", **_numbers(summary["overall"]), **stamp})
    for name, row in summary["phenomena"].items():
        writer.writerow({"level": "phenomenon", "name": name, "phenomenon": name, **_numbers(row), **stamp})
    for uid, row in summary["paradigms"].items():
        writer.writerow({"level": "paradigm", "name": uid, "phenomenon": row["phenomenon"], "field": row["field"],
                         "n_paradigms": 1, **_numbers(row), **stamp})
    return buffer.getvalue()


def _numbers(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("n_paradigms", "n_pairs", "accuracy", "ci_low", "ci_high")
    return {k: (round(row[k], 6) if isinstance(row.get(k), float) else row.get(k)) for k in keys if k in row}


def format_table(result: EvalResult | ProbeResult, paradigms: bool = False) -> str:
    """A plain-text table: accuracy [95% CI] per phenomenon (and paradigm), then overall.

    For a probe result: every probe metric, with suites (and groups) for ``paradigms``.
    """
    if getattr(result, "kind", "pairs") == "probes":
        from blimpgen.evaluate.probe_run import format_probe_table

        return format_probe_table(result, suites=paradigms)  # type: ignore[arg-type]
    assert isinstance(result, EvalResult)
    summary = result.summary
    rows = [(name, row) for name, row in summary["phenomena"].items()]
    if paradigms:
        rows += [(f"  {uid}", row) for uid, row in summary["paradigms"].items()]
    width = max([len(name) for name, _ in rows] + [len("overall (mean of paradigms)")])
    lines = [f"{'':{width}}  {'acc':>6}  {'95% CI':>15}  {'pairs':>7}"]
    for name, row in rows + [("overall (mean of paradigms)", summary["overall"])]:
        lines.append(f"{name:{width}}  {100 * row['accuracy']:6.1f}  "
                     f"[{100 * row['ci_low']:5.1f}, {100 * row['ci_high']:5.1f}]  {row['n_pairs']:7d}")
    options = result.options
    lines.append(f"model={options.get('model') or options.get('ngram_model')} scorer={options.get('scorer')} "
                 f"method={options['method']} reduction={options['reduction']} tie={options['tie_policy']} "
                 f"first_token={options.get('first_token')}")
    if result.skipped:
        lines.append(f"skipped (method does not apply): {', '.join(result.skipped)}")
    return "\n".join(lines)


def data_kind(data: str | Path | Sequence[str | Path]) -> str:
    """``items`` when the data files hold probe items, ``pairs`` when they hold minimal pairs.

    A file's first record decides; empty files count as neither.

    Raises:
        BlimpgenError: for missing paths, or files of both kinds (naming one of each).
    """
    paths = [data] if isinstance(data, (str, Path)) else list(data)
    kinds: dict[str, Path] = {}
    for file in (file for path in paths for file in data_files(path)):
        if file_holds_items(file):
            kinds.setdefault("items", file)
        elif _has_records(file):
            kinds.setdefault("pairs", file)
    if len(kinds) > 1:
        raise OptionError(f"--data mixes minimal pairs ({kinds['pairs']}) and probe items ({kinds['items']}); "
                          "evaluate them in separate runs, each with its own --out folder")
    return next(iter(kinds), "pairs")


def _has_records(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as handle:
            return any(line.strip() for line in handle)
    except OSError:
        return True  # let the reader report it


def _check_kind_options(kind: str, options: EvalOptions, probe_options: ProbeOptions | None) -> None:
    from blimpgen.evaluate.probes import ProbeOptions

    if kind == "items":
        for name, flag in (("method", "--method"), ("reduction", "--reduction"), ("save_tokens", "--save-tokens")):
            if getattr(options, name) != getattr(EvalOptions(), name):
                raise OptionError(f"{flag} applies to minimal pairs, but --data holds probe items; "
                                  "probes take --probe-method, --top-k and --sensitivity-margin")
    elif probe_options is not None:
        for name, flag in (("probe_method", "--probe-method"), ("top_k", "--top-k"),
                           ("margin", "--sensitivity-margin")):
            if getattr(probe_options, name) != getattr(ProbeOptions(), name):
                raise OptionError(f"{flag} applies to probe items, but --data holds minimal pairs")


def run_eval(scorer_name: str, scorer_options: dict[str, Any], data: Sequence[str | Path],
             out: str | Path | None, options: EvalOptions, show_progress: bool = False,
             probe_options: ProbeOptions | None = None) -> EvalResult | ProbeResult:
    """Build the scorer, evaluate, write the results (main process only); the ``eval`` command.

    Probe items are evaluated with ``probe_options`` (``tie`` and ``limit`` from ``options``
    unless given), minimal pairs with ``options``.

    Raises:
        BlimpgenError: for bad options, data, model or tokenizer, before anything is written.
    """
    from blimpgen.evaluate.scoring.registrations import make_scorer

    kind = data_kind(data)
    _check_kind_options(kind, options, probe_options)
    if kind == "items":
        from blimpgen.evaluate.probe_run import (
            evaluate_probes,
            load_items,
            select_items,
            write_probe_results,
        )
        from blimpgen.evaluate.probes import ProbeOptions, check_probe_options

        probe_options = probe_options or ProbeOptions(tie=options.tie, limit=options.limit)
        check_probe_options(probe_options)
        total = len(select_items(load_items(data), probe_options.limit))  # bad data fails here, early
    else:
        check_options(options)
        total = len(select_pairs(load_pairs(data), options.method, options.limit)[0])  # bad data fails here, early
    if (int(os.environ.get("WORLD_SIZE", "1")) > 1 and scorer_name.startswith("hf-")
            and not {"device", "device_map"} & set(scorer_options)):
        import torch

        if torch.cuda.is_available():  # one GPU per process
            scorer_options = {**scorer_options, "device": f"cuda:{os.environ.get('LOCAL_RANK', '0')}"}
    scorer = make_scorer(scorer_name, **scorer_options)
    progress = None
    if show_progress and is_main_process() and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=total, unit="item" if kind == "items" else "pair", file=sys.stderr, leave=False)
        progress = bar.update
    if kind == "items":
        probes = evaluate_probes(scorer, data, probe_options, progress)  # type: ignore[arg-type]
        if out is not None and is_main_process():
            write_probe_results(probes, out)
        return probes
    result = evaluate(scorer, data, options, progress)
    if out is not None and is_main_process():
        write_results(result, out)
    return result
