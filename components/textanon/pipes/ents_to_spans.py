"""``textanon_ents_to_spans``: move the entities of a preceding NER into a span group.

Lets two NER models share one pipeline. The trained privacy-enhanced model (TAB labels) runs first
and writes ``doc.ents``; this component copies them to ``doc.spans[spans_key]`` (``span._.source =
"model"``) and clears ``doc.ents``, so the generic OntoNotes NER that follows starts from an empty
entity layer (spaCy's ``ner`` would otherwise keep the earlier entities as fixed constraints). The
entity recognizer then reads the group through its ``model_spans_key`` setting.
"""

from spacy.language import Language
from spacy.tokens import Doc, SpanGroup

from textanon.extensions import register_extensions


@Language.factory(
    "textanon_ents_to_spans",
    default_config={"spans_key": "model", "source": "model"},
    assigns=["doc.spans", "doc.ents"],
)
def make_ents_to_spans(nlp: Language, name: str, spans_key: str, source: str) -> "EntsToSpans":
    """Build the ``textanon_ents_to_spans`` component from its config settings."""
    return EntsToSpans(name, spans_key, source)


class EntsToSpans:
    """Stateless: ``doc.ents`` -> ``doc.spans[spans_key]``, then ``doc.ents = ()``."""

    def __init__(self, name: str = "textanon_ents_to_spans", spans_key: str = "model", source: str = "model") -> None:
        register_extensions()
        self.name, self.spans_key, self.source = name, spans_key, source

    def __call__(self, doc: Doc) -> Doc:
        spans = list(doc.ents)
        for span in spans:
            span._.source = self.source
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
        doc.ents = ()
        return doc
