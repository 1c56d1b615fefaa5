"""Readers for the shared corpora, used by the lexicon proposal scripts.

Every function takes the corpora folder (``../shared/corpora`` in a checkout) as an argument;
nothing is read at import time. The scripts only *propose* rows and flags: a person reads and
fixes every row before it goes into ``src/blimpgen/vocab/data/lexicon/*.tsv``.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from collections import Counter
from functools import cache
from pathlib import Path

# WordNet's lexicographer file names; Debian's wordnet-base ships the data files without the
# ``lexnames`` index that nltk's reader opens, so we write it next to links to the data files.
LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute
noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group
noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession
noun.process noun.quantity noun.relation noun.shape noun.state noun.substance noun.time
verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption
verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social
verb.stative verb.weather adj.ppl""".split()
_POS_NUMBER = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}


@cache
def word_list(corpora: Path) -> frozenset[str]:
    """The Unix word lists (``words.zip``: ``en`` plus Ogden's ``en-basic``), case preserved.

    ``en`` (Webster's 2nd, 1934) lists citation forms only and misses a few everyday words
    (box, hang), which ``en-basic`` supplies.
    """
    with zipfile.ZipFile(Path(corpora) / "words.zip") as zf:
        return frozenset(
            zf.read("words/en").decode("utf-8").split() + zf.read("words/en-basic").decode("utf-8").split()
        )


@cache
def brown_counts(corpora: Path) -> Counter:
    """Lower-cased token frequencies of the Brown corpus (1.16 M tokens)."""
    counts: Counter = Counter()
    with zipfile.ZipFile(Path(corpora) / "brown.zip") as zf:
        for name in zf.namelist():
            base = name.rsplit("/", 1)[-1]
            if not re.fullmatch(r"c[a-r]\d\d", base):
                continue
            for token in zf.read(name).decode("utf-8").split():
                word = token.rsplit("/", 1)[0].lower()
                counts[word] += 1
    return counts


@cache
def brown_tagged(corpora: Path) -> Counter:
    """Counts of (lower-cased word, Brown tag prefix) pairs, e.g. ("run", "vb")."""
    counts: Counter = Counter()
    with zipfile.ZipFile(Path(corpora) / "brown.zip") as zf:
        for name in zf.namelist():
            if not re.fullmatch(r"c[a-r]\d\d", name.rsplit("/", 1)[-1]):
                continue
            for token in zf.read(name).decode("utf-8").split():
                word, _, tag = token.rpartition("/")
                counts[(word.lower(), tag.split("-")[0])] += 1
    return counts


@cache
def wikitext_counts(corpora: Path) -> Counter:
    """Lower-cased token frequencies of the WikiText-2 validation and test splits."""
    counts: Counter = Counter()
    for split in ("valid.txt", "test.txt"):
        path = Path(corpora) / "wikitext-2" / split
        if path.exists():
            counts.update(t.lower() for t in path.read_text(encoding="utf-8").split())
    return counts


def names(corpora: Path) -> tuple[list[str], list[str]]:
    """(male, female) first names of the Kantrowitz names corpus."""
    with zipfile.ZipFile(Path(corpora) / "names.zip") as zf:
        male = zf.read("names/male.txt").decode("utf-8").split()
        female = zf.read("names/female.txt").decode("utf-8").split()
    return male, female


def extract(corpora: Path, archive: str, into: Path) -> Path:
    """Extract ``archive`` (e.g. verbnet3.zip) under ``into`` and return the extracted folder."""
    with zipfile.ZipFile(Path(corpora) / archive) as zf:
        zf.extractall(into)
    return into / archive.removesuffix(".zip")


def wordnet(wordnet_dir: Path = Path("/usr/share/wordnet")):
    """nltk's WordNetCorpusReader on Debian's wordnet-base files (adds the missing lexnames)."""
    import shutil
    import warnings

    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    # nltk refuses files that resolve outside the reader's root, so copy rather than link.
    root = Path(tempfile.mkdtemp(prefix="wordnet-"))
    for path in Path(wordnet_dir).iterdir():
        if path.is_file():
            shutil.copy(path, root / path.name)
    (root / "lexnames").write_text(
        "".join(f"{i:02d}\t{n}\t{_POS_NUMBER[n.split('.')[0]]}\n" for i, n in enumerate(LEXNAMES))
    )
    nltk.data.path.insert(0, str(root))  # nltk only opens corpora under its data roots

    class _Reader(WordNetCorpusReader):
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # the OMW sense mapping needs nltk_data; we only read English WordNet

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return _Reader(str(root), None)


def read_tsv(path: Path) -> list[tuple[str, str, dict[str, str]]]:
    """Rows of a lexicon TSV as (text, category, {feature: value}); bare flags get value ''."""
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        feats = {}
        for item in (cols[2] if len(cols) > 2 else "").split(";"):
            if item.strip():
                name, _, value = item.strip().partition("=")
                feats[name.strip()] = value.strip()
        rows.append((cols[0], cols[1], feats))
    return rows


def verbnet(corpora: Path):
    """nltk's VerbnetCorpusReader on a temporary extracted copy of ``verbnet3.zip``."""
    import nltk
    from nltk.corpus.reader import VerbnetCorpusReader

    root = extract(corpora, "verbnet3.zip", Path(tempfile.mkdtemp(prefix="verbnet-")))
    nltk.data.path.insert(0, str(root.parent))  # nltk only opens corpora under its data roots
    return VerbnetCorpusReader(str(root), r".*\.xml")
