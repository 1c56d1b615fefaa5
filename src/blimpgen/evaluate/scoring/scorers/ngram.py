"""Kneser-Ney n-gram models: trained with nltk's estimator, stored and read as ARPA files.

Training follows ``nltk.lm.KneserNeyInterpolated`` exactly (nltk's padding, vocabulary and
interpolation formula), but computes every probability in one counting pass: nltk's own
``score`` rescans all higher-order n-grams for each lower-order call, which takes hours on
the Brown corpus. Interpolated Kneser-Ney is exactly representable in ARPA back-off form:
each seen n-gram stores its full interpolated probability and each context its
interpolation weight, so an unseen n-gram backs off to ``weight * P(word | shorter context)``.
``tests/evaluate/scorers/test_ngram.py`` checks the equality against nltk on a small corpus.
"""

from __future__ import annotations

import io
import math
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from blimpgen._io import decode, read_text
from blimpgen.errors import DataError, ModelLoadError, OptionError
from blimpgen.evaluate.scoring.base import QUERY_BATCH, Query, Scorer, TokenScores
from blimpgen.evaluate.scoring.scorers.unigram import read_corpus_lines, word_tokenize

BOS, EOS, UNK = "<s>", "</s>", "<unk>"
_NLTK_UNK = "<UNK>"
_LN10 = math.log(10.0)
_LOG_ZERO = -99.0  # ARPA's log10(0), as SRILM writes it


class ArpaModel:
    """A back-off n-gram model: ``"w1 w2 w3"`` -> log10 probability and back-off weight.

    Args:
        order: the longest n-gram.
        logprobs: space-joined n-gram -> log10 P(last word | the others).
        backoffs: space-joined context -> log10 back-off weight (absent: 0).
    """

    def __init__(self, order: int, logprobs: dict[str, float], backoffs: dict[str, float]) -> None:
        self.order = order
        self.logprobs = logprobs
        self.backoffs = backoffs
        self.vocabulary = {key for key in logprobs if " " not in key}

    def log10_prob(self, word: str, context: Sequence[str]) -> float:
        """log10 P(word | context), backing off through shorter contexts."""
        history = list(context[max(0, len(context) - self.order + 1) :]) if self.order > 1 else []
        weight = 0.0
        while True:
            key = " ".join([*history, word])
            value = self.logprobs.get(key)
            if value is not None:
                return weight + value
            if not history:
                return weight + _LOG_ZERO
            weight += self.backoffs.get(" ".join(history), 0.0)
            history = history[1:]

    def words(self, text: str, lowercase: bool = True) -> list[str]:
        """Tokenize ``text`` and map words outside the vocabulary to ``<unk>``."""
        return [w if w in self.vocabulary else UNK for w in word_tokenize(text, lowercase)]

    def write(self, handle: IO[str]) -> None:
        """Write the model in ARPA format."""
        by_order: dict[int, list[str]] = defaultdict(list)
        for key in self.logprobs:
            by_order[key.count(" ") + 1].append(key)
        handle.write("\\data\\\n")
        for n in range(1, self.order + 1):
            handle.write(f"ngram {n}={len(by_order[n])}\n")
        for n in range(1, self.order + 1):
            handle.write(f"\n\\{n}-grams:\n")
            for key in sorted(by_order[n]):
                line = f"{self.logprobs[key]:.7g}\t{key}"
                if key in self.backoffs:
                    line += f"\t{self.backoffs[key]:.7g}"
                handle.write(line + "\n")
        handle.write("\n\\end\\\n")

    @classmethod
    def read(cls, path: Path | str) -> ArpaModel:
        """Read an ARPA file (ours, SRILM's or KenLM's), checking it is complete.

        The ``\\data\\`` header's count for each order must equal the n-grams its section
        holds, every declared section must be there, and the file must end with ``\\end\\``:
        a truncated model would otherwise load and give unknown-word probabilities everywhere.

        Raises:
            ModelLoadError: one line naming ``file:line`` (and the order) for a malformed line,
                a count that does not match the header, a missing section or a missing ``\\end\\``.
        """
        path = Path(path)
        try:
            text = read_text(path)  # a regular file only: a FIFO is refused, never waited on
        except DataError as exc:
            if exc.message.startswith("cannot read file: not UTF-8"):
                raise ModelLoadError(
                    f"{path}: not an ARPA model ({exc.message.removeprefix('cannot read file: ')})"
                ) from None
            raise ModelLoadError(
                f"{path}: cannot read ARPA model: {exc.message.removeprefix('cannot read file: ')}"
            ) from None
        return _ArpaReader(path).read(text)


