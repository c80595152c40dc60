"""Colours of the eight TAB labels, shared by the HTML review report and displaCy's span renderer."""

from typing import Any, Dict, Optional

from spacy import displacy
from spacy.tokens import Doc

from textanon.extensions import DEFAULT_SPANS_KEY

#: label -> background colour (light, so that black text stays readable; one hue per label)
LABEL_COLORS: Dict[str, str] = {
    "PERSON": "#f5a3a3",
    "CODE": "#d7a8f0",
    "LOC": "#9fd3f5",
    "ORG": "#f7c97e",
    "DEM": "#b5e3a1",
    "DATETIME": "#f6e58d",
    "QUANTITY": "#a3e4d7",
    "MISC": "#d5d8dc",
}
#: colour of a label outside the eight (a custom recognizer's)
OTHER_COLOR = "#e0e0e0"


def label_color(label: str) -> str:
    """The background colour of ``label`` (:data:`OTHER_COLOR` for a label outside the eight)."""
    return LABEL_COLORS.get(label, OTHER_COLOR)


def displacy_options(spans_key: str = DEFAULT_SPANS_KEY, colors: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """Options for ``spacy.displacy.render(doc, style="span", options=...)`` on a textanon Doc: the span
    group ``spans_key`` and a colour per TAB label (``colors`` overrides some)."""
    return {"spans_key": spans_key, "colors": {**LABEL_COLORS, **(colors or {})}}


def render_spans(doc: Doc, spans_key: str = DEFAULT_SPANS_KEY, page: bool = False, **options: Any) -> str:
    """displaCy's span rendering (HTML) of ``doc.spans[spans_key]`` with the textanon label colours.

    Extra keyword arguments are displaCy span options (``colors``, ``top_offset``, ...)."""
    opts = displacy_options(spans_key, options.pop("colors", None))
    opts.update(options)
    return displacy.render(doc, style="span", options=opts, page=page, jupyter=False)
