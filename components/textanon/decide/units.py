"""Units of a document: stretches of text that the masking decision masks whole or not at all.

Mentions are masked one by one, and a word the search risk masks ("Desk") can sit inside a name the recognizer did
not detect as one entity ("the four Drama Desk Awards"): a mask covering part of such a name leaves fragments that
still point to it ("four Drama *** Awards"). :func:`doc_units` lists the units the decision knows, as character
spans ``(start, end, kind)``:

* ``span``: a span of the decision's span groups of two tokens or more (entities, multi-word candidates, the LLM
  anonymizer's spans), with the bracket that closes one it leaves open right after it (:func:`closing_bracket`);
* ``name``: a maximal run of proper nouns: capitalized words (a sentence's first word: the tagger's PROPN where the
  doc is tagged, else when a name's word follows it, as in "Drama Desk Awards" — privacy first, "Later Petrescu"
  is one unit too), joined by connectors ("of", "the", "and", "&", "de",
  "van", a hyphen, quotation marks: "Bank of England", 'Danny "Danno" Williams') between capitalized words. A run
  starts and ends on a word that is no stop word (not "The"); it is cut where two different detected entities meet
  ("Monday" + "Ion Rusu", "Ion" and "Maria" detected apart): the recognizer's segmentation wins there; inside a
  sentence a capitalized article starts it ("in The Tempest": "The Tempest", never "The ***");
* ``title``: a quoted title (1-12 words, every content word capitalized: "The Sound of Music"; quoted speech is
  no unit);
* ``chunk``: the proper-noun part of a noun chunk (from its first PROPN to its last) where the doc is parsed;
* ``work``: a title right before a release year in parentheses ("Lookin' to Get Out (1982)", "Gone in 60 Seconds
  (2000)", "Girl, Interrupted (1999)", "Lara Croft: Tomb Raider (2001)"): the words back from the year that are
  capitalized, numbers, or lower-case words titles hold ("in", "to", "of" ...: :data:`TITLE_WORDS`), a comma or colon
  only between two capitalized words, nothing but spaces between them; from its first capitalized word or number.
  A title is one name however its words are tagged ("Lookin'" a place, "60 Seconds" a date): a mask on part of it
  leaves the rest searchable ("***' to Get Out (1982)").
* ``glued``: tokens written as one word, a letter or digit on each side of every joint ("6m", "10am", "cannot",
  "won't" as "wo" + "n't"): a mask on one token would leave "***m" or "***n't".

A unit that holds one quotation mark of a quoted stretch and not the other takes in the whole stretch
(:func:`whole_quotes`: a noun chunk that ends inside a quoted title).

Leading determiners and numbers carry their own meaning and start no name or chunk unit ("four Drama Desk Awards":
the unit is "Drama Desk Awards"; a quoted title is the text between its quotes); a number word written with a capital
inside a sentence is a name's own word ("her sitcom The Seven Roses": "The Seven Roses", never "The *** Roses").
:func:`cover_units` extends every placeholder mask that covers part of a unit to the whole unit (the optimizer's
``whole_units`` setting).
"""

import bisect
import re
from typing import Callable, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Span

from textanon.doc_text import text_of
from textanon.render.masking import Mask, covered, merge, overlap_test

#: ``(start_char, end_char, kind)``; kind: ``span``, ``name``, ``title``, ``chunk``, ``work`` or ``glued``
Unit = Tuple[int, int, str]
SPAN, NAME, TITLE, CHUNK, WORK, GLUED = "span", "name", "title", "chunk", "work", "glued"
#: lower-case words that join two capitalized words into one name ("Bank of England", "Procter & Gamble")
CONNECTORS = frozenset(
    {"of", "the", "for", "and", "&", "de", "del", "della", "da", "das", "do", "dos", "du", "des", "van", "von", "der"}
    | {"den", "la", "le", "y", "-", "'", '"', "“", "”", "‘", "’"}
)
#: articles written with a capital inside a sentence: the name's own ("in The Tempest", "in A Midsummer Night's
#: Dream"), so they start a name run there (a sentence's first "The" is the sentence's)
ARTICLES = frozenset({"The", "A", "An"})
#: connectors in a row that a run may cross ("of the")
MAX_CONNECTORS = 2
#: a quoted stretch of text (a title candidate: :data:`MAX_TITLE_WORDS` words at most)
QUOTED = re.compile(r"[\"“”]([^\"“”\n]{2,120})[\"“”]")
MAX_TITLE_WORDS = 12
SENTENCE_END = frozenset({".", "!", "?", ":", ";"})
OPENERS = frozenset({'"', "“", "'", "‘", "(", "["})
WORD_SPAN_SOURCE = "candidate:word"  # a single word the search risk masks: a fragment, never a unit's owner