class _ArpaReader:
    """The ARPA parser behind :meth:`ArpaModel.read`: a small state machine over lines."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.declared: dict[int, int] = {}  # order -> count in the \data\ header
        self.found: dict[int, int] = {}  # order -> n-grams read in its section
        self.logprobs: dict[str, float] = {}
        self.backoffs: dict[str, float] = {}
        self.section = 0  # order of the section being read; 0: header
        self.section_line = 0

    def fail(self, number: int, message: str) -> ModelLoadError:
        return ModelLoadError(f"{self.path}:{number}: {message}" if number else f"{self.path}: {message}")

    def read(self, text: str) -> ArpaModel:
        state = "before"  # before \data\, header, sections, after \end\
        number = 0
        for number, raw in enumerate(io.StringIO(text), start=1):
            line = raw.strip()
            if not line:
                continue
            if state == "before":
                if line == "\\data\\":
                    state = "header"
                continue  # text before \data\ is a comment, as SRILM and KenLM allow
            if state == "after":
                raise self.fail(number, f"text after \\end\\: {line[:60]!r}")
            if line == "\\end\\":
                self.close_section(number)
                missing = sorted(set(self.declared) - set(self.found))
                if missing:
                    raise self.fail(
                        number,
                        f"\\end\\ before the \\{missing[0]}-grams: section that the "
                        f"\\data\\ header declares (ngram {missing[0]}="
                        f"{self.declared[missing[0]]}); the file is incomplete",
                    )
                state = "after"
            elif line.startswith("\\") and line.endswith("-grams:"):
                self.open_section(number, line)
                state = "sections"
            elif state == "header":
                self.header_line(number, line)
            elif raw.endswith("\n"):
                self.ngram_line(number, line)
            else:  # the last line, cut off: say so rather than call it malformed
                try:
                    self.ngram_line(number, line)
                except ModelLoadError:
                    order = self.section
                    raise self.fail(
                        number,
                        f"the file ends mid-line in the \\{order}-grams: section (after "
                        f"{self.found[order]} of the {self.declared[order]} n-grams its header "
                        "declares); it is truncated",
                    ) from None
        if state == "before" or not self.declared:
            raise self.fail(0, "not an ARPA model (no \\data\\ section with ngram counts)")
        if state != "after":
            if self.section and self.found.get(self.section, 0) != self.declared.get(self.section):
                self.close_section(number)  # says which count is short
            raise self.fail(
                number, f"no \\end\\ line: the file ends inside the {self.describe(self.section)}; it is truncated"
            )
        return ArpaModel(max(self.declared), self.logprobs, self.backoffs)

    @staticmethod
    def describe(order: int) -> str:
        return f"\\{order}-grams: section" if order else "\\data\\ header"

    def header_line(self, number: int, line: str) -> None:
        name, _, value = line.partition("=")
        fields = name.split()
        try:
            if len(fields) != 2 or fields[0] != "ngram":
                raise ValueError
            order, count = int(fields[1]), int(value)
            if order < 1 or count < 0:
                raise ValueError
        except ValueError:
            raise self.fail(number, f"malformed \\data\\ line {line[:60]!r}; expected 'ngram N=COUNT'") from None
        if order in self.declared:
            raise self.fail(number, f"the \\data\\ header declares order {order} twice")
        self.declared[order] = count

    def open_section(self, number: int, line: str) -> None:
        try:
            order = int(line[1 : -len("-grams:")])
        except ValueError:
            raise self.fail(number, f"malformed section header {line[:60]!r}; expected \\N-grams:") from None
        self.close_section(number)
        expected = self.section + 1
        if order != expected:
            raise self.fail(
                number,
                f"section \\{order}-grams: where \\{expected}-grams: was expected (sections go 1, 2, ... in order)",
            )
        if order not in self.declared:
            raise self.fail(
                number,
                f"section \\{order}-grams: is not declared in the \\data\\ header "
                f"(orders declared: {', '.join(map(str, sorted(self.declared)))})",
            )
        self.section, self.section_line = order, number
        self.found[order] = 0

    def close_section(self, number: int) -> None:
        """Check the section just read against the header; at \\end\\, that no section is missing."""
        if not self.declared:
            raise self.fail(number, "no 'ngram N=COUNT' lines in the \\data\\ header")
        order = self.section
        if order and self.found[order] != self.declared[order]:
            raise self.fail(
                number,
                f"the \\{order}-grams: section (line {self.section_line}) has "
                f"{self.found[order]} n-grams but the \\data\\ header declares "
                f"ngram {order}={self.declared[order]}; the file is truncated or was edited",
            )

    def ngram_line(self, number: int, line: str) -> None:
        order = self.section
        if "\t" in line:
            fields = line.split("\t")
            key, rest = (fields[1].strip() if len(fields) > 1 else ""), fields[2:]
            words = key.split()
        else:
            fields = line.split()
            words, rest = fields[1 : 1 + order], fields[1 + order :]
            key = " ".join(words)
        try:
            if len(words) != order or len(rest) > 1:
                raise ValueError
            logprob = float(fields[0])
            backoff = float(rest[0]) if rest else None
        except (ValueError, IndexError):
            raise self.fail(
                number,
                f"malformed ARPA line {line[:60]!r} in the \\{order}-grams: section "
                f"(expected: log10 probability, {order} word{'s' if order > 1 else ''}, "
                "optional back-off weight)",
            ) from None
        self.logprobs[" ".join(words)] = logprob
        if backoff is not None:
            self.backoffs[key] = backoff
        self.found[order] += 1


def train_kneser_ney(
    sentences: Iterable[Sequence[str]], order: int = 3, discount: float = 0.75, unk_cutoff: int = 2
) -> ArpaModel:
    """Train nltk's interpolated Kneser-Ney estimator and return it in ARPA form.

    Args:
        sentences: tokenized sentences.
        order: the longest n-gram.
        discount: the absolute discount (nltk's default is 0.1; 0.75 is the usual choice).
        unk_cutoff: words seen fewer times become ``<unk>`` (nltk's ``Vocabulary``).

    Raises:
        DataError: for an empty corpus.
        OptionError: for bad parameters.
    """
    from nltk.lm import Vocabulary
    from nltk.lm.preprocessing import pad_both_ends
    from nltk.util import everygrams

    if order < 1 or not 0.0 < discount < 1.0:
        raise OptionError(f"n-gram order must be >= 1 and discount in (0, 1); got {order}, {discount}")
    padded = [list(pad_both_ends(list(s), n=order)) for s in sentences if len(s)]
    if not padded:
        raise DataError("n-gram training corpus is empty")
    vocab = Vocabulary((w for s in padded for w in s), unk_cutoff=unk_cutoff)
    known = {w for w in vocab.counts if vocab.counts[w] >= unk_cutoff}
    counts: list[Counter] = [Counter() for _ in range(order + 2)]
    for sentence in padded:
        words = [w if w in known else _NLTK_UNK for w in sentence]
        for gram in everygrams(words, max_len=order):
            counts[len(gram)][gram] += 1
    return _kneser_ney_arpa(counts, order, discount)


def _kneser_ney_arpa(counts: list[Counter], order: int, discount: float) -> ArpaModel:
    types: list[Counter] = [Counter() for _ in range(order + 2)]  # |{w: c(h w) > 0}| by len(h)+1
    totals: list[Counter] = [Counter() for _ in range(order + 2)]  # c(h) at the top order
    for n in range(2, order + 1):
        for gram, count in counts[n].items():
            types[n][gram[:-1]] += 1
            totals[n][gram[:-1]] += count
    continuation: list[Counter] = [Counter() for _ in range(order + 2)]  # |{x: c(x h w) > 0}|
    continuation_totals: list[Counter] = [Counter() for _ in range(order + 2)]
    for n in range(1, order):
        for gram in counts[n + 1]:
            continuation[n][gram[1:]] += 1
            continuation_totals[n][gram[1:-1]] += 1
    probs: list[dict[tuple, float]] = [{} for _ in range(order + 1)]
    gammas: list[dict[tuple, float]] = [{} for _ in range(order + 1)]
    unigram_total = continuation_totals[1][()] if order > 1 else sum(counts[1].values())
    for gram in counts[1]:
        numerator = continuation[1][gram] if order > 1 else counts[1][gram]
        probs[1][gram] = numerator / unigram_total
    if order > 1:  # nltk's vocabulary always contains the unknown label
        probs[1].setdefault((_NLTK_UNK,), 0.0)
    for n in range(2, order + 1):
        top = n == order
        for gram in counts[n]:
            context = gram[:-1]
            total = totals[n][context] if top else continuation_totals[n][context]
            if total == 0:
                alpha, gamma = 0.0, 1.0
            else:
                numerator = counts[n][gram] if top else continuation[n][gram]
                alpha = max(numerator - discount, 0.0) / total
                gamma = discount * types[n][context] / total
            gammas[n][context] = gamma
            probs[n][gram] = alpha + gamma * probs[n - 1][gram[1:]]
    logprobs: dict[str, float] = {}
    backoffs: dict[str, float] = {}
    for n in range(1, order + 1):
        for gram, p in probs[n].items():
            logprobs[_arpa_key(gram)] = math.log10(p) if p > 0 else _LOG_ZERO
        for context, gamma in gammas[n].items():
            backoffs[_arpa_key(context)] = math.log10(gamma) if gamma > 0 else _LOG_ZERO
    return ArpaModel(order, logprobs, backoffs)


def _arpa_key(gram: tuple[str, ...]) -> str:
    return " ".join(UNK if w == _NLTK_UNK else w for w in gram)


def read_sentences(path: Path | str, corpus_format: str = "text", lowercase: bool = True) -> Iterator[list[str]]:
    """Tokenized sentences from a corpus: plain text (one sentence per line), or the Brown
    corpus as nltk distributes it (a ``brown.zip`` or folder of ``word/TAG`` files).

    Raises:
        DataError: for an unreadable path.
        OptionError: for an unknown format.
    """
    path = Path(path)
    if corpus_format == "text":
        for file in corpus_files(path, corpus_format):
            for line in read_corpus_lines(file):
                yield word_tokenize(line, lowercase)
    elif corpus_format == "brown":
        for line in _brown_lines(path):
            words = [token.rsplit("/", 1)[0] for token in line.split()]
            yield word_tokenize(" ".join(words), lowercase)
    else:
        raise OptionError(f"unknown corpus format {corpus_format!r}; expected one of: brown, text")


def corpus_files(path: Path | str, corpus_format: str = "text") -> list[Path]:
    """The files a corpus path names: a file, or a folder's ``*.txt`` files (Brown: its ``c?NN`` files)."""
    path = Path(path)
    if not path.is_dir():
        return [path]
    if corpus_format == "brown":
        return sorted(f for f in path.iterdir() if len(f.name) == 4 and not f.is_dir())
    return sorted(f for f in path.glob("*.txt") if not f.is_dir())


def _brown_lines(path: Path) -> Iterator[str]:
    if path.is_dir():
        texts: Iterable[str] = (read_text(f) for f in corpus_files(path, "brown"))
    elif zipfile.is_zipfile(path):
        archive = zipfile.ZipFile(path)
        names = sorted(n for n in archive.namelist() if len(n.rsplit("/", 1)[-1]) == 4)
        texts = (decode(archive.read(name), f"{path}/{name}") for name in names)
    else:
        raise DataError(f"{path}: expected the Brown corpus as a folder or a zip of c?NN files")
    for text in texts:
        for line in text.splitlines():
            if line.strip():
                yield line


class NgramScorer(Scorer):
    """Score words with a back-off n-gram model read from an ARPA file.

    Full sentences are scored from ``order - 1`` ``<s>`` pads up to and including ``</s>``
    (the convention nltk's padding and SRILM/KenLM use); continuations omit ``</s>``.

    Args:
        ngram_model: an ARPA file, or an :class:`ArpaModel`.
        lowercase: fold case (must match how the model was trained; ours are lowercased).

    Raises:
        ModelLoadError: for an ARPA file that cannot be read or is incomplete (``file:line``).
    """

    name = "ngram"

    def __init__(self, ngram_model: str | Path | ArpaModel, lowercase: bool = True) -> None:
        if isinstance(ngram_model, ArpaModel):
            self.model, self.path = ngram_model, None
        else:
            self.model, self.path = ArpaModel.read(ngram_model), str(ngram_model)
        self.lowercase = lowercase

    def tokenize(self, text: str) -> list[str]:
        return self.model.words(text, self.lowercase)

    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        return self.report_queries(queries, QUERY_BATCH, self._score)

    def _score(self, queries: Sequence[Query]) -> list[TokenScores]:
        out = []
        for query in queries:
            history = [BOS] * (self.model.order - 1) + self.tokenize(query.context)
            words = self.tokenize(query.text) + ([EOS] if not query.context else [])
            logprobs = []
            for word in words:
                logprobs.append(self.model.log10_prob(word, history) * _LN10)
                history.append(word)
            out.append(TokenScores(tuple(words), tuple(logprobs)))
        return out

    def provenance(self) -> dict[str, Any]:
        """The ARPA file and the SHA-256 of its bytes (None for a model given in memory)."""
        from blimpgen.evaluate.provenance import file_sha256

        model = None if self.path is None else {"id": self.path, "file_sha256": file_sha256(self.path)}
        return {"model": model, "device": "cpu", "dtype": None}

    def options(self) -> dict[str, Any]:
        return {
            "scorer": self.name,
            "ngram_model": self.path,
            "order": self.model.order,
            "lowercase": self.lowercase,
            "end_of_sentence": True,
        }


def train_ngram_file(
    corpus: Path | str,
    output: Path | str,
    order: int = 5,
    discount: float = 0.75,
    unk_cutoff: int = 2,
    corpus_format: str = "text",
    lowercase: bool = True,
) -> ArpaModel:
    """Train a Kneser-Ney model on a corpus and write it atomically as ARPA (``blimpgen ngram train``).

    Raises:
        OptionError: when ``output`` is the corpus or one of its files (it would be destroyed).
        DataError: for a corpus that cannot be read (``file:line``) or an empty one.
    """
    from blimpgen._io import atomic_writer, refuse_inputs

    refuse_inputs(output, {"CORPUS": [corpus, *corpus_files(corpus, corpus_format)]})
    try:
        model = train_kneser_ney(read_sentences(corpus, corpus_format, lowercase), order, discount, unk_cutoff)
    except DataError as exc:
        if exc.file:
            raise
        raise DataError(f"{exc.message}: it has no words", str(corpus)) from None
    with atomic_writer(output) as handle:
        model.write(handle)
    return model
