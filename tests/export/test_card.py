"""The dataset card: a YAML header the Hub and ``datasets`` read, and a body for people."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from blimpgen.errors import BlimpgenError
from blimpgen.export import card
from blimpgen.records.pair import MinimalPair
from tests.export.conftest import UIDS


def _header_and_body(folder: Path) -> tuple[dict, str]:
    text = (folder / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    front, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(front), body


def test_card_header_parses_and_lists_every_config(exported: Path) -> None:
    header, _ = _header_and_body(exported)
    assert [c["config_name"] for c in header["configs"]] == list(UIDS)
    for config in header["configs"]:
        (entry,) = config["data_files"]
        assert entry["split"] == "train"
        assert [p.relative_to(exported).as_posix() for p in exported.glob(entry["path"])] == [
            f"data/{config['config_name']}/train-00000-of-00001.parquet"
        ]
    assert card.card_config_names(exported) == list(UIDS)
    assert card.read_card_header(exported) == header


def test_card_header_has_hub_metadata(exported: Path) -> None:
    header, _ = _header_and_body(exported)
    assert header["license"] == card.DEFAULT_LICENSE
    assert header["language"] == ["en"]
    assert header["task_categories"] == ["text-classification"]
    assert header["size_categories"] == ["n<1K"]
    assert header["pretty_name"] == card.DEFAULT_PRETTY_NAME


def test_card_body_lists_paradigms_counts_and_provenance(exported: Path, fixture_pairs) -> None:
    _, body = _header_and_body(exported)
    assert body.lstrip().startswith(card.CARD_MARKER)
    for uid, pairs in fixture_pairs.items():
        row = f"| {uid} | {pairs[0].field} | {pairs[0].linguistics_term} | {len(pairs)} |"
        assert row in body
    assert "| anaphor_gender_agreement | morphology | anaphor_agreement | 3 | not recorded |" in body
    assert "`spec-wh-5b2a`" in body
    assert "- seed: `0`" in body
    assert "- lexicon hash: `9f2c41d07ab3e865`" in body
    assert "**18**" in body
    assert "@article{warstadt2020blimp," in body and "@software{blimpgen," in body


@pytest.mark.parametrize(
    ("count", "label"),
    [
        (0, "n<1K"),
        (999, "n<1K"),
        (1_000, "1K<n<10K"),
        (67_000, "10K<n<100K"),
        (100_000, "100K<n<1M"),
        (1_000_000, "1M<n<10M"),
    ],
)
def test_card_size_category(count: int, label: str) -> None:
    assert card.size_category(count) == label


def test_card_summary_collects_distinct_provenance() -> None:
    pairs = [
        MinimalPair("a", "b", "x", field="syntax", linguistics_term="island", seed=s, spec_hash=h)
        for s, h in ((1, "h2"), (0, "h1"), (1, "h2"))
    ]
    summary = card.summarize_config("x", pairs)
    assert (summary.count, summary.seeds, summary.spec_hashes) == (3, (0, 1), ("h1", "h2"))
    assert (summary.field, summary.phenomenon, summary.lexicon_hashes) == ("syntax", "island", ())


def test_card_options_and_escaping() -> None:
    summary = card.summarize_config("x_1", [MinimalPair("a", "b", "x_1", linguistics_term="a|b")])
    text = card.render_card([summary], pretty_name="My pairs", license_id="mit", dataset_id="user/my_pairs")
    header = yaml.safe_load(text[4:].split("\n---\n", 1)[0])
    assert (header["pretty_name"], header["license"]) == ("My pairs", "mit")
    assert 'load_dataset("user/my_pairs", "x_1", split="train")' in text
    assert "| x_1 |  | a\\|b | 1 |" in text


def test_card_render_is_deterministic(fixture_pairs) -> None:
    summaries = [card.summarize_config(uid, pairs) for uid, pairs in sorted(fixture_pairs.items())]
    assert card.render_card(summaries) == card.render_card(summaries)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "no README.md"),
        ("# no header\n", "no YAML header"),
        ("---\n[unclosed\n---\nbody\n", "invalid YAML header"),
        ("---\n- a list\n---\n", "must be a mapping"),
        ("---\nlicense: mit\n---\n", "lists no configs"),
    ],
)
def test_card_read_errors(tmp_path: Path, text: str | None, message: str) -> None:
    if text is not None:
        (tmp_path / "README.md").write_text(text, encoding="utf-8")
    with pytest.raises(BlimpgenError, match=message):
        card.card_config_names(tmp_path)
