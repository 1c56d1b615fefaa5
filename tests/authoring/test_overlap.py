"""Contamination checks on small hand-made corpora, where every count is known."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.authoring.overlap import (
    OverlapIndex,
    index_pairs,
    overlap_data,
    render_markdown,
    render_text,
    rows_by_uid,
    scan_corpus,
    tokenize,
)
from blimpgen.records.pair import MinimalPair

PAIRS = [
    MinimalPair("The boys have admired these cups.", "The boys has admired these cups.", "agree"),
    MinimalPair("Every dog that the girls like barks.", "Every dog that the girls like bark.", "agree"),
    MinimalPair("Who left?", "Who did left?", "short"),
]


def scan(corpus: Path, n: int = 4, pairs: list[MinimalPair] = PAIRS) -> dict:
    return rows_by_uid(scan_corpus(index_pairs(pairs, n), corpus))


def write(tmp_path: Path, text: str, name: str = "corpus.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("The dog, barked!", ["the", "dog", "barked"]),
        ("THE DOG BARKED", ["the", "dog", "barked"]),
        ("She doesn't know", ["she", "does", "n't", "know"]),
        ("She does n't know", ["she", "does", "n't", "know"]),
        ("She doesn’t know", ["she", "does", "n't", "know"]),
        ("John's dog", ["john", "'s", "dog"]),
        ("John 's dog", ["john", "'s", "dog"]),
        ("the students' dog", ["the", "students", "dog"]),
        ("guest @-@ starring 1 @,@ 000", ["guest", "starring", "1", "000"]),
        ("guest-starring 1,000", ["guest", "starring", "1", "000"]),
        ("Café au lait", ["café", "au", "lait"]),
        ("under_score", ["under", "score"]),
    ],
)
def test_overlap_tokenize_normalises(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_overlap_exact_counts(tmp_path: Path) -> None:
    corpus = write(
        tmp_path,
        "\n".join(
            [
                "the boys have admired these cups",  # good 1, verbatim without punctuation
                "THE BOYS HAS ADMIRED THESE CUPS!!! and more text",  # bad 1, upper case, inside a longer line
                "Every dog that the girls",  # a sentence split over two lines:
                "like barks.",  # not counted, nor its cross-line n-grams
                "Someone asked: who left? Nobody knew.",  # a 2-token sentence inside a line
                "the boyshave admired",  # no token boundary: no match
            ]
        )
        + "\n",
    )
    rows = scan(corpus)
    agree, short = rows["agree"], rows["short"]
    assert (agree.pairs, agree.good, agree.bad) == (2, 2, 2)
    assert (agree.good_found, agree.bad_found) == (1, 1)
    assert agree.pairs_found == 2  # pair 2 has the 4-grams of "every dog that the girls" on line 3
    # Distinct 4-grams: pair 1 has 3 in good and 3 other ones in bad (have/has is in all of them);
    # pair 2 has 4 in good, and bad adds one ("the girls like bark").
    assert agree.ngrams == 3 + 3 + 4 + 1
    # Found: all six of pair 1 (lines 1 and 2), and the two 4-grams of "every dog that the girls"
    # on line 3; none that would need line 4.
    assert agree.ngrams_found == 6 + 2
    assert (short.good_found, short.bad_found, short.short) == (1, 0, 2)
    assert short.examples == ["Who left?"]


def test_overlap_counts_distinct_ngrams_once(tmp_path: Path) -> None:
    pairs = [MinimalPair("a b c d e.", "a b c d f.", "u")]
    rows = scan(write(tmp_path, "a b c d e\na b c d e\n"), n=4, pairs=pairs)
    row = rows["u"]
    assert (row.ngrams, row.ngrams_found, row.good_found, row.bad_found) == (3, 2, 1, 0)


def test_overlap_gzip_and_jsonl_corpora(tmp_path: Path) -> None:
    gz = tmp_path / "c.txt.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as handle:
        handle.write("noise\nwho left\n")
    assert scan(gz)["short"].good_found == 1
    blimp = tmp_path / "blimp.jsonl"
    blimp.write_text(
        json.dumps({"sentence_good": "Who left?", "sentence_bad": "Who did left?"})
        + "\n"
        + json.dumps({"text": "the boys have admired these cups"})
        + "\n",
        encoding="utf-8",
    )
    rows = scan(blimp)
    assert (rows["short"].good_found, rows["short"].bad_found, rows["agree"].good_found) == (1, 1, 1)


def test_overlap_jsonl_sentences_are_separate_lines(tmp_path: Path) -> None:
    pairs = [MinimalPair("a b c d e f.", "a b c x e f.", "u")]
    blimp = tmp_path / "b.jsonl"
    blimp.write_text(json.dumps({"sentence_good": "a b c", "sentence_bad": "d e f"}) + "\n", encoding="utf-8")
    assert scan(blimp, n=4, pairs=pairs)["u"].ngrams_found == 0


def test_overlap_folder_corpus_reads_every_file(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    write(folder, "who left\n", "a.txt")
    write(folder, "who did left\n", "b.txt")
    write(folder, "the boys have admired these cups\n", ".hidden.txt")
    rows = scan(folder)
    assert (rows["short"].good_found, rows["short"].bad_found, rows["agree"].good_found) == (1, 1, 0)


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (b"fine\nalso fine\nbad \xff byte\n", "corpus.txt:3: not UTF-8 (byte 0xff at column 5)"),
        (b"\xef\xbb\xbfbom is fine\n\xc3(\n", "corpus.txt:2: not UTF-8 (byte 0xc3 at column 1)"),
    ],
)
def test_overlap_non_utf8_line_is_located(tmp_path: Path, content: bytes, where: str) -> None:
    from blimpgen.errors import DataError

    path = tmp_path / "corpus.txt"
    path.write_bytes(content)
    with pytest.raises(DataError) as caught:
        scan(path)
    assert str(caught.value).startswith(str(tmp_path / where)) and "convert the corpus to UTF-8" in str(caught.value)


def test_overlap_bad_json_and_unreadable_file_are_located(tmp_path: Path) -> None:
    from blimpgen.errors import DataError

    bad = tmp_path / "c.jsonl"
    bad.write_text('{"text": "ok"}\n{"text": \n', encoding="utf-8")
    with pytest.raises(DataError, match=r"c\.jsonl:2: invalid JSON"):
        scan(bad)
    none = tmp_path / "d.jsonl"
    none.write_text('{"text": "ok"}\n\n{"id": 3}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"d\.jsonl:3: no sentence_good, sentence_bad or text field"):
        scan(none)
    broken = tmp_path / "e.txt.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00not really gzip")
    with pytest.raises(DataError, match=r"e\.txt\.gz:1: cannot read corpus"):
        scan(broken)
    with pytest.raises(DataError, match="no such corpus file or folder"):
        scan(tmp_path / "missing.txt")


def test_overlap_block_boundaries_do_not_split_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from blimpgen.authoring import corpus as corpus_module

    monkeypatch.setattr(corpus_module, "BLOCK", 7)  # every block ends mid-line
    lines = ["x y z"] * 5 + ["the boys have admired these cups"] + ["w"] * 3 + ["bad \xff"]
    path = tmp_path / "c.txt"
    path.write_bytes("\n".join(lines[:-1]).encode() + b"\nbad \xff\n")
    from blimpgen.errors import DataError

    with pytest.raises(DataError, match=r"c\.txt:10: not UTF-8"):
        scan(path)
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    assert scan(path)["agree"].good_found == 1


def test_overlap_data_reads_generated_files(tmp_path: Path) -> None:
    data = tmp_path / "pairs.jsonl"
    data.write_text("\n".join(json.dumps(p.to_dict()) for p in PAIRS) + "\n", encoding="utf-8")
    report = overlap_data(data, write(tmp_path, "who left\n"), n=8)
    assert [row.uid for row in report.rows] == ["agree", "short"]
    assert report.corpus_lines == 1 and report.corpus_tokens == 2
    text, table = render_text(report), render_markdown(report)
    assert "short: OVERLAP (1 pairs)" in text and "e.g. Who left?" in text
    assert "| `short` | 1 | 1/1 (100.0%) | 0/1 |" in table and "| **total** | 3 |" in table


WORDS = st.sampled_from(["the", "boys", "have", "admired", "these", "cups", "dog", "a", "of", "it"])
NOISE = st.lists(st.text(alphabet=st.sampled_from("abc XYZ.,;!?'\"-\t"), max_size=20), max_size=6)


@given(
    sentence=st.lists(WORDS, min_size=1, max_size=12),
    before=NOISE,
    after=NOISE,
    at=st.integers(0, 6),
    left=st.sampled_from(["", "Hello ", "x, ", "(", '"', " -- "]),
    right=st.sampled_from(["", ".", " again", '!"', ")"]),
    n=st.integers(1, 9),
)
def test_overlap_inserted_sentence_is_always_found(
    tmp_path_factory: pytest.TempPathFactory,
    sentence: list[str],
    before: list[str],
    after: list[str],
    at: int,
    left: str,
    right: str,
    n: int,
) -> None:
    text = " ".join(sentence).capitalize() + "."
    lines = [line.replace("\n", " ") for line in before + after]
    lines.insert(min(at, len(lines)), f"{left}{text.upper() if at % 2 else text}{right}")
    path = tmp_path_factory.mktemp("c") / "corpus.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    index = index_pairs([MinimalPair(text, "Zzz qqq.", "u")], n)
    row = scan_corpus(index, path).rows[0]
    assert row.good_found == 1 and row.pairs_found == 1
    assert row.ngrams_found == len({tuple(sentence[i : i + n]) for i in range(len(sentence) - n + 1)})


def test_overlap_index_refuses_pairs_after_a_scan() -> None:
    index = OverlapIndex(2)
    index.add("u", "a b", "a c")
    index.scan(b"a b\n")
    with pytest.raises(RuntimeError):
        index.add("u", "d e", "d f")
