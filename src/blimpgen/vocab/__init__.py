"""The feature-annotated English lexicon: data files, feature inventory, queries, morphology."""

from blimpgen.vocab.features import Feature, FeatureInventory, load_inventory
from blimpgen.vocab.lexeme import Lexeme, Word
from blimpgen.vocab.lexicon import Lexicon, build_lexicon, load_lexicon, load_lexicon_files

__all__ = [
    "Feature",
    "FeatureInventory",
    "Lexeme",
    "Lexicon",
    "Word",
    "build_lexicon",
    "load_inventory",
    "load_lexicon",
    "load_lexicon_files",
]
