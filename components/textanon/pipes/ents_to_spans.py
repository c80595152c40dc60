"""``textanon_ents_to_spans``: move the entities of a preceding NER into a span group.

Lets two NER models share one pipeline. The trained privacy-enhanced model (TAB labels) runs first
and writes ``doc.ents``; this component copies them to ``doc.spans[spans_key]`` (``span._.source =
"model"``) and clears ``doc.ents``, so the generic OntoNotes NER that follows starts from an empty
entity layer (spaCy's ``ner`` would otherwise keep the earlier entities as fixed constraints). The
entity recognizer then reads the group through its ``model_spans_key`` setting.
"""

from spacy.tokens import Doc, SpanGroup

from textanon.extensions import register_extensions


class EntsToSpans:
    """Stateless: ``doc.ents`` -> ``doc.spans[spans_key]``, then ``doc.ents = ()``."""

    #: the settings of the config (:mod:`textanon.pipes.factories`)
    SETTINGS = ("spans_key", "source")

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
