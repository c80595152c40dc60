"""The offline WordNet reader (textanon.detect.gazetteer.wordnet_data.load_wordnet) reads the same synsets as nltk's
own reader of the same folder: its data files are read as bytes decoded line by line, not through nltk's stream."""

import os
from pathlib import Path

import pytest

NLTK_DATA = os.environ.get("NLTK_DATA")
pytestmark = pytest.mark.skipif(
    not (NLTK_DATA and (Path(NLTK_DATA) / "corpora/wordnet/lexnames").exists()),
    reason="WordNet data not prepared (make gazetteer does it)",
)


def _described(synset):
    return (
        synset.name(),
        synset.offset(),
        synset.definition(),
        tuple(synset.examples()),
        tuple(lemma.name() for lemma in synset.lemmas()),
        tuple(h.name() for h in synset.hypernyms() + synset.instance_hypernyms()),
        tuple(sorted(h.name() for h in synset.hyponyms())),
    )


def test_the_fast_reader_reads_the_synsets_nltks_stream_reads():
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.data import FileSystemPathPointer

    from textanon.detect.gazetteer.wordnet_data import _DataFile, load_wordnet

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = WordNetCorpusReader(FileSystemPathPointer(str(Path(NLTK_DATA) / "corpora" / "wordnet")), None)
    offsets = [(s.pos(), s.offset()) for w in ("entity", "film", "quickly", "blue") for s in plain.synsets(w)]
    fast = load_wordnet(NLTK_DATA)  # a new reader: nothing read yet, every synset read by offset from the file
    assert isinstance(fast._data_file("n"), _DataFile)
    for pos, offset in offsets:
        assert _described(fast.synset_from_pos_and_offset(pos, offset)) == _described(
            plain.synset_from_pos_and_offset(pos, offset)
        )
    words = ["actress", "surgeon", "award", "Oscar", "pneumonia", "café", "run", "quickly", "blue", "bank"]
    for word in words:
        for pos in ("n", "v", "a", "r"):
            assert [_described(s) for s in fast.synsets(word, pos)] == [_described(s) for s in plain.synsets(word, pos)]
    assert fast.get_version() == plain.get_version()


def test_the_fast_reader_reads_the_counts_nltks_stream_reads():
    """The SemCor counts file, read as bytes: nltk's binary search (``Lemma.count()``) finds the same counts, and the
    generalizer's table read line by line (``hypernyms.lemma_count``) holds nltk's stream's lines."""
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.data import FileSystemPathPointer

    from textanon.detect.gazetteer.wordnet_data import _DataFile, load_wordnet

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = WordNetCorpusReader(FileSystemPathPointer(str(Path(NLTK_DATA) / "corpora" / "wordnet")), None)
    fast = load_wordnet(NLTK_DATA)
    with fast.open("cntlist.rev") as counts:
        assert isinstance(counts, _DataFile)
        fast_lines = [line.rstrip("\n") for line in counts]
    with plain.open("cntlist.rev") as counts:
        assert fast_lines == [line.rstrip("\n") for line in counts]
    assert len(fast_lines) > 30_000
    words = ["actor", "doctor", "city", "film", "award", "run", "blue", "quickly", "café", "zymurgy"]
    lemmas = [(s.name(), lemma.name()) for w in words for s in plain.synsets(w) for lemma in s.lemmas()]
    assert [fast.lemma(f"{s}.{name}").count() for s, name in lemmas] == [
        plain.lemma(f"{s}.{name}").count() for s, name in lemmas
    ]
    assert any(plain.lemma(f"{s}.{name}").count() > 0 for s, name in lemmas)


def test_the_fast_reader_builds_nltks_index_with_the_collector_left_as_it_was():
    """Every lemma's synset offsets by part of speech, the adjective satellites among them, and the satellite offsets:
    nltk's own loader's, read with one split per line and the collector paused (restored after)."""
    import gc
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.data import FileSystemPathPointer

    from textanon.detect.gazetteer.wordnet_data import load_wordnet

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = WordNetCorpusReader(FileSystemPathPointer(str(Path(NLTK_DATA) / "corpora" / "wordnet")), None)
    assert gc.isenabled()
    fast = load_wordnet(NLTK_DATA)
    assert gc.isenabled()
    assert fast.satellite_offsets == plain.satellite_offsets and len(fast.satellite_offsets) > 10_000
    assert dict(fast._lemma_pos_offset_map) == dict(plain._lemma_pos_offset_map)
    assert len(fast._lemma_pos_offset_map) > 140_000
    gc.disable()
    try:
        load_wordnet(NLTK_DATA)
        assert not gc.isenabled()  # an application that turned it off keeps it off
    finally:
        gc.enable()


def _slots(obj, skip):
    """The values of an nltk WordNet object's slots (they are slotted classes), ``skip`` left out."""
    names = [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())]
    return {name: getattr(obj, name, None) for name in names if name not in skip}


def _state(synset):
    """Everything nltk's parse of a data line sets on a synset and its lemmas (the reader itself left out)."""
    state = _slots(synset, ("_wordnet_corpus_reader", "_lemmas"))
    state["_pointers"] = {k: sorted(v) for k, v in state["_pointers"].items()}
    state["_lemma_pointers"] = dict(state["_lemma_pointers"])
    return state, [_slots(lemma, ("_synset", "_wordnet_corpus_reader")) for lemma in synset._lemmas]


def test_the_fast_reader_parses_every_synset_as_nltk_does():
    """Every line of the four data files (every seventh of the nouns'), parsed by the reader's own line parser and by
    nltk's: the same synset, lemmas, pointers, verb frames, sense keys and name.
    A malformed line raises nltk's error."""
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader, WordNetError
    from nltk.data import FileSystemPathPointer

    from textanon.detect.gazetteer.wordnet_data import load_wordnet

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = WordNetCorpusReader(FileSystemPathPointer(str(Path(NLTK_DATA) / "corpora" / "wordnet")), None)
    fast = load_wordnet(NLTK_DATA)
    assert type(fast)._synset_from_pos_and_line is not WordNetCorpusReader._synset_from_pos_and_line
    parsed = 0
    for suffix in ("noun", "verb", "adj", "adv"):
        lines = [
            line
            for line in (Path(NLTK_DATA) / "corpora/wordnet" / f"data.{suffix}").open(encoding="utf8")
            if line[0] != " "
        ]
        for line in lines[::7] if suffix == "noun" else lines:
            line_pos = line.split(None, 3)[2]
            assert _state(fast._synset_from_pos_and_line(line_pos, line)) == _state(
                plain._synset_from_pos_and_line(line_pos, line)
            )
            parsed += 1
    assert parsed > 45_000
    with pytest.raises(WordNetError, match="line"):
        fast._synset_from_pos_and_line("r", lines[0].replace("|", " "))
    with pytest.raises(WordNetError, match="line"):
        fast._synset_from_pos_and_line("r", " ".join(lines[0].split()[:5]) + " | gloss")
