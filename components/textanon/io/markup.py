"""Documents in HTML: the pipeline reads the text a browser shows, the output keeps every tag.

:func:`html_view` blanks the markup of an HTML (or XML) document: every character of a tag (its brackets, name,
attribute names, ``=`` and quotes), of a comment's and a CDATA section's delimiters, of a doctype and of a processing
instruction becomes a space, and a tag that starts a new line in a browser (``p``, ``div``, ``br``, ``li``, ``tr``,
``h1``...) begins with a line break, so that "<p>Anna</p><p>Smith</p>" is never read as one name nor two paragraphs
as one sentence. A character reference is read as the character it names, padded with soft hyphens, invisible
and inside the word ("Garc&iacute;a" -> "Garcí", seven soft hyphens, "a"; "&amp;" -> "&" and four). The view has
the document's length, character for character: the view's offsets are the document's, so spans, masks and output
records need no mapping. What the markup holds for a
reader stays to be read: attribute values (an e-mail address in ``href="mailto:..."``, a name in ``title`` or
``alt``), a comment's words, a script's and a style's text — privacy first: what is not read cannot be masked.

:func:`render_in_markup` writes masks (``(start, end, replacement)``, in the view's offsets) into the document:
the characters of a mask outside the markup are replaced — the replacement, escaped for HTML, in the first run of
the mask's element text and in each attribute value it reaches, its other runs emptied — and every tag stays as it
was ("<b>Jane Doe</b>" -> "<b>***</b>"; a name across two elements, "<b>Jane</b> Doe" -> "<b>***</b>"; a name in a
link's title and its text, both written). A character reference is masked whole or not at all.
"""

import html
import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, List, Sequence, Tuple

#: the markup kinds: plain text (nothing blanked) and HTML (or XML)
TEXT, HTML = "text", "html"
MARKUPS = (TEXT, HTML)
#: elements a browser starts on a new line (HTML's block-level and line-breaking elements)
BREAKING_TAGS = frozenset(
    "address article aside blockquote br caption dd details dialog div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead title tr ul "
    "body head html".split()
)
_ATTRIBUTE = r"""\s*[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?"""
#: a tag (quoted attribute values may hold ">"), a comment's or a CDATA section's delimiters, a doctype or another
#: declaration, a processing instruction (unclosed: to the end of the text)
_MARKUP = re.compile(
    rf"(?P<tag></?(?P<name>[A-Za-z][\w:.-]*)(?P<attributes>(?:{_ATTRIBUTE})*)\s*/?>)"
    r"|<!--|-->|<!\[CDATA\[|\]\]>"
    r"|<![A-Za-z][^>]*>"
    r"|<\?.*?(?:\?>|\Z)",
    re.DOTALL,
)
#: an attribute's value inside a tag, without its quotes
_VALUE = re.compile(r"""=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"'=<>`]+))""")
#: a character reference: named, decimal or hexadecimal
_REFERENCE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31};|#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};)")

Region = Tuple[int, int]
#: what pads a decoded character reference to its length: invisible, inside the word (a space would cut "Garc&iacute;a"
#: in two); the rules and the name search read the text without it (:mod:`textanon.detect.normalize`)
SOFT_HYPHEN = "\u00ad"


@dataclass(frozen=True)
class MarkupView:
    """A document's text with its markup blanked (:func:`html_view`): the markup's character regions, the attribute
    values' and the character references'."""

    text: str
    markup: Tuple[Region, ...]
    values: Tuple[Region, ...] = ()
    references: Tuple[Region, ...] = ()

    def markup_chars(self, start: int, end: int) -> List[Region]:
        """The markup regions inside ``[start, end)``, cut to it, in order."""
        return _within(self.markup, start, end)

    def in_value(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` lies inside an attribute value."""
        return bool(_within(self.values, start, end))

    def whole_references(self, start: int, end: int) -> Region:
        """``[start, end)`` widened to the character references it cuts."""
        for s, e in _within(self.references, start, end, cut=False):
            start, end = min(start, s), max(end, e)
        return start, end


def _within(regions: Sequence[Region], start: int, end: int, cut: bool = True) -> List[Region]:
    """The sorted ``regions`` that overlap ``[start, end)`` (``cut``: cut to it)."""
    i = max(0, bisect_right(regions, (start, math.inf)) - 1)  # by the tuples themselves: no list per call
    out = []
    for s, e in regions[i:]:
        if s >= end:
            break
        if e > start:
            out.append((max(s, start), min(e, end)) if cut else (s, e))
    return out


def html_view(document: str) -> MarkupView:
    """``document`` with its markup blanked and its character references decoded in place (module docstring)."""
    chars = list(document)
    markup: List[Region] = []
    values: List[Region] = []
    for m in _MARKUP.finditer(document):
        blank, breaks = [m.span()], False
        if m.group("tag"):
            base = m.start("attributes")
            kept = [
                (base + v.start(g), base + v.end(g))
                for v in _VALUE.finditer(m.group("attributes"))
                for g in ("dq", "sq", "bare")
                if v.group(g)
            ]
            values.extend(kept)
            blank = _outside(m.start(), m.end(), kept)
            breaks = m.group("name").lower() in BREAKING_TAGS
        for s, e in blank:
            chars[s:e] = " " * (e - s)
            markup.append((s, e))
        if breaks:
            chars[m.start()] = "\n"
    references = []
    for m in _REFERENCE.finditer(document):
        if _within(markup, m.start(), m.end()):
            continue  # inside a tag's name or a comment's delimiters: markup, not text
        decoded = html.unescape(m.group())
        if len(decoded) != 1 or decoded == m.group():
            continue  # an unknown name, or a reference to several characters: left as written
        chars[m.start() : m.end()] = decoded + SOFT_HYPHEN * (m.end() - m.start() - 1)
        references.append(m.span())
    return MarkupView("".join(chars), tuple(markup), tuple(sorted(values)), tuple(references))


def _outside(start: int, end: int, kept: Sequence[Region]) -> List[Region]:
    """The parts of ``[start, end)`` outside the sorted ``kept`` regions."""
    out, cursor = [], start
    for s, e in kept:
        if s > cursor:
            out.append((cursor, s))
        cursor = max(cursor, e)
    if cursor < end:
        out.append((cursor, end))
    return out


def render_in_markup(document: str, view: MarkupView, masks: Iterable[Sequence]) -> Tuple[str, List[list]]:
    """``document`` with ``masks`` (``(start, end, replacement)``, sorted, not overlapping: a Doc's ``masks``) written
    into its text and its markup kept (module docstring), and the masks as applied to ``document``: ``[start, end,
    written]`` per run of text replaced (an emptied run: ``""``), so that an output record's masks, its mapping and
    its restoring read the document as written."""
    out: List[str] = []
    applied: List[list] = []
    position = 0
    for start, end, *rest in masks:
        start, end = view.whole_references(max(start, position), end)
        if end <= start:
            continue
        # a surrogate drawn character by character from the view (a phone number's digits) keeps no padding
        replacement = html.escape(((rest[0] if rest else None) or "").replace(SOFT_HYPHEN, ""), quote=True)
        out.append(document[position:start])
        text_written = False
        cursor = start
        for s, e in view.markup_chars(start, end) + [(end, end)]:
            if s > cursor:  # a run of the mask's own characters
                written = ""
                if view.in_value(cursor, s):
                    written = replacement  # every attribute value the mask reaches
                elif not text_written:
                    written, text_written = replacement, True  # the element text: once
                out.append(written)
                applied.append([cursor, s, written])
            out.append(document[s:e])
            cursor = e
        position = end
    out.append(document[position:])
    return "".join(out), applied
