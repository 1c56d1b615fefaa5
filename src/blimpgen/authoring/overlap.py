"""``blimpgen audit --overlap``: has a corpus (a model's training data, a released benchmark)
already seen the generated sentences?

Per paradigm it reports two kinds of overlap between generated pairs and a corpus:

* **verbatim sentences**: a good (or bad) sentence whose whole token sequence occurs in one
  line of the corpus, on token boundaries (inside a longer line too: lines may be documents);
* **long n-grams**: the distinct n-grams (``n`` tokens, default 8) of the generated sentences
  that occur in the corpus, and how many pairs have at least one such n-gram or sentence.

Tokens are normalised the same way on both sides (:func:`tokenize`), so punctuation, case and
the tokenisation of a corpus do not hide an overlap:

* ASCII letters are lower-cased; every character other than a letter, a digit or an apostrophe
  separates tokens and is dropped (``The dog, barked!`` = ``the dog barked``); ``’`` is ``'``;
* ``n't`` is a token of its own and an apostrophe starts a token (``doesn't`` = ``does n't``,
  ``John's`` = ``John 's``, as in Penn-Treebank-tokenised corpora such as WikiText); an
  apostrophe before a space or a line end is dropped (a closing quote, ``students'``);
* non-ASCII letters are kept as they are (not case-folded), so ``café`` is one token.

Matches never cross a line break: a sentence split over two corpus lines is not found, and in
a JSONL corpus every sentence is a line of its own. An n-gram or sentence is counted once per
occurrence; the report gives how many distinct ones occur at least once.

How it stays fast and flat: the generated side is small, so it is indexed whole. Every token of
the generated sentences gets a one-character code, and each sentence and n-gram is the string
of its codes, in a hash table keyed by its first few codes. The corpus is streamed in blocks
of whole lines (:mod:`blimpgen.authoring.corpus`); a block becomes one code string (a token
the generated side never uses, or a line break, becomes a barrier), and only stretches of at
least a few known tokens in a row are looked up, position by position. Memory is that of the
index plus one block, whatever the corpus size; time is linear in the corpus. Keys are the
exact code strings, so there are no hash collisions to discount.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path

from blimpgen._io import data_files
from blimpgen.authoring.corpus import corpus_blocks, corpus_files, corpus_size
from blimpgen.errors import GenerationError
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate
from blimpgen.grammar.spec import ParadigmSpec
from blimpgen.records.jsonl import read_pairs
from blimpgen.records.pair import MinimalPair

DEFAULT_NGRAM = 8
PREFIX = 4  # codes a lookup key holds (fewer when a sentence or n is shorter)
EXAMPLES = 3
_LETTERS = b"abcdefghijklmnopqrstuvwxyz0123456789'\x01\x02"
_KEEP = frozenset(_LETTERS) | frozenset(range(0x80, 0x100))
# One pass: upper-case ASCII to lower case, every other separator to a space.
_TABLE = bytes(b if b in _KEEP else b + 32 if 65 <= b <= 90 else 32 for b in range(256))
BREAK = b"\x01"  # a line break, as a token; never a generated token
BARRIER = "\x00"  # the code of every token the generated side never uses
FIRST_CODE = 0x100


def split_tokens(data: bytes) -> list[bytes]:
    """Normalised tokens of UTF-8 text (see the module docstring); a line break is :data:`BREAK`."""
    data = data.replace("’".encode(), b"'").replace(b"\n", b" \x01 ").translate(_TABLE)
    data = data.replace(b"n't", b" n\x02t").replace(b"'", b" '").replace(b"' ", b" ").replace(b"\x02", b"'")
    return data.split()


def tokenize(text: str) -> list[str]:
    """The normalised tokens of one sentence, as text (what both sides are compared on)."""
    return [t.decode("utf-8", "replace") for t in split_tokens(text.replace("\n", " ").encode("utf-8"))]


def _code(number: int) -> str:
    # Skip the surrogate range, which cannot be a character of a str.
    return chr(FIRST_CODE + number + (0x800 if FIRST_CODE + number >= 0xD800 else 0))


@dataclass
class ParadigmOverlap:
    """Overlap of one paradigm's pairs with the corpus.

    Attributes:
        uid: the paradigm.
        pairs: pairs compared.
        good / bad: distinct good (bad) sentences.
        good_found / bad_found: of those, how many occur verbatim in a corpus line.
        short: distinct sentences with fewer than n tokens (they have no n-gram).
        ngrams / ngrams_found: distinct n-grams of the sentences, and how many occur in the corpus.
        pairs_found: pairs with a sentence or an n-gram in the corpus.
        examples: a few sentences found verbatim (else a few n-grams found).
        note: why fewer pairs than asked were compared, if so.
    """

    uid: str
    pairs: int = 0
    good: int = 0
    bad: int = 0
    good_found: int = 0
    bad_found: int = 0
    short: int = 0
    ngrams: int = 0
    ngrams_found: int = 0
    pairs_found: int = 0
    examples: list[str] = field(default_factory=list)
    note: str = ""

    @property
    def flagged(self) -> bool:
        """Whether any sentence occurs verbatim in the corpus."""
        return bool(self.good_found or self.bad_found)


@dataclass
class OverlapReport:
    """Every paradigm's overlap with one corpus, and what was scanned."""

    corpus: str
    n: int
    rows: list[ParadigmOverlap]
    corpus_bytes: int = 0
    corpus_lines: int = 0
    corpus_tokens: int = 0
    seconds: float = 0.0


