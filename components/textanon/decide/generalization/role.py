"""The protected person's role word ("the person", "the applicant") written in place of their name so that the
sentence still reads as English (the optimizer's ``target_role``).

:func:`role_masks` returns the masks for one occurrence of the name:

* the role, capitalized at a sentence's start ("The person was born ...");
* after a determiner, a possessor or "Dear", the role without its article ("the young Jane Smith" -> "the young
  person", "his Jane" -> "his person", "Dear Jane" -> "Dear person");
* a possessive name keeps a possessive: "Smith's" -> "the person's" (the "'s" outside the name stays), "Jones'"
  -> "the person's";
* a name right after "a", "an" or "the" that modifies the common noun after it is that noun's owner: "the Smith
  persona" -> "the person's persona", "a Smith film" -> "the person's film" (never "the person persona", "a person
  film"); without an article it stays as below (it may be a verb's object: "sent Smith flowers");
* a name after a bare title or premodifiers ("actress Jane Smith", "American actress Jane Smith", "Oscar winner
  Jane Smith") is dropped and the role's article is written before those words: "the actress", "the American
  actress" (true of the person, and fluent; "actress the person" is neither); after a determiner no article is
  added ("the actress Jane Smith" -> "the actress"); adjectives only ("young Jane Smith") take the role's noun:
  "the young person". The copied words stay outside every mask (an empty mask writes the article before them, a
  second one drops the name): offsets never count a word that is still shown as masked. A premodifier that
  another mask covers (``blocked``: an entity generalized or suppressed, "American" -> "a North American", and
  every occurrence of its form, ``blocked_forms``) ends the premodifiers: that mask writes it, no article is added
  before the words after it ("a North American actress", "*** actress");
* a courtesy title ("Mr", "Dr", "Sir") before the name is covered by the role: "Mr Smith" -> "the person";
* in a list the role reads as any noun phrase ("Tom, the person and Bob").

Premodifiers are read from the tagger's tags when the caller gives them (``tokens``: ``(start, word, tag)``):
adjectives, nouns and proper nouns, hyphenated participles ("Oscar-winning"). Without tags only a title that WordNet
knows as a person noun ("actress", "director") right before the name, with the capitalized words and WordNet nouns
and adjectives before it up to a stop word, a punctuation mark or the text's start, are taken; otherwise the name
alone is replaced."""

import bisect
import re
from typing import Collection, List, Optional, Sequence, Tuple

from spacy.lang.en.stop_words import STOP_WORDS

from textanon.decide.generalization.base import (
    ANY_ARTICLE_BEFORE,
    DETERMINERS,
    POSSESSIVE_BEFORE,
    determines,
    modifies_noun_after,
    sentence_start,
)
from textanon.decide.generalization.hypernyms import person_noun, wordnet
from textanon.detect.target import TITLES
from textanon.render.masking import overlap_test