def doc_units(doc: Doc, spans_key: str, extra_keys: Sequence[str] = ()) -> List[Unit]:
    """The units of ``doc`` (module docstring), sorted by start; ``spans_key``: the detected spans (their entity
    ids cut name runs), ``extra_keys``: more span groups whose spans are units."""
    owners = _owners(doc, doc.spans.get(spans_key, []))
    text = text_of(doc)
    units: Set[Unit] = set()
    for key in [spans_key, *extra_keys]:
        units.update(
            (s.start_char, closing_bracket(text, s.start_char, s.end_char), SPAN)
            for s in doc.spans.get(key, [])
            if len(s) >= 2
        )
    units.update(_name_runs(doc, owners))
    quoted = list(QUOTED.finditer(text))  # read once: the titles and the quoted stretches units take in whole
    units.update(_titles(quoted))
    units.update(released_works(text))
    units.update(_glued(doc))
    if doc.has_annotation("DEP"):
        units.update(_chunks(doc))
    return sorted(whole_quotes(quoted, units))


def whole_quotes(quoted: Sequence["re.Match[str]"], units: Iterable[Unit]) -> Set[Unit]:
    """``units`` where a unit that holds one quotation mark of a quoted stretch (``quoted``: the text's matches of
    :data:`QUOTED`, in order) and not the other takes in the whole stretch: a noun chunk "the Warner Brothers
    showcase movie "Show" ends inside the quoted title "Show of Shows", and a mask on both would leave the closing mark
    alone ("a star in the ***", but"). Privacy first: the unit grows, never shrinks."""
    if not quoted:
        return set(units)
    stretches = [(m.start(), m.end()) for m in quoted]
    starts = [q[0] for q in stretches]
    out: Set[Unit] = set()
    for start, end, kind in units:
        # the stretches that start before the unit ends (sorted, apart): those overlapping it are at the end of them
        n = bisect.bisect_left(starts, end)
        while n > 0 and stretches[n - 1][1] > start:
            n -= 1
            first, last = stretches[n]  # the marks at ``first`` and ``last - 1``
            if (start <= first < end) != (start <= last - 1 < end):
                start, end = min(start, first), max(end, last)
        out.add((start, end, kind))
    return out


#: brackets a span may open and leave open: its closing one
_CLOSES = {"(": ")", "[": "]"}


def closing_bracket(text: str, start: int, end: int) -> int:
    """``end`` moved over the closing bracket right after ``text[start:end]`` when the span opens a bracket it does not
    close: the NER models stop entities inside brackets ("House Across the Bay (1940" before ")"), and a mask on the
    span would leave the bracket alone ("then he did ***) for ..."); the span is left as it is otherwise."""
    inside = text[start:end]
    for opening, closing in _CLOSES.items():
        if inside.count(opening) > inside.count(closing) and text[end : end + 1] == closing:
            return end + 1
    return end


def cover_units(masks: Iterable[Sequence], units: Sequence[Unit], placeholders: Set[str]) -> Tuple[List[Mask], int]:
    """``masks`` (merged) with every unit that a placeholder mask (its replacement in ``placeholders``) covers in part
    covered whole, by that placeholder; again until no unit is covered in part (a unit covered whole can cover
    another in part). Returns (the masks, merged and sorted; how many units were extended)."""
    masks = merge(masks)
    extended = 0
    while True:
        ends = [m[1] for m in masks]
        new: List[Mask] = []
        for start, end, _ in units:
            first = bisect.bisect_right(ends, start)  # the first mask that ends after the unit starts
            last, rep = first, None
            while last < len(masks) and masks[last][0] < end:
                if rep is None and masks[last][2] in placeholders:
                    rep = masks[last][2]
                last += 1
            if rep is not None and not covered(masks[first:last], start, end):
                new.append((start, end, rep))
        if not new:
            return masks, extended
        extended += len(new)
        masks = merge(masks + new)


#: a word of a given name before the rest of the name: a capitalized word or an initial ("B.")
_NAME_WORD = re.compile(r"[A-Z][\w'’-]*\.?")


