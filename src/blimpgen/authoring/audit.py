"""``blimpgen audit``: shallow cues that let a model pass a paradigm without the grammar.

For N generated pairs of a paradigm it measures, each as a forced-choice accuracy (which
sentence of a pair is the good one?) so every number reads like an LM's BLiMP score:

* words and bigrams that occur only in good (or only in bad) sentences, with the number of
  pairs they occur in: a model that learned "this word means bad" needs no syntax;
* length: mean token-count difference (good - bad) and the accuracy of "pick the shorter"
  (or longer, whichever is better);
* word frequency: a unigram model estimated on the generated sentences themselves, picking the
  sentence with the higher probability;
* a bag-of-words baseline: multinomial naive Bayes over unigrams and bigrams trained on 80% of
  the pairs and tested on the held-out 20%.

A paradigm is flagged when a heuristic reaches ``threshold`` (default 0.9); the evidence is in
the report. A flag is a prompt to look, not a verdict: in many BLiMP paradigms the contrast
word itself (*ever* in ``npi_present_1``) is such a cue.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from blimpgen.errors import GenerationError
from blimpgen.generators.catalog import Catalog, sources_as
from blimpgen.generators.generate import generate
from blimpgen.generators.paradigm import Paradigm
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.records.pair import MinimalPair

TOKEN_RE = re.compile(r"[A-Za-z0-9']+")
DEFAULT_THRESHOLD = 0.9
TRAIN_SHARE = 0.8
TOP = 3


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return [t.lower() for t in TOKEN_RE.findall(text)]


def features(text: str) -> list[str]:
    """Unigrams and bigrams (``"a b"``, sentence boundaries included) of a sentence."""
    words = ["<s>"] + tokens(text) + ["</s>"]
    return words[1:-1] + [f"{a} {b}" for a, b in zip(words, words[1:])]


@dataclass
class AuditResult:
    """Shallow-cue evidence for one paradigm.

    Attributes:
        uid: the paradigm.
        pairs: how many pairs were audited.
        only_good / only_bad: (word or bigram, pairs it occurs in), most frequent first.
        length_difference: mean tokens(good) - tokens(bad).
        length_accuracy: accuracy of the better of "pick the shorter" / "pick the longer".
        unigram_accuracy: accuracy of a unigram model fitted on the generated sentences.
        bow_accuracy: held-out accuracy of naive Bayes over unigrams and bigrams.
        flags: the heuristics at or above the threshold, with their evidence.
        error: why fewer pairs than asked were made, if so.
    """

    uid: str
    pairs: int
    only_good: list[tuple[str, int]] = field(default_factory=list)
    only_bad: list[tuple[str, int]] = field(default_factory=list)
    length_difference: float = 0.0
    length_accuracy: float = 0.5
    unigram_accuracy: float = 0.5
    bow_accuracy: float = 0.5
    flags: list[str] = field(default_factory=list)
    error: str = ""


def _choice(good_score: float, bad_score: float) -> float:
    """1 when good wins, 0 when bad wins, 0.5 for a tie."""
    return 1.0 if good_score > bad_score else 0.0 if good_score < bad_score else 0.5


def exclusive_items(pairs: list[MinimalPair]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Words/bigrams found only in good (only in bad) sentences, with how many pairs have them."""
    in_good: Counter[str] = Counter()
    in_bad: Counter[str] = Counter()
    for pair in pairs:
        in_good.update(set(features(pair.sentence_good)))
        in_bad.update(set(features(pair.sentence_bad)))
    only_good = sorted(((k, v) for k, v in in_good.items() if k not in in_bad), key=lambda kv: (-kv[1], kv[0]))
    only_bad = sorted(((k, v) for k, v in in_bad.items() if k not in in_good), key=lambda kv: (-kv[1], kv[0]))
    return only_good, only_bad


def length_cue(pairs: list[MinimalPair]) -> tuple[float, float]:
    """(mean length difference good - bad, accuracy of the better length heuristic)."""
    differences = [len(tokens(p.sentence_good)) - len(tokens(p.sentence_bad)) for p in pairs]
    shorter = sum(_choice(-d, 0) for d in differences) / len(differences)
    return sum(differences) / len(differences), max(shorter, 1 - shorter)


def unigram_accuracy(pairs: list[MinimalPair]) -> float:
    """Accuracy of a unigram model (add-one smoothing) fitted on all the generated sentences."""
    counts: Counter = Counter()
    for pair in pairs:
        counts.update(tokens(pair.sentence_good))
        counts.update(tokens(pair.sentence_bad))
    total, vocabulary = sum(counts.values()), len(counts) + 1

    def logprob(text: str) -> float:
        return sum(math.log((counts[t] + 1) / (total + vocabulary)) for t in tokens(text))

    return sum(_choice(logprob(p.sentence_good), logprob(p.sentence_bad)) for p in pairs) / len(pairs)


def bow_accuracy(pairs: list[MinimalPair]) -> float:
    """Held-out forced-choice accuracy of multinomial naive Bayes (good vs bad sentences)."""
    cut = max(1, int(len(pairs) * TRAIN_SHARE))
    train, test = pairs[:cut], pairs[cut:] or pairs[:1]
    good: Counter[str] = Counter()
    bad: Counter[str] = Counter()
    for pair in train:
        good.update(features(pair.sentence_good))
        bad.update(features(pair.sentence_bad))
    vocabulary = len(set(good) | set(bad)) + 1
    good_total, bad_total = sum(good.values()) + vocabulary, sum(bad.values()) + vocabulary

    def log_odds(text: str) -> float:
        return sum(math.log((good[f] + 1) / good_total) - math.log((bad[f] + 1) / bad_total) for f in features(text))

    return sum(_choice(log_odds(p.sentence_good), log_odds(p.sentence_bad)) for p in test) / len(test)


