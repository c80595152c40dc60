"""Words a noun phrase does not hold, for pipelines without a tagger: lower-case English words that WordNet 3.0 knows
mostly as a verb or an adverb ("starred", "alongside", "later", "known").

Without a parser the search risk's phrase candidates are runs of content words (:mod:`textanon.risk.search.candidates`),
so a verb or an adverb joined the nouns around it ("child alongside", "starred"), and a mask on such a run hid words
that are not the quasi-identifier. A word of this table is a candidate on its own instead (never dropped: masked
when it is informative by itself).

The table (:data:`TABLE`, one word a line) ships inside the package: reading NLTK's WordNet costs ~4 s at start-up,
the table a few milliseconds. It is derived, never written by hand: :func:`build` classifies every lower-case
alphabetic word of wordfreq's :data:`VOCABULARY` most frequent English words with :func:`verb_or_adverb` over
WordNet (the Debian database, :mod:`textanon.detect.gazetteer.wordnet_data`)::

    NLTK_DATA=assets/nltk_data python -m textanon lab build-word-classes

(``make word-classes``; a test rebuilds it and compares). A word missing from the table (rare, a name, a word
WordNet does not know) stays in its run, as before: the table can only split a run, never hide a word from the risk.
"""

from pathlib import Path
from typing import FrozenSet, Iterable, List, Optional, Union

from wordfreq import top_n_list

from textanon.detect.gazetteer.wordnet_data import load_wordnet
from textanon.detect.line_tables import read_lines, write_lines

#: the table shipped with the package (:func:`build` writes it)
TABLE = Path(__file__).with_name("verb_adverb_words.txt")
#: how many of wordfreq's most frequent English words are classified
VOCABULARY = 50_000
NOUN_ADJ, VERB_ADV = ("n", "a"), ("v", "r")


def verb_or_adverb(word: str, wordnet) -> bool:
    """Whether WordNet knows ``word`` mostly as a verb or an adverb: over its senses as each part of speech, each
    sense weighing its SemCor tag count + 1 (a sense never tagged still counts), the verb and adverb senses outweigh
    the noun and adjective ones. "starred" (verb 3 senses, 3 tags; adjective 1, 0 tags), "appeared" and "alongside"
    (adverb only) are, and so are nouns tagged far more often as verbs ("nurse", "play": then a candidate of their
    own, still masked when informative); "film" (noun 64 tags against verb 2), "best" (adjective) are not; a word
    WordNet does not know is not."""

    def weight(pos: str) -> int:
        forms = {word} | {f.lower() for f in wordnet._morphy(word, pos)}
        total = 0
        for synset in wordnet.synsets(word, pos):
            total += 1 + max((lemma.count() for lemma in synset.lemmas() if lemma.name().lower() in forms), default=0)
        return total

    return sum(map(weight, VERB_ADV)) > sum(map(weight, NOUN_ADJ))


def vocabulary(size: int = VOCABULARY) -> List[str]:
    """The lower-case alphabetic words among wordfreq's ``size`` most frequent English words."""
    return [w for w in top_n_list("en", size) if w.isalpha() and w.islower()]


def build(words: Optional[Iterable[str]] = None, nltk_data: Optional[Union[str, Path]] = None) -> List[str]:
    """The sorted words of ``words`` (default: :func:`vocabulary`) that :func:`verb_or_adverb` holds, over the
    WordNet of ``nltk_data`` (default: ``NLTK_DATA``)."""
    wordnet = load_wordnet(nltk_data)
    return sorted({w for w in (vocabulary() if words is None else words) if verb_or_adverb(w, wordnet)})


def write_table(words: Iterable[str], path: Path = TABLE) -> None:
    """Write ``words`` as the table :func:`verb_adverb_words` reads (one word a line)."""
    write_lines(words, path)


def verb_adverb_words(path: Path = TABLE) -> FrozenSet[str]:
    """The words of the shipped table (read once)."""
    return read_lines(path)