def cover_names(
    text: str, masks: Iterable[Sequence], units: Sequence[Unit], names: Set[str], given_name: Callable[[str], bool]
) -> Tuple[List[Mask], int]:
    """``masks`` (merged) where a mask written as another person's name (its replacement in ``names``: "another
    person") that covers the end of a name unit (:data:`NAME`) takes in the given names and initials of the unit right
    before it, spaces between: "His widow, Matilda [Catherine Lovibond Griffith]" -> "His widow, another person",
    never "Matilda another person"; "directed by Cecil [B. DeMille]" -> "directed by another person". Every word taken
    in is an initial or a given name (``given_name``), so a title stays ("then-Governor another person") and so does
    a word that joins two names ("Jon Voight and Marcheline"); no other mask is crossed. Returns (the masks, merged and
    sorted; how many were extended)."""
    masks = merge(masks)
    name_units = [(start, end) for start, end, kind in units if kind == NAME]
    if not name_units:
        return masks, 0
    out: List[Mask] = []
    extended = 0
    for start, end, rep in masks:
        if rep in names and start > 0 and text[start - 1] in " \t":
            floor = out[-1][1] if out else 0
            first = start
            for unit_start, unit_end in name_units:
                if floor <= unit_start < start < unit_end:
                    words = text[unit_start:start].split()
                    if words and all(_NAME_WORD.fullmatch(w) and (len(w) <= 2 or given_name(w)) for w in words):
                        first = min(first, unit_start)
            if first < start:
                extended += 1
            start = first
        out.append((start, end, rep))
    return out, extended


def overlapping_units(units: Sequence[Unit], chars: Iterable[Tuple[int, int]]) -> List[Unit]:
    """The units that overlap one of the character spans ``chars``."""
    overlaps = overlap_test(chars)
    return [unit for unit in units if overlaps(unit[0], unit[1])]


def _owners(doc: Doc, spans: Iterable[Span]) -> List[Optional[str]]:
    """Per token, the entity id of the detected span that holds it (None: none, or a masked word's span)."""
    owners: List[Optional[str]] = [None] * len(doc)
    for i, span in enumerate(spans):
        if span._.source == WORD_SPAN_SOURCE:
            continue
        for t in range(span.start, span.end):
            owners[t] = owners[t] or span._.entity_id or f"span_{i}"
    return owners


def _name_runs(doc: Doc, owners: List[Optional[str]]) -> List[Unit]:
    """Maximal runs of proper nouns with their connectors (module docstring), two words or more. Reads every token
    once into plain lists (a spaCy token costs an object each time it is read)."""
    tagged = doc.has_annotation("POS") or doc.has_annotation("TAG")
    parsed = doc.has_annotation("SENT_START")
    texts, idx, numeric, propn, starts = [], [], [], [], []
    for token in doc:
        texts.append(token.text)
        idx.append(token.idx)
        numeric.append(token.like_num)
        propn.append(tagged and token.pos_ == "PROPN")
        starts.append(parsed and bool(token.is_sent_start))
    if not parsed:
        starts = [_sentence_start(texts, i) for i in range(len(texts))]
    connector = [t.lower() in CONNECTORS for t in texts]
    name = [False] * len(texts)
    next_name = False  # whether the next word that is no connector (MAX_CONNECTORS at most) is a name's
    connectors = 0
    for i in range(len(texts) - 1, -1, -1):  # from the end: a sentence's first word looks at the words after it
        text = texts[i]
        if text[:1].isupper() and not (numeric[i] and starts[i]) and any(c.isalpha() for c in text):
            # a capitalized number word inside a sentence is a name's ("The Seven Roses", "Ocean's Eleven"); a
            # sentence's first one is the sentence's ("Four Drama Desk Awards were ...": a leading number)
            # a sentence's first word: the tagger's PROPN, else privacy first ("Drama Desk Awards", "Later Petrescu")
            name[i] = not starts[i] or (propn[i] if tagged else next_name and not _stop(text))
        if name[i]:
            next_name, connectors = True, 0
        elif connector[i] and connectors < MAX_CONNECTORS:
            connectors += 1
        else:
            next_name, connectors = False, 0
    runs: List[Unit] = []
    run: List[int] = []
    pending: List[int] = []
    owner: Optional[str] = None

    def close() -> None:
        if not run:
            return
        while run and _stop(texts[run[-1]]):
            run.pop()
        while run and _stop(texts[run[0]]) and not (name[run[0]] and texts[run[0]] in ARTICLES):
            run.pop(0)
        if sum(name[i] for i in run) >= 2:
            runs.append((idx[run[0]], idx[run[-1]] + len(texts[run[-1]]), NAME))

    for i in range(len(texts)):
        if name[i]:
            mine = owners[i]
            if run and mine is not None and owner is not None and mine != owner:  # two detected entities meet
                close()
                run, owner = [], None
            elif run:
                run.extend(pending)
            run.append(i)
            owner = mine or owner
            pending = []
        elif run and connector[i] and len(pending) < MAX_CONNECTORS:
            pending.append(i)
        else:
            close()
            run, pending, owner = [], [], None
    close()
    return runs


