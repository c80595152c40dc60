"""Prepare an offline NLTK data folder holding the WordNet 3.0 database from Debian.

Usage::

    python -m textanon.detect.gazetteer.wordnet_data DEST [--source DIR]

creates ``DEST/corpora/wordnet/`` with the database files that nltk's ``WordNetCorpusReader``
opens (``data.*``, ``index.*``, ``*.exc``, ``index.sense``, ``cntlist.rev``), taken from the
Debian packages ``wordnet-base`` and ``wordnet-sense-index`` (``/usr/share/wordnet``), plus the
``lexnames`` table that Debian ships only as the man page lexnames(5WN). Files are copied (about
36 MB); re-running is harmless (files already in place are kept). They cannot be links: nltk >= 3.9
resolves every path it opens, refuses those outside its data roots and refuses multiply-linked
files (``nltk.pathsec``), so point ``NLTK_DATA`` at DEST (the
Makefile does: ``NLTK_DATA=assets/nltk_data``). No network access is needed or attempted.
"""

import argparse
import os
import re
import shutil
import sys
import warnings
from pathlib import Path
from typing import List, Optional, Sequence, Union

from textanon.loading import collector_paused

#: Where Debian's ``wordnet-base`` / ``wordnet-sense-index`` install the database.
DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
APT_PACKAGES = ("wordnet-base", "wordnet-sense-index")

#: Database files nltk's WordNetCorpusReader opens (its ``_FILES``) minus ``lexnames``,
#: which we write ourselves. ``cntlist.rev`` gives ``Lemma.count()``.
WORDNET_FILES = (
    "cntlist.rev",
    "index.sense",
    "index.adj",
    "index.adv",
    "index.noun",
    "index.verb",
    "data.adj",
    "data.adv",
    "data.noun",
    "data.verb",
    "adj.exc",
    "adv.exc",
    "noun.exc",
    "verb.exc",
)
#: Shipped when present, not required by nltk.
OPTIONAL_FILES = ("cntlist", "frames.vrb", "sentidx.vrb", "sents.vrb")
#: WordNet's license (Debian's copy of it), kept beside every copy of the database as the license asks
DEBIAN_WORDNET_LICENSE = Path("/usr/share/doc/wordnet-base/copyright")
LICENSE_FILE = "LICENSE"

#: The 45 WordNet 3.0 lexicographer files (lexnames(5WN)): number, name, syntactic category
#: (1 noun, 2 verb, 3 adjective, 4 adverb). Written to ``lexnames`` as tab separated lines.
LEXNAMES = (
    (0, "adj.all", 3),
    (1, "adj.pert", 3),
    (2, "adv.all", 4),
    (3, "noun.Tops", 1),
    (4, "noun.act", 1),
    (5, "noun.animal", 1),
    (6, "noun.artifact", 1),
    (7, "noun.attribute", 1),
    (8, "noun.body", 1),
    (9, "noun.cognition", 1),
    (10, "noun.communication", 1),
    (11, "noun.event", 1),
    (12, "noun.feeling", 1),
    (13, "noun.food", 1),
    (14, "noun.group", 1),
    (15, "noun.location", 1),
    (16, "noun.motive", 1),
    (17, "noun.object", 1),
    (18, "noun.person", 1),
    (19, "noun.phenomenon", 1),
    (20, "noun.plant", 1),
    (21, "noun.possession", 1),
    (22, "noun.process", 1),
    (23, "noun.quantity", 1),
    (24, "noun.relation", 1),
    (25, "noun.shape", 1),
    (26, "noun.state", 1),
    (27, "noun.substance", 1),
    (28, "noun.time", 1),
    (29, "verb.body", 2),
    (30, "verb.change", 2),
    (31, "verb.cognition", 2),
    (32, "verb.communication", 2),
    (33, "verb.competition", 2),
    (34, "verb.consumption", 2),
    (35, "verb.contact", 2),
    (36, "verb.creation", 2),
    (37, "verb.emotion", 2),
    (38, "verb.motion", 2),
    (39, "verb.perception", 2),
    (40, "verb.possession", 2),
    (41, "verb.social", 2),
    (42, "verb.stative", 2),
    (43, "verb.weather", 2),
    (44, "adj.ppl", 3),
)