class OverlapIndex:
    """The generated side: every sentence and n-gram as a code string, with a hit count each.

    Args:
        n: the n-gram length, in tokens.
    """

    def __init__(self, n: int = DEFAULT_NGRAM) -> None:
        if n < 1:
            raise ValueError("the n-gram length must be at least 1")
        self.n = n
        self.codes: dict[bytes, str] = {}
        self.ids: dict[str, int] = {}
        self.keys: list[str] = []
        self.hits: list[int] = []
        self.sentences: dict[int, str] = {}
        self.pairs: dict[str, list[tuple[int, int, tuple[int, ...]]]] = {}
        self.notes: dict[str, str] = {}
        self._table: dict[str, list[tuple[str, int]]] | None = None
        self._width = PREFIX
        self._short: dict[str, int] = {}
        self._short_lengths: list[int] = []
        self.corpus_bytes = self.corpus_lines = self.corpus_tokens = 0

    def _key(self, text: str) -> str:
        codes = self.codes
        tokens = split_tokens(text.replace("\n", " ").encode("utf-8"))
        for token in tokens:
            if token not in codes:
                codes[token] = _code(len(codes))
        return "".join(codes[t] for t in tokens)

    def _id(self, key: str) -> int:
        ident = self.ids.get(key)
        if ident is None:
            ident = self.ids[key] = len(self.keys)
            self.keys.append(key)
            self.hits.append(0)
        return ident

    def add(self, uid: str, good: str, bad: str) -> None:
        """Index one pair of paradigm ``uid`` (before any :meth:`scan`)."""
        if self._table is not None:
            raise RuntimeError("add every pair before scanning")
        keys: list[int] = []
        grams: set[int] = set()
        for text in (good, bad):
            key = self._key(text)
            ident = self._id(key) if key else -1
            if key:
                self.sentences.setdefault(ident, text)
            keys.append(ident)
            grams.update(self._id(key[i : i + self.n]) for i in range(len(key) - self.n + 1))
        self.pairs.setdefault(uid, []).append((keys[0], keys[1], tuple(sorted(grams))))

    def _prepare(self) -> dict[str, list[tuple[str, int]]]:
        if self._table is None:
            # Keys of at least `width` codes are found through their first `width` codes; the few
            # shorter ones (sentences of one to three tokens) are looked up whole, length by length.
            self._width = width = min(PREFIX, self.n)
            table: dict[str, list[tuple[str, int]]] = {}
            for key, ident in self.ids.items():
                if len(key) >= width:
                    table.setdefault(key[:width], []).append((key, ident))
                else:
                    self._short[key] = ident
            self._short_lengths = sorted({len(key) for key in self._short})
            self._table = table
            self._runs = re.compile(f"[^{BARRIER}]{{{min([width] + self._short_lengths)},}}")
        return self._table

    def scan(self, block: bytes) -> None:
        """Count every sentence and n-gram occurring in a block of whole lines of UTF-8 text."""
        table = self._prepare()
        width, hits, short, short_lengths = self._width, self.hits, self._short, self._short_lengths
        tokens = split_tokens(block)
        self.corpus_bytes += len(block)
        breaks = block.count(b"\n")
        self.corpus_lines += breaks
        self.corpus_tokens += len(tokens) - breaks
        codes = "".join(map(self.codes.get, tokens, repeat(BARRIER)))
        for match in self._runs.finditer(codes):
            run = match.group()
            size = len(run)
            for start in range(size):
                found = table.get(run[start : start + width]) if start + width <= size else None
                if found:
                    for key, ident in found:
                        if run.startswith(key, start):
                            hits[ident] += 1
                for length in short_lengths:
                    short_ident = short.get(run[start : start + length]) if start + length <= size else None
                    if short_ident is not None:
                        hits[short_ident] += 1

    def text(self, ident: int) -> str:
        """A sentence as generated, or an n-gram as its normalised tokens."""
        if ident in self.sentences:
            return self.sentences[ident]
        words = {code: token for token, code in self.codes.items()}
        return " ".join(words[c].decode("utf-8", "replace") for c in self.keys[ident])

    def results(self) -> list[ParadigmOverlap]:
        """One row per paradigm, in the order paradigms were added."""
        rows = []
        found = self.hits
        for uid, pairs in self.pairs.items():
            good = {g for g, _, _ in pairs if g >= 0}
            bad = {b for _, b, _ in pairs if b >= 0}
            grams = {i for _, _, gs in pairs for i in gs}
            verbatim = sorted(i for i in good | bad if found[i])
            examples = [self.sentences[i] for i in verbatim[:EXAMPLES]] or [
                self.text(i) for i in sorted(i for i in grams if found[i])[:EXAMPLES]
            ]
            rows.append(
                ParadigmOverlap(
                    uid,
                    len(pairs),
                    len(good),
                    len(bad),
                    sum(1 for i in good if found[i]),
                    sum(1 for i in bad if found[i]),
                    sum(1 for i in good | bad if len(self.keys[i]) < self.n),
                    len(grams),
                    sum(1 for i in grams if found[i]),
                    sum(
                        1
                        for g, b, gs in pairs
                        if (g >= 0 and found[g]) or (b >= 0 and found[b]) or any(found[i] for i in gs)
                    ),
                    examples,
                    self.notes.get(uid, ""),
                )
            )
        return rows


