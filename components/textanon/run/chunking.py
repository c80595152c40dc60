"""Long documents through spaCy's own statistical components (NER, tagger, parser) in pieces of bounded size.

spaCy's NER and parser need memory in proportion to the document (measured for ``en_core_web_sm``'s NER:
~3 MB per 1,000 characters, 3 GB for a 1,000,000-character document). :func:`pipe_in_pieces` runs a run of
consecutive non-textanon components over pieces of a long document cut at paragraph breaks (else line breaks,
else any token) and joins the pieces back into one Doc with the same tokens, text and ``user_data``; documents
up to ``max_chars`` characters go through whole, as before. textanon's own components always see the whole
document (entity linking, the language model's windows, the optimizer).
"""

import time
from typing import Dict, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

#: documents longer than this go through spaCy's statistical components in pieces of at most this size
DEFAULT_PIECE_CHARS = 50_000


def is_textanon_component(nlp: Language, name: str) -> bool:
    """Whether the pipe ``name`` is one of textanon's components (its factory is ``textanon_*``)."""
    return nlp.get_pipe_meta(name).factory.startswith("textanon")


def stages(nlp: Language) -> List[Tuple[bool, List[Tuple[str, object]]]]:
    """The enabled pipes in runs of consecutive ones: ``(is_textanon, [(name, component), ...])``."""
    out: List[Tuple[bool, List[Tuple[str, object]]]] = []
    for name, proc in nlp.pipeline:
        mine = is_textanon_component(nlp, name)
        if out and out[-1][0] == mine:
            out[-1][1].append((name, proc))
        else:
            out.append((mine, [(name, proc)]))
    return out


def pieces(doc: Doc, max_chars: int) -> List[Tuple[int, int]]:
    """Token ranges covering ``doc``, each of at most ``max_chars`` characters where a break allows, cut after a
    paragraph break (a whitespace token with two line breaks), else a line break, else any token."""
    bounds, start = [], 0
    n = len(doc)
    while start < n:
        limit = doc[start].idx + max_chars
        if doc[n - 1].idx + len(doc[n - 1].text_with_ws) <= limit:
            bounds.append((start, n))
            break
        best = {2: None, 1: None, 0: None}
        i = start + 1
        while i < n and doc[i].idx + len(doc[i].text_with_ws) <= limit:
            text = doc[i].text_with_ws
            level = 2 if "\n\n" in text else 1 if "\n" in text else 0
            best[level] = i + 1
            i += 1
        end = best[2] or best[1] or best[0] or start + 1
        bounds.append((start, end))
        start = end
    return bounds


def pipe_in_pieces(
    components: Sequence[Tuple[str, object]],
    docs: List[Doc],
    max_chars: int = DEFAULT_PIECE_CHARS,
    timings: Optional[Dict[str, float]] = None,
) -> List[Doc]:
    """``docs`` through ``components`` one after the other (each component's ``pipe`` over the batch); a doc
    longer than ``max_chars`` characters one piece at a time (:func:`pieces`; only one piece's model activations
    are held), joined back with :meth:`Doc.from_docs`, its ``user_data`` and span groups
    (:func:`copy_span_groups`) restored. ``timings``: seconds per component name are added to it."""
    short = [i for i, doc in enumerate(docs) if text_length(doc) <= max_chars or len(doc) < 2]
    out: List[Optional[Doc]] = [None] * len(docs)
    for i, doc in zip(short, run_components(components, [docs[i] for i in short], timings)):
        out[i] = doc
    for i, doc in enumerate(docs):
        if out[i] is not None:
            continue
        parts = [run_components(components, [doc[a:b].as_doc()], timings)[0] for a, b in pieces(doc, max_chars)]
        joined = Doc.from_docs(parts, ensure_whitespace=False)
        if joined.text != doc.text or len(joined) != len(doc):  # never expected: run it whole
            joined = run_components(components, [doc], timings)[0]
        else:
            joined.user_data.update(doc.user_data)
            copy_span_groups(doc, joined)
        out[i] = joined
    return out


def text_length(doc: Doc) -> int:
    """``len(doc.text)`` without building the text (``doc.text`` joins every token): where the last token ends."""
    if not len(doc):
        return 0
    last = doc[len(doc) - 1]
    return last.idx + len(last.text_with_ws)


def copy_span_groups(source: Doc, target: Doc) -> None:
    """``source``'s span groups onto ``target`` (the same tokens): the groups the pieces' components were given
    (a piece drops the spans that cross its edges; the spans' ``._`` values live in ``user_data``, keyed by
    offsets, and come with it); groups that only ``target`` has (written by the components) stay."""
    for key, group in source.spans.items():
        spans = [Span(target, s.start, s.end, label=s.label, kb_id=s.kb_id, span_id=s.id) for s in group]
        target.spans[key] = SpanGroup(target, name=key, attrs=dict(group.attrs), spans=spans)


def run_components(
    components: Sequence[Tuple[str, object]], docs: List[Doc], timings: Optional[Dict[str, float]] = None
) -> List[Doc]:
    """``docs`` through each component in turn (its ``pipe`` over all of them, as ``nlp.pipe`` does for a batch);
    ``timings``: the seconds of each component are added to it."""
    if not docs:
        return docs
    for name, proc in components:
        start = time.perf_counter()
        pipe = getattr(proc, "pipe", None)
        docs = list(pipe(docs, batch_size=len(docs))) if pipe else [proc(doc) for doc in docs]
        if timings is not None:
            timings[name] = timings.get(name, 0.0) + time.perf_counter() - start
    return docs
