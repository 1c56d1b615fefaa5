"""blimpgen from Python, in memory: one call to generate, one to score, one to tabulate.

    from blimpgen import api

    pairs = api.generate("regular_plural_subject_verb_agreement_1", n=100, seed=0)
    result = api.evaluate_pairs(pairs, model="gpt2")           # a name, a path or a loaded model
    result.accuracy                                            # pooled over every pair
    result.paradigms()                                         # a pandas DataFrame, one row per paradigm
    api.score_sentences(["The cats annoy Tim.", "The cats annoys Tim."], model="gpt2")

Everything here is a thin layer over the parts the CLI uses (the :class:`Catalog`, the
generation loop, the scorer registry and the evaluation runner), so the numbers are the same
as ``blimpgen gen`` / ``blimpgen eval`` give for the same records and options. Importing this
module imports neither torch nor pandas; they load when a model is scored or a table is built.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from blimpgen.errors import MissingDependencyError, OptionError, SourceLoc
from blimpgen.evaluate.runner import Data, EvalResult, evaluate, read_data, write_results
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.evaluate.scoring.registrations import make_scorer
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_records
from blimpgen.generators.paradigm import Paradigm
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.records import MinimalPair, ProbeItem

__all__ = ["Results", "evaluate_pairs", "generate", "paradigms", "scorer", "score_sentences"]


def paradigms(uids: Sequence[str] | None = None, paradigm_paths: Sequence[str | Path] = ()) -> dict[str, Paradigm]:
    """The paradigms by UID (every one when ``uids`` is None), from the shipped specs and every
    user source (``paradigm_paths``, ``$BLIMPGEN_PARADIGM_PATH``, installed packages).

    Raises:
        SpecErrors: for invalid specs. UnknownNameError: for an unknown UID.
    """
    catalog = Catalog.from_environment(tuple(paradigm_paths))
    built = catalog.build(list(uids) if uids is not None else None, ParadigmSpec)
    return {source.uid: source for source in built}  # type: ignore[misc]


def generate(
    paradigm: str | Paradigm, n: int = 1000, seed: int = 0, paradigm_paths: Sequence[str | Path] = ()
) -> list[MinimalPair]:
    """``n`` unique pairs of one paradigm (a UID or a built :class:`Paradigm`), as ``gen`` writes them.

    Raises:
        GenerationError: when ``n`` unique pairs cannot be made. UnknownNameError: for an unknown UID.
    """
    source = paradigm if isinstance(paradigm, Paradigm) else paradigms([paradigm], paradigm_paths)[paradigm]
    return [record for record, _ in generate_records(source, n, seed)]


def scorer(model: Any, tokenizer: Any = None, kind: str | None = None, **options: Any) -> Scorer:
    """A scorer for ``model``: a model id or local path, or a loaded Hugging Face model (then give
    its ``tokenizer``), or a :class:`Scorer` (returned as is).

    ``kind`` is the scorer's registry name (``hf-causal``, ``hf-masked``, ``ngram``...); left
    out, a loaded model picks by its head (a masked-LM head: ``hf-masked``) and a name picks
    ``hf-causal``. ``options`` are the scorer's own (``blimpgen eval --list-options SCORER``).

    Raises:
        OptionError: for unknown options. ModelLoadError: when the model cannot be loaded.
    """
    if isinstance(model, Scorer):
        if tokenizer is not None or kind is not None or options:
            raise OptionError("a Scorer is used as it is: give no tokenizer, kind or options with it")
        return model
    if kind is None:
        kind = "hf-masked" if "MaskedLM" in type(model).__name__ else "hf-causal"
    if tokenizer is not None:
        options = {**options, "tokenizer": tokenizer}
    return make_scorer(kind, model=model, **options)


def score_sentences(
    sentences: Iterable[str], model: Any, tokenizer: Any = None, kind: str | None = None, **options: Any
) -> list[float]:
    """The log-probability (natural log, summed over tokens; PLL for masked models) of each
    sentence, as ``eval`` scores a pair's sentences with the simple method and ``sum``.

    Raises:
        OptionError, ModelLoadError: as :func:`scorer`; QueryError for a sentence the model cannot read.
    """
    texts = list(sentences)
    if any(not isinstance(text, str) for text in texts):
        raise OptionError("score_sentences takes strings")
    return [scores.total for scores in scorer(model, tokenizer, kind, **options).score_texts(texts)]


@dataclass(frozen=True)
class Results:
    """An evaluation's results, with pandas tables (pandas is imported when a table is asked for).

    Attributes:
        result: the runner's :class:`~blimpgen.evaluate.runner.EvalResult` (rows, summary, options).
    """

    result: EvalResult

    @property
    def accuracy(self) -> float:
        """Pooled accuracy over every pair (ties count as the tie policy says)."""
        rows = self.result.rows
        return sum(row.correct for row in rows) / len(rows)

    @property
    def options(self) -> dict[str, Any]:
        """What produced the scores (scorer, model, method, ...), as ``results.json`` records it."""
        return dict(self.result.options)

    def pairs(self) -> Any:
        """One row per scored pair (``pairs.jsonl``'s fields) as a ``pandas.DataFrame``."""
        return _frame([asdict(row) for row in self.result.rows])

    def paradigms(self) -> Any:
        """One row per paradigm: accuracy and its Wilson interval, indexed by UID."""
        summary = self.result.summary
        table = getattr(summary, "paradigms", None)
        if table is None:
            raise OptionError("paradigms() is for minimal pairs; use pairs() for probe items")
        return _frame([{"UID": uid, **asdict(row)} for uid, row in table.items()]).set_index("UID")

    def write(self, out: str | Path) -> list[Path]:
        """Write ``results.json`` and the CSV files as ``blimpgen eval -o`` does."""
        return write_results(self.result, out)


def evaluate_pairs(
    pairs: Iterable[MinimalPair] | str | Path,
    model: Any,
    tokenizer: Any = None,
    kind: str | None = None,
    method: str = "full-sentence",
    reduction: str = "sum",
    task_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> Results:
    """Score minimal pairs (records in memory, or a JSONL file or folder) with ``model``.

    ``method`` and ``reduction`` are BLiMP's (``full-sentence``, ``one-prefix``, ``two-prefix``;
    ``sum``, ``mean``...); ``task_options`` any other pair option of ``eval``; ``options`` go to
    the scorer (see :func:`scorer`).

    Raises:
        DataError: for bad records. OptionError: for bad options. ResultError: when every pair ties.
    """
    if isinstance(pairs, (str, Path)):
        data = read_data(pairs)
    else:
        records = list(pairs)
        if not records or not all(isinstance(r, (MinimalPair, ProbeItem)) for r in records):
            raise OptionError("evaluate_pairs takes a non-empty list of MinimalPair (or a JSONL path)")
        kinds = {type(r) for r in records}
        if len(kinds) > 1:
            raise OptionError("evaluate_pairs takes records of one type")
        located = [(record, SourceLoc("<memory>", index + 1)) for index, record in enumerate(records)]
        data = Data(kinds.pop(), located, [])
    settings = {"method": method, "reduction": reduction, **(task_options or {})}
    return Results(evaluate(scorer(model, tokenizer, kind, **options), data, settings))


def _frame(rows: list[dict[str, Any]]) -> Any:
    try:
        import pandas
    except ImportError:
        raise MissingDependencyError("tables need pandas: pip install 'blimpgen[export]' (or pandas)") from None
    return pandas.DataFrame(rows)