def scan_corpus(index: OverlapIndex, corpus: Path | str, progress: bool = False) -> OverlapReport:
    """Stream a corpus through ``index`` and report every paradigm's overlap.

    Raises:
        DataError: at ``file:line`` for a corpus line that cannot be read (see
            :func:`~blimpgen.authoring.corpus.corpus_blocks`).
    """
    start = time.perf_counter()
    blocks: Iterator[bytes] = corpus_blocks(corpus)
    bar = None
    if progress:
        from tqdm import tqdm

        compressed = any(f.name.endswith(".gz") for f in corpus_files(corpus))
        bar = tqdm(
            total=None if compressed else corpus_size(corpus),
            unit="B",
            unit_scale=True,
            desc="overlap",
            delay=1.0,
            leave=False,
            disable=None,
        )
    for block in blocks:
        index.scan(block)
        if bar is not None:
            bar.update(len(block))
    if bar is not None:
        bar.close()
    return OverlapReport(
        str(corpus),
        index.n,
        index.results(),
        index.corpus_bytes,
        index.corpus_lines,
        index.corpus_tokens,
        time.perf_counter() - start,
    )


def index_pairs(
    pairs: Iterable[MinimalPair], n: int = DEFAULT_NGRAM, index: OverlapIndex | None = None
) -> OverlapIndex:
    """An index of pairs, grouped by their ``UID``."""
    index = index if index is not None else OverlapIndex(n)
    for pair in pairs:
        index.add(pair.UID, pair.sentence_good, pair.sentence_bad)
    return index


def overlap_data(data: Path | str, corpus: Path | str, n: int = DEFAULT_NGRAM, progress: bool = False) -> OverlapReport:
    """Overlap of the pairs in a JSONL file (or every ``*.jsonl`` of a folder) with a corpus.

    Raises:
        DataError: for unreadable pairs or corpus lines, at ``file:line``.
    """
    index = OverlapIndex(n)
    for path in data_files(data):
        index_pairs(read_pairs(path), n, index)
    return scan_corpus(index, corpus, progress)