class WordNetDataError(RuntimeError):
    """The Debian WordNet files are missing or the corpus cannot be read."""


def lexnames_text() -> str:
    """The ``lexnames`` file content: ``NN<TAB>name<TAB>category`` per line."""
    return "".join(f"{num:02d}\t{name}\t{cat}\n" for num, name, cat in LEXNAMES)


def missing_source_files(source: Union[str, Path] = DEBIAN_WORDNET_DIR) -> List[str]:
    """The WordNet database files absent from ``source``."""
    return [name for name in WORDNET_FILES if not (Path(source) / name).is_file()]


def _up_to_date(src: Path, dst: Path) -> bool:
    if dst.is_symlink() or not dst.is_file():
        return False
    s, d = src.stat(), dst.stat()
    return d.st_nlink == 1 and s.st_size == d.st_size and int(s.st_mtime) == int(d.st_mtime)


def _install(src: Path, dst: Path) -> None:
    tmp = dst.with_name(dst.name + ".tmp")
    if tmp.exists() or tmp.is_symlink():
        tmp.unlink()
    shutil.copy2(src, tmp)  # keeps the mtime, which _up_to_date compares
    os.replace(tmp, dst)


def prepare_wordnet_data(dest: Union[str, Path], source: Union[str, Path] = DEBIAN_WORDNET_DIR) -> Path:
    """Create ``dest/corpora/wordnet`` from ``source``; return that corpus folder.

    Idempotent: files already in place (same size and mtime) are kept.
    Raises :class:`WordNetDataError` naming the apt packages when source files are missing.
    """
    source = Path(source)
    missing = missing_source_files(source)
    if missing:
        raise WordNetDataError(
            f"WordNet 3.0 files missing from {source}: {', '.join(missing)}. "
            f"Install the Debian packages: sudo apt-get install {' '.join(APT_PACKAGES)}"
        )
    corpus = Path(dest) / "corpora" / "wordnet"
    corpus.mkdir(parents=True, exist_ok=True)
    names = list(WORDNET_FILES) + [n for n in OPTIONAL_FILES if (source / n).is_file()]
    for name in names:
        src, dst = (source / name).resolve(), corpus / name
        if not _up_to_date(src, dst):
            _install(src, dst)
    if DEBIAN_WORDNET_LICENSE.is_file() and not _up_to_date(DEBIAN_WORDNET_LICENSE, corpus / LICENSE_FILE):
        _install(DEBIAN_WORDNET_LICENSE.resolve(), corpus / LICENSE_FILE)
    lexnames = corpus / "lexnames"
    text = lexnames_text()
    if lexnames.is_symlink() or not lexnames.is_file() or lexnames.read_text(encoding="utf8") != text:
        if lexnames.is_symlink():
            lexnames.unlink()
        lexnames.write_text(text, encoding="utf8")
    return corpus


def copy_wordnet_corpus(source: Union[str, Path], dest: Union[str, Path]) -> Path:
    """Copy the WordNet database that nltk's reader opens (:data:`WORDNET_FILES`, ``lexnames`` and the license
    where present) from the NLTK data folder ``source`` to ``dest/corpora/wordnet``; return that corpus folder. Plain
    copies, never links (nltk >= 3.9 refuses multiply-linked files). Raises :class:`WordNetDataError` when ``source``
    holds no WordNet."""
    src, corpus = Path(source) / "corpora" / "wordnet", Path(dest) / "corpora" / "wordnet"
    names = list(WORDNET_FILES) + ["lexnames"]
    missing = [n for n in names if not (src / n).is_file()]
    if missing:
        raise WordNetDataError(f"No WordNet corpus in {src} (missing {', '.join(missing)})")
    corpus.mkdir(parents=True, exist_ok=True)
    for name in names + ([LICENSE_FILE] if (src / LICENSE_FILE).is_file() else []):
        if not _up_to_date(src / name, corpus / name):  # kept when saved before (a pipeline saved into its folder)
            _install(src / name, corpus / name)
    return corpus