#: tags of the words that may premodify a name ("American/JJ film/NN director/NN Jane Smith")
PREMODIFIER_TAGS = frozenset({"JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "HYPH", "AFX"})
#: tags of a noun: a premodifier run that ends with one is a title the role's article can take ("the actress")
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
#: words before a vocative name, after which the role takes no article ("Dear Mr Smith" -> "Dear person", "Hi Tomasz,"
#: -> "Hi person,", never "Hi the person,")
VOCATIVES = frozenset({"dear", "hi", "hello", "hey", "hiya", "thanks"})

#: characters before a name read for its premodifiers
_WINDOW = 80
_WORD = re.compile(r"[\w][\w'’.-]*")


def role_masks(
    text: str,
    start: int,
    end: int,
    role: str,
    tokens: Sequence[Tuple[int, str, str]] = (),
    blocked: Sequence[Tuple[int, int]] = (),
    blocked_forms: Collection[str] = (),
) -> List[Tuple[int, int, str]]:
    """The masks ``(start, end, replacement)``, in order, that write the role word ``role`` ("the person") for
    the name at ``start``-``end`` of ``text`` (module docstring); an empty mask inserts the role's article.
    ``tokens``: ``(char offset, word, tag)`` of the text from a tagger, when there is one; ``blocked``: character
    spans of other masks that must not be copied (a :class:`HiddenSpans`, built once, when the same spans serve many
    occurrences of the name); ``blocked_forms``: their surface forms, blocked wherever they occur (a masked surface is
    masked everywhere)."""
    if not role:
        return [(start, end, role)]
    article, noun = _split_role(role)
    name = text[start:end]
    possessive = ""
    if re.search(r"['’]s$", name):  # the occurrence holds the "'s": written again
        possessive = name[-2:]
    elif re.match(r"['’](?!\w)", text[end : end + 2]) and name.endswith("s"):
        possessive, end = text[end] + "s", end + 1  # "Jones'" -> "the person's"; "Lucas's" keeps its "'s"
    begin = _before_title(text, start)
    if not isinstance(blocked, HiddenSpans):
        blocked = HiddenSpans(blocked)
    first, words = _premodifiers(text, begin, tokens, blocked)
    if words and blocked_forms:  # a masked form among the premodifiers: masked there too
        window = text[first:begin]
        found = [
            (first + m.start(), first + m.end())
            for form in blocked_forms
            if form.strip() and form.split()[0].lower() in window.lower()
            for m in re.finditer(r"(?<!\w)" + r"\s+".join(map(re.escape, form.split())) + r"(?!\w)", window, re.I)
        ]
        if found:
            blocked = HiddenSpans(blocked.spans + found)
            first, words = _premodifiers(text, begin, tokens, blocked)
    before = _word_before(text, first)
    determined = before is not None and (  # "announced that Smith was": "that" a conjunction right before the name
        determines(before, name_follows=not words)
        or before.lower() in VOCATIVES
        or bool(POSSESSIVE_BEFORE.search(f"{before} "))
    )
    after_blocked = _after_hidden_premodifier(text, first, tokens, blocked, bool(words))
    owner = ANY_ARTICLE_BEFORE.search(text[max(0, first - 6) : first]) if not words and not possessive else None
    lead = "" if determined or after_blocked else article
    if owner and noun and modifies_noun_after(text, end):  # "the Smith persona" -> "the person's persona"
        lead = ""
        if owner.group(1).lower() == "the":
            masks = [(begin, end, noun + "'s")]
        else:  # "a Smith film" -> "the person's film": the film is the person's, not any person's
            masks = [(first - len(owner.group(0)), end, (article + " " if article else "") + noun + "'s")]
    elif words and words[-1][1]:  # a title: "[the ]American actress[ Jane Smith]"
        title_end = words[-1][0]
        masks = [(title_end, end, possessive)]  # the name (with the space before it) dropped
    elif words:  # adjectives: "[the ]young [Jane Smith ->]person"
        masks = [(begin, end, noun + possessive)]
    else:
        first = begin
        masks = [(begin, end, (lead + " " if lead else "") + noun + possessive)]
        lead = ""
    if lead:  # the article written before the copied words, which stay as they are
        masks.insert(0, (first, first, lead + " "))
    first_mask = masks[0]
    if sentence_start(text, first_mask[0]) and first_mask[2]:
        masks[0] = (first_mask[0], first_mask[1], first_mask[2][:1].upper() + first_mask[2][1:])
    return masks


class HiddenSpans:
    """The character spans of other masks (``blocked`` of :func:`role_masks`), their ends sorted and an overlap test
    built once: a long document asks them for each of thousands of occurrences of the name (build one per rendering
    and pass it)."""

    def __init__(self, spans: Sequence[Tuple[int, int]] = ()):
        self.spans = [(s, e) for s, e in spans]
        self.ends = sorted(e for _, e in self.spans)
        self.overlaps = overlap_test(self.spans)

    def last_end(self, low: int, high: int) -> Optional[int]:
        """The last end of a span in ``[low, high]``, None when none ends there."""
        at = bisect.bisect_right(self.ends, high)
        return self.ends[at - 1] if at and self.ends[at - 1] >= low else None


def _after_hidden_premodifier(text: str, first: int, tokens, blocked: HiddenSpans, title: bool = False) -> bool:
    """Whether a hidden span (``blocked``) ends right before ``first`` with a word the tagger calls an adjective or
    a noun ("American" of "American actress"): a premodifier whose mask writes it, after which the role takes no
    article. Not a number or a verb ("In 1953 Smith", "the campaign saw Smith"). Without tags, only before a
    ``title`` (premodifier words between it and the name) and when it ends with a capitalized word ("Danish resident
    Mette Nielsen" -> "European resident", never "European the resident")."""
    gap = first  # where the whitespace before ``first`` begins: a span ending from there on ends "right before" it
    while gap > 0 and text[gap - 1].isspace():
        gap -= 1
    end = blocked.last_end(gap, first)
    if end is None:
        return False
    if not tokens:
        word = re.search(r"[^\W\d_]+$", text[max(0, end - 40) : end])
        return title and gap == end and word is not None and word.group()[:1].isupper()
    last = bisect.bisect_left(tokens, end, key=lambda t: t[0]) - 1
    return last >= 0 and tokens[last][2] in PREMODIFIER_TAGS - {"HYPH", "AFX"}


def _split_role(role: str) -> Tuple[str, str]:
    """("the", "person") of "the person"; ("", "someone") for a role without an article."""
    head, _, rest = role.partition(" ")
    if rest and head.lower() in ("the", "a", "an"):
        return head, rest
    return "", role


#: titles a role covers when they stand right before the name: the courtesy titles and foreign ones ("Frau Schmidt",
#: "Sra. Pérez": "the person", never "Frau the person"); not "St" (a saint's or a street's, before a place's name)
ROLE_TITLES = TITLES - {"st"}


def _before_title(text: str, start: int) -> int:
    """``start`` moved back over a title right before it ("Mr Smith", "Dr. Smith", "Frau Schmidt"), covered by the
    role (:data:`ROLE_TITLES`)."""
    m = re.search(r"(?<![\w.])(\w+)\.?\s+$", text[max(0, start - 14) : start])
    if m and m.group(1).lower() in ROLE_TITLES and m.group(1)[:1].isupper():
        return start - (len(text[max(0, start - 14) : start]) - m.start())
    return start


def _word_before(text: str, start: int) -> Optional[str]:
    m = re.search(r"([\w'’]+)\s+$", text[max(0, start - 40) : start])
    return m.group(1) if m else None


def _premodifiers(text: str, start: int, tokens, blocked) -> Tuple[int, list]:
    """(start of the premodifiers before ``start``, ``[(end, is a noun)]`` of each, leftmost first): the words
    between the name and the previous boundary that premodify it, none inside a ``blocked`` span."""
    words = _tagged_premodifiers(text, start, tokens) if tokens else _untagged_premodifiers(text, start)
    kept: list = []
    first = start
    for w_start, w_end, is_noun in reversed(words):  # nearest first: stop at the first blocked word
        if blocked.overlaps(w_start, w_end) or text[w_start:w_end].lower() in VOCATIVES:
            break
        kept.append((w_start, w_end, is_noun))
        first = w_start
    kept.reverse()
    if not kept:
        return start, []
    return first, [(e, n) for _, e, n in kept]


def _tagged_premodifiers(text: str, start: int, tokens) -> list:
    """``[(start, end, is a noun)]`` of the premodifier tokens right before ``start`` (by their tags). The word
    right before the name must be an adjective ("American", "young", "Oscar-winning") or a person noun, a title
    ("actress", "President"): not a name ("Mary Jane Smith"), nor another noun ("in the film Jane Smith plays")."""
    out: list = []
    position = start
    first = bisect.bisect_left(tokens, start, key=lambda t: t[0])  # tokens in text order: the name's first
    for offset, word, tag in reversed(tokens[max(0, first - 12) : first]):
        end = offset + len(word)
        if text[end:position].strip():  # something untagged in between
            break
        hyphenated = tag in ("VBN", "VBG") and ("-" in word or text[offset - 1 : offset] == "-")  # "Oscar-winning"
        if (tag not in PREMODIFIER_TAGS and not hyphenated) or (tag == "HYPH" and text[end:position]):
            break
        if not out and not (tag.startswith("JJ") or hyphenated or person_noun(word)):
            return []  # "Mary Jane Smith": a name; "in the film Jane Smith plays": no title
        out.append((offset, end, tag in NOUN_TAGS or (not out and person_noun(word))))  # "co-star/JJ"
        position = offset
    out.reverse()
    while out and text[out[0][0] : out[0][1]] in ("-", "–"):  # a run never starts with a hyphen
        out.pop(0)
    return out


def _untagged_premodifiers(text: str, start: int) -> list:
    """``[(start, end, is a noun)]`` without tags: a person noun right before ``start`` (a title: "actress"), with
    the capitalized or hyphenated words before it ("American", "Oscar-winning"), when a clear boundary comes
    before them (the text's start, a punctuation mark, a determiner, a stop word that is no adjective: "with",
    "by"); none otherwise ("former actress": "former" may be an adjective, left as it is)."""

    out: list = []
    position = start
    for m in reversed(list(_WORD.finditer(text, max(0, start - _WINDOW), start))):
        if m.end() > position or text[m.end() : position].strip():
            break  # punctuation in between: a boundary
        word = m.group(0)
        if not out:
            if (word[:1].isupper() and not sentence_start(text, m.start())) or not person_noun(word):
                return []
        else:
            low = word.lower()
            if low in DETERMINERS or (low in STOP_WORDS and not wordnet().synsets(low, pos="a")):
                break
            if not (word[:1].isupper() or "-" in word):
                return []
        out.append((m.start(), m.end(), not out))
        position = m.start()
    out.reverse()
    return out