def _stop(text: str) -> bool:
    """A capitalized stop word ("The", "I") or a connector: it never starts nor ends a name."""
    lower = text.lower()
    return (not (len(text) > 1 and text.isupper()) and lower in STOP_WORDS) or lower in CONNECTORS


def _sentence_start(texts: List[str], i: int) -> bool:
    """Whether token ``i`` (of the tokens ``texts``) opens a sentence: the punctuation or line break before it."""
    i -= 1
    while i >= 0 and texts[i] in OPENERS:
        i -= 1
    return i < 0 or texts[i] in SENTENCE_END or (not texts[i].strip() and "\n" in texts[i])


def _titles(quoted: Sequence["re.Match[str]"]) -> List[Unit]:
    """Quoted titles (of ``quoted``, the text's matches of :data:`QUOTED`): 1-12 words, at least one capitalized,
    every word that is no stop word capitalized."""
    out = []
    for m in quoted:
        inner = m.group(1).strip()
        words = re.findall(r"\w[\w'’.-]*", inner)
        if not words or len(inner.split()) > MAX_TITLE_WORDS:
            continue
        content = [w for w in words if w.lower() not in STOP_WORDS and not w[0].isdigit()]
        if content and all(w[0].isupper() for w in content):
            start = m.start(1) + m.group(1).index(inner)
            out.append((start, start + len(inner), TITLE))
    return out


#: a release year in parentheses after a title ("Hackers (1995)")
RELEASE_YEAR = re.compile(r"(?<=\S)(\s+)\((?:1[89]\d\d|20\d\d)\)")
#: the lower-case words a title holds between its capitalized words ("Gone in 60 Seconds", "Lookin' to Get Out")
TITLE_WORDS = CONNECTORS | {"a", "an", "in", "to", "on", "at", "by", "with", "from", "or", "is", "as", "into", "up"}
#: a title's words and the punctuation that may join two of them
_TITLE_TOKEN = re.compile(r"[\w][\w'’.-]*|[,:&]")
#: how far back from the year a title is read (characters)
MAX_WORK_CHARS = 160


def released_works(text: str) -> List[Unit]:
    """The titles right before a release year (module docstring, ``work``), as units."""
    out = []
    for m in RELEASE_YEAR.finditer(text):
        end = m.start(1)
        lo = max(0, end - MAX_WORK_CHARS)
        tokens = [(t.start(), t.end(), t.group()) for t in _TITLE_TOKEN.finditer(text, lo, end)]
        taken: List[Tuple[int, int, str]] = []
        for i in range(len(tokens) - 1, -1, -1):
            start, stop, word = tokens[i]
            gap_end = taken[-1][0] if taken else end
            if text[stop:gap_end].strip():  # a bracket, a quote, a full stop between: the title ends there
                break
            if word in (",", ":"):
                left = tokens[i - 1][2] if i > 0 else ""
                if not (taken and _capitalized(taken[-1][2]) and _capitalized(left)):
                    break
            elif not (_capitalized(word) or word[0].isdigit() or word.lower() in TITLE_WORDS):
                break
            taken.append(tokens[i])
            if len(taken) > 2 * MAX_TITLE_WORDS:
                break
        while taken and not (_capitalized(taken[-1][2]) or taken[-1][2][0].isdigit()):
            taken.pop()  # it starts on a capitalized word or a number ("starred in [Gone in 60 Seconds]")
        if taken and any(_capitalized(w) for _, _, w in taken) and len(taken) <= MAX_TITLE_WORDS + 2:
            out.append((taken[-1][0], taken[0][1], WORK))
    return out


def _capitalized(word: str) -> bool:
    return word[:1].isupper()


def _glued(doc: Doc) -> List[Unit]:
    """Runs of two tokens or more with no space between them and a letter or digit on each side of every joint."""
    out, start = [], 0
    tokens = [(t.idx, t.text, t.whitespace_) for t in doc]  # each token read once (a court case: ~1,000 of them)
    last = len(tokens) - 1
    for i, (idx, text, space) in enumerate(tokens):
        joined = i < last and not space and text[-1:].isalnum() and tokens[i + 1][1][:1].isalnum()
        if not joined:
            if i > start:
                out.append((tokens[start][0], idx + len(text), GLUED))
            start = i + 1
    return out


def _chunks(doc: Doc) -> List[Unit]:
    """The proper-noun part of each noun chunk (its first PROPN to its last), two tokens or more."""
    out = []
    for chunk in doc.noun_chunks:
        propn = [t for t in chunk if t.pos_ == "PROPN"]
        if len(propn) >= 2:
            first, last = propn[0], propn[-1]
            out.append((first.idx, last.idx + len(last.text), CHUNK))
    return out