#: the files nltk's reader reads only sequentially, at construction
_POS_FILES = ("adj", "adv", "noun", "verb")
#: the SemCor counts (``Lemma.count()``): searched by nltk, read whole by the generalizer's table of counts
_COUNTS_FILE = "cntlist.rev"
#: a synset's gloss: its quoted examples, and the definition without them (nltk's patterns, over the standard library's
#: engine: they run on the WordNet files of the project, not on a caller's text)
_GLOSS_QUOTE = re.compile(r"[\"].*?[\"]")
_GLOSS_EXAMPLE = re.compile(r'"([^"]*)"')
#: an adjective lemma's syntactic marker: "galore(ip)"
_SYNTACTIC_MARKER = re.compile(r"(.*?)(\([^()]*\))?$")
_SEQUENTIAL_FILES = frozenset(["lexnames"] + [f"index.{p}" for p in _POS_FILES] + [f"{p}.exc" for p in _POS_FILES])


class _DataFile:
    """A WordNet data file as nltk's reader uses it (``seek`` to a synset's byte offset, ``readline``; the counts file
    also ``discard_line``, nltk's binary search, and line by line, :func:`textanon.decide.generalization.hypernyms.
    lemma_count`'s table), over a binary file: each line decoded from UTF-8, as nltk's seekable stream decodes it,
    without its per-character bookkeeping (a third of reading a synset; two thirds of reading the 37,000 counts)."""

    def __init__(self, path: Path):
        self._path = path
        self._file = open(path, "rb")  # noqa: SIM115 — kept open for the reader's life, as nltk keeps its own
        self._pid = os.getpid()

    def _handle(self):
        """The open file, opened again in a forked worker (``--n-process``): a file inherited from the parent shares
        its position with it and with every other worker, so one worker's ``seek`` moved another's ``readline`` (nltk
        then found no synset at the offset it asked for, and the generalizer failed on some documents)."""
        if self._pid != os.getpid():
            self._file = open(self._path, "rb")  # noqa: SIM115 — this process's own, kept open as above
            self._pid = os.getpid()
        return self._file

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._handle().seek(offset, whence)

    def tell(self) -> int:
        return self._handle().tell()

    def readline(self) -> str:
        return self._handle().readline().decode("utf8")

    def discard_line(self) -> None:
        self._handle().readline()

    def __iter__(self):
        return (line.decode("utf8") for line in self._handle())

    def read(self, size: int = -1) -> str:
        return self._handle().read(size).decode("utf8")

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "_DataFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def load_wordnet(nltk_data: Optional[Union[str, Path]] = None):
    """Return an nltk WordNet reader, offline.

    With ``nltk_data`` (a folder prepared by :func:`prepare_wordnet_data`) the reader is built
    directly on ``nltk_data/corpora/wordnet`` (and ``nltk_data`` is added to ``nltk.data.path``,
    which nltk >= 3.9 requires of every folder it reads); otherwise ``nltk.corpus.wordnet`` is
    used, which looks in ``NLTK_DATA`` and nltk's default roots.
    """
    try:
        import nltk.data
        from nltk.corpus.reader.wordnet import (
            ADJ_SAT,
            VERB_FRAME_STRINGS,
            Lemma,
            Synset,
            WordNetCorpusReader,
            WordNetError,
        )
        from nltk.data import FileSystemPathPointer
    except ImportError as exc:  # pragma: no cover - nltk is a declared dependency
        raise WordNetDataError("nltk is not installed: pip install 'nltk>=3.9'") from exc
    hint = (
        "run `python -m textanon.detect.gazetteer.wordnet_data DEST` and set NLTK_DATA=DEST "
        f"(needs the Debian packages {' and '.join(APT_PACKAGES)})"
    )
    if nltk_data is not None:
        corpus = Path(nltk_data) / "corpora" / "wordnet"
        if not (corpus / "lexnames").is_file():
            raise WordNetDataError(f"No WordNet corpus in {corpus}: {hint}")
        root = str(Path(nltk_data).resolve())
        if root not in nltk.data.path:
            nltk.data.path.insert(0, root)

        class EnglishWordNet(WordNetCorpusReader):
            """nltk's reader without the multilingual offset map. Its constructor reads ``index.sense`` twice
            to map Open Multilingual Wordnet offsets onto the loaded version (``map30``: half of the loading
            time), which only the multilingual functions use, and those need an OMW reader this one has not."""

            def map_wn(self, version="wordnet"):
                return None

            def _scan_satellites(self):
                """nltk's scan of ``data.adj`` for the offsets of adjective satellites (third field ``s``), reading
                the file as bytes split once per line: the same set, several times faster."""
                satellites = set()
                with open(corpus / "data.adj", "rb") as lines:
                    for line in lines:
                        if line.startswith(b" "):
                            continue
                        fields = line.split(None, 3)
                        if len(fields) >= 3 and fields[2] == b"s":
                            satellites.add(int(fields[0]))
                self.satellite_offsets = satellites

            def _load_lemma_pos_offset_map(self):
                """nltk's map lemma -> part of speech -> synset offsets (and the satellites among an adjective's
                offsets), read from the four index files with one split per line instead of nltk's token iterator
                and per-line closure: the same map (a test compares it with nltk's), several times faster. A
                malformed line raises nltk's ``WordNetError`` naming the file and line, as nltk's loader does."""
                index, satellites = self._lemma_pos_offset_map, self.satellite_offsets
                for suffix in self._FILEMAP.values():
                    with open(corpus / f"index.{suffix}", encoding="utf8") as lines:
                        for number, line in enumerate(lines, 1):
                            if line.startswith(" "):
                                continue
                            fields = line.split()
                            try:
                                lemma, pos, n_synsets, n_pointers = fields[0], fields[1], int(fields[2]), int(fields[3])
                                first = 6 + n_pointers  # after the pointer symbols, sense_cnt and tagsense_cnt
                                if n_synsets <= 0 or int(fields[first - 2]) != n_synsets:
                                    raise ValueError("the synset and sense counts differ")
                                offsets = [int(o) for o in fields[first : first + n_synsets]]
                                if len(offsets) != n_synsets:
                                    raise ValueError("fewer offsets than synsets")
                            except (IndexError, ValueError) as err:
                                raise WordNetError(f"file index.{suffix}, line {number}: {err}") from err
                            index[lemma][pos] = offsets
                            if pos == "a":  # nltk's ADJ: its satellites also under ADJ_SAT, in index order
                                index[lemma]["s"] = [o for o in offsets if o in satellites]

            def _synset_from_pos_and_line(self, pos, data_file_line):
                """nltk's parse of one line of a data file into a synset and its lemmas, over a list of the line's
                fields instead of a token iterator, with the standard library's regular expressions instead of
                nltk's guarded engine (``nltk.redos``: a timer around every match, three per synset; a fresh process
                reads thousands of synsets on its first documents): the same synset, lemmas, pointers, verb frames,
                sense keys and name (a test compares every synset of the four data files with nltk's)."""
                synset = Synset(self)
                lemmas = synset._lemmas
                try:
                    columns, gloss = data_file_line.strip().split("|")
                    synset._definition = _GLOSS_QUOTE.sub("", gloss).strip().strip("; ")
                    synset._examples.extend(_GLOSS_EXAMPLE.findall(gloss))
                    fields = columns.split()
                    synset._offset, lexname_index, synset._pos = int(fields[0]), int(fields[1]), fields[2]
                    synset._lexname = self._lexnames[lexname_index]
                    at = 4
                    for _ in range(int(fields[3], 16)):
                        name, lex_id = fields[at], int(fields[at + 1], 16)
                        at += 2
                        marker = None
                        if name.endswith(")"):  # nltk's pattern, on the lemmas it can change
                            name, marker = _SYNTACTIC_MARKER.match(name).groups()
                        lemma = Lemma(self, synset, name, lexname_index, lex_id, marker)
                        lemmas.append(lemma)
                        synset._lemma_names.append(lemma._name)
                    n_pointers, at = int(fields[at]), at + 1
                    for _ in range(n_pointers):
                        symbol, offset, target_pos, ids = fields[at : at + 4]
                        offset, at = int(offset), at + 4
                        if ids == "0000":
                            synset._pointers[symbol].add((target_pos, offset))
                        else:
                            source = lemmas[int(ids[:2], 16) - 1]._name
                            synset._lemma_pointers[source, symbol].append((target_pos, offset, int(ids[2:], 16) - 1))
                    if at < len(fields):  # the verb frames: "+ frame lemma" each
                        n_frames, at = int(fields[at]), at + 1
                        for _ in range(n_frames):
                            if fields[at] != "+":
                                raise ValueError(f"a verb frame starts with {fields[at]!r}, not '+'")
                            number, lemma_number = int(fields[at + 1]), int(fields[at + 2], 16)
                            at += 3
                            frame = VERB_FRAME_STRINGS[number]
                            if lemma_number == 0:  # every lemma of the synset
                                synset._frame_ids.append(number)
                            for lemma in lemmas if lemma_number == 0 else [lemmas[lemma_number - 1]]:
                                lemma._frame_ids.append(number)
                                lemma._frame_strings.append(frame % lemma._name)
                except (ValueError, IndexError) as err:  # nltk raises on a short line too (StopIteration there)
                    raise WordNetError(f"line {data_file_line!r}: {err}") from err
                number = WordNetCorpusReader._pos_numbers[synset._pos]
                head_name = head_id = ""
                if synset._pos == ADJ_SAT and lemmas:
                    head = synset.similar_tos()[0]._lemmas[0]
                    head_name, head_id = head._name, "%02d" % head._lex_id
                for lemma in lemmas:
                    key = (lemma._name, number, lemma._lexname_index, lemma._lex_id, head_name, head_id)
                    lemma._key = ("%s%%%d:%02d:%02d:%s:%s" % key).lower()
                first = lemmas[0]._name.lower()
                sense = self._lemma_pos_offset_map[first][synset._pos].index(synset._offset) + 1
                synset._name = "%s.%s.%02i" % (first, synset._pos, sense)
                return synset

            def open(self, fileid):
                """The index and exception files, read line by line once at construction, as plain text files
                (nltk's seekable stream reads them several times slower); the data files, in which the reader
                seeks by byte offset and reads one line (a synset), and the counts file (searched, or read whole),
                as :class:`_DataFile` (the same lines)."""
                if fileid in _SEQUENTIAL_FILES:
                    return open(corpus / fileid, encoding="utf8")
                if fileid.startswith("data.") or fileid == _COUNTS_FILE:
                    return _DataFile(corpus / fileid)
                return super().open(fileid)

        with warnings.catch_warnings(), collector_paused():  # "multilingual functions are not available"
            warnings.simplefilter("ignore")
            return EnglishWordNet(FileSystemPathPointer(str(corpus)), None)
    from nltk.corpus import wordnet

    try:
        wordnet.ensure_loaded()
    except LookupError as exc:
        raise WordNetDataError(f"WordNet not found on the NLTK data path: {hint}") from exc
    return wordnet


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: prepare the NLTK WordNet folder ``dest`` and check it loads; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m textanon.detect.gazetteer.wordnet_data", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("dest", type=Path, help="NLTK data folder to create (set NLTK_DATA to it)")
    parser.add_argument(
        "--source",
        type=Path,
        default=DEBIAN_WORDNET_DIR,
        help=f"WordNet database folder (default {DEBIAN_WORDNET_DIR})",
    )
    args = parser.parse_args(argv)
    try:
        corpus = prepare_wordnet_data(args.dest, args.source)
        wn = load_wordnet(args.dest)
        synset = wn.synset("entity.n.01")
    except WordNetDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(
        f"WordNet {wn.get_version()} ready in {corpus} ({synset.name()} ok); use NLTK_DATA={Path(args.dest).resolve()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