def audit_pairs(uid: str, pairs: list[MinimalPair], threshold: float = DEFAULT_THRESHOLD) -> AuditResult:
    """Measure every cue on a list of pairs and flag those at or above ``threshold``."""
    result = AuditResult(uid, len(pairs))
    if not pairs:
        return result
    result.only_good, result.only_bad = exclusive_items(pairs)
    result.length_difference, result.length_accuracy = length_cue(pairs)
    result.unigram_accuracy = unigram_accuracy(pairs)
    result.bow_accuracy = bow_accuracy(pairs)
    for side, items in (("good", result.only_good), ("bad", result.only_bad)):
        if items and items[0][1] / len(pairs) >= threshold:
            result.flags.append(
                f"{items[0][0]!r} occurs only in {side} sentences, in {items[0][1]} of {len(pairs)} pairs"
            )
    for name, value in (
        ("length", result.length_accuracy),
        ("unigram frequency", result.unigram_accuracy),
        ("bag of words", result.bow_accuracy),
    ):
        if value >= threshold:
            result.flags.append(f"{name} heuristic picks the good sentence in {value:.0%} of pairs")
    return result


def audit_paradigm(
    paradigm: Paradigm, n: int = 1000, seed: int = 0, threshold: float = DEFAULT_THRESHOLD
) -> AuditResult:
    """Generate up to ``n`` pairs (seeded) and audit them; a shortfall is recorded, not raised."""
    pairs: list[MinimalPair] = []
    error = ""
    try:
        for pair in generate(paradigm, n, seed):
            pairs.append(pair)
    except GenerationError as exc:
        error = f"only {len(pairs)} of {n} pairs: {exc}"
    result = audit_pairs(paradigm.uid, pairs, threshold)
    result.error = error
    return result


def audit_catalog(
    catalog: Catalog,
    uids: Sequence[str] | None = None,
    n: int = 1000,
    seed: int = 0,
    threshold: float = DEFAULT_THRESHOLD,
) -> list[AuditResult]:
    """Audit the named paradigms of a catalogue (every paradigm when ``uids`` is None).

    Raises:
        UnknownNameError: for an unknown UID.
        OptionError: for a probe suite: the cues measured here are those of minimal pairs.
    """
    paradigms = catalog.build(
        uids, ParadigmSpec, purpose="; audit measures shallow cues in minimal pairs, not in probe items"
    )
    return [audit_paradigm(paradigm, n, seed, threshold) for paradigm in sources_as(paradigms, Paradigm)]


def _top(items: list[tuple[str, int]]) -> str:
    return ", ".join(f"{k} ({v})" for k, v in items[:TOP]) or "-"


def render_text(results: Iterable[AuditResult]) -> str:
    """A readable report: one block per paradigm, flags first."""
    lines = []
    for r in results:
        status = "FLAGGED" if r.flags else "ok"
        lines += [
            f"{r.uid}: {status} ({r.pairs} pairs)",
            f"  only in good: {_top(r.only_good)}",
            f"  only in bad:  {_top(r.only_bad)}",
            f"  length difference {r.length_difference:+.2f} tokens, length heuristic {r.length_accuracy:.2f}",
            f"  unigram frequency {r.unigram_accuracy:.2f}, bag of words {r.bow_accuracy:.2f}",
        ]
        lines += [f"  flag: {flag}" for flag in r.flags]
        if r.error:
            lines.append(f"  note: {r.error}")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(results: Iterable[AuditResult], n: int, seed: int, threshold: float) -> str:
    """The docs table (``blimpgen audit --all --markdown -o docs/audit.md``)."""
    results = list(results)
    flagged = sum(1 for r in results if r.flags)
    lines = [
        "# Shallow-cue audit",
        "",
        f"Generated by `blimpgen audit --all -n {n} --seed {seed} --markdown -o docs/audit.md`; do not edit.",
        "Accuracies are forced choices (which sentence of a pair is good?), 0.5 is chance. "
        "Length: the better of pick-the-shorter/longer; unigram: a unigram model fitted on the generated "
        "sentences; BoW: naive Bayes over unigrams and bigrams, trained on 80% of the pairs, tested on the "
        "rest. Only-good/only-bad: words or bigrams never seen in the other side, with the number of pairs.",
        f"A paradigm is flagged when a heuristic reaches {threshold:.2f} or one exclusive word/bigram covers "
        "that share of pairs; in many paradigms the cue is the contrast word itself, which is by design.",
        "",
        f"{len(results)} paradigms, {flagged} flagged.",
        "",
        "| UID | pairs | len diff | length | unigram | BoW | only in good | only in bad | flagged |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(results, key=lambda r: r.uid):
        lines.append(
            f"| `{r.uid}` | {r.pairs} | {r.length_difference:+.2f} | {r.length_accuracy:.2f} | "
            f"{r.unigram_accuracy:.2f} | {r.bow_accuracy:.2f} | {_cell(_top(r.only_good))} | "
            f"{_cell(_top(r.only_bad))} | {'yes' if r.flags else 'no'} |"
        )
    return "\n".join(lines) + "\n"