def overlap_catalog(
    catalog: Catalog,
    uids: Sequence[str] | None,
    corpus: Path | str,
    count: int = 1000,
    seed: int = 0,
    n: int = DEFAULT_NGRAM,
    progress: bool = False,
    generate_pairs: Callable[..., Iterable[MinimalPair]] = generate,
) -> OverlapReport:
    """Generate ``count`` pairs (seeded) of the named paradigms (all when None) and compare them
    with a corpus; a paradigm that makes fewer pairs is compared on those, with a note.

    Raises:
        UnknownNameError: for an unknown UID; OptionError for a probe suite.
        DataError: for an unreadable corpus line, at ``file:line``.
    """
    index = OverlapIndex(n)
    paradigms = catalog.build(uids, ParadigmSpec, purpose="; audit --overlap compares minimal pairs")
    for paradigm in paradigms:
        made = 0
        try:
            for pair in generate_pairs(paradigm, count, seed):
                index.add(pair.UID, pair.sentence_good, pair.sentence_bad)
                made += 1
        except GenerationError as exc:
            index.notes[paradigm.uid] = f"only {made} of {count} pairs: {exc}"
        index.pairs.setdefault(paradigm.uid, [])
    return scan_corpus(index, corpus, progress)


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole}" + (f" ({part / whole:.1%})" if whole and part else "")


def render_text(report: OverlapReport) -> str:
    """A readable report: what was scanned, then one block per paradigm."""
    n = report.n
    lines = [
        f"corpus {report.corpus}: {report.corpus_bytes / 1e6:.1f} MB, {report.corpus_lines} lines, "
        f"{report.corpus_tokens} tokens scanned in {report.seconds:.1f} s; n-grams of {n} tokens"
    ]
    for row in report.rows:
        status = "OVERLAP" if row.flagged else ("n-grams" if row.ngrams_found else "clean")
        lines += [
            f"{row.uid}: {status} ({row.pairs} pairs)",
            f"  verbatim: good {_share(row.good_found, row.good)}, bad {_share(row.bad_found, row.bad)}",
            f"  {n}-grams: {_share(row.ngrams_found, row.ngrams)}; sentences under {n} tokens: {row.short}; "
            f"pairs with any overlap: {_share(row.pairs_found, row.pairs)}",
        ]
        lines += [f"  e.g. {example}" for example in row.examples]
        if row.note:
            lines.append(f"  note: {row.note}")
    return "\n".join(lines) + "\n"


def render_markdown(report: OverlapReport) -> str:
    """The report as a Markdown table, one row per paradigm and a total."""
    n = report.n
    lines = [
        "# Contamination check",
        "",
        f"Corpus `{report.corpus}`: {report.corpus_bytes / 1e6:.1f} MB, {report.corpus_lines} lines, "
        f"{report.corpus_tokens} tokens, scanned in {report.seconds:.1f} s. Verbatim: sentences whose whole "
        f"token sequence occurs in one corpus line. {n}-grams: distinct n-grams of {n} tokens of the "
        "generated sentences found in the corpus (sentences shorter than that have none). Tokens are "
        "lower-cased words and digits; punctuation is ignored (`blimpgen.authoring.overlap`).",
        "",
        f"| UID | pairs | good verbatim | bad verbatim | sentences < {n} tokens | {n}-grams found | "
        "pairs with overlap |",
        "|---|---|---|---|---|---|---|",
    ]
    total = ParadigmOverlap("**total**")
    for row in report.rows:
        lines.append(
            f"| `{row.uid}` | {row.pairs} | {_share(row.good_found, row.good)} | "
            f"{_share(row.bad_found, row.bad)} | {row.short} | {_share(row.ngrams_found, row.ngrams)} | "
            f"{_share(row.pairs_found, row.pairs)} |"
        )
        for name in (
            "pairs",
            "good",
            "bad",
            "good_found",
            "bad_found",
            "short",
            "ngrams",
            "ngrams_found",
            "pairs_found",
        ):
            setattr(total, name, getattr(total, name) + getattr(row, name))
    if len(report.rows) > 1:
        lines.append(
            f"| {total.uid} | {total.pairs} | {_share(total.good_found, total.good)} | "
            f"{_share(total.bad_found, total.bad)} | {total.short} | "
            f"{_share(total.ngrams_found, total.ngrams)} | {_share(total.pairs_found, total.pairs)} |"
        )
    return "\n".join(lines) + "\n"


def rows_by_uid(report: OverlapReport) -> Mapping[str, ParadigmOverlap]:
    """The report's rows keyed by UID."""
    return {row.uid: row for row in report.rows}
