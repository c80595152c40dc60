"""Error analysis of an entity recognizer against a gold entity layer: *why* tokens are missed or wrong.

Token level, as :mod:`textanon_eval.ner_eval` (``\\w+`` tokens, optionally ORG/LOC interchangeable). For each
TAB type it counts

* missed gold tokens (recall errors) by cause: what was predicted there instead (``as:<label>``, or ``undetected``),
  and what the gold mention looks like — a courtesy title ("Mr"), an initial, a mention across a line break, a
  mention in lower or upper case, non-ASCII letters (non-English names); for CODE the identifier's kind
  (application number, slash reference, letters and digits, postcode shape, digits only, other);
* wrong predicted tokens (precision errors) by the detector that produced them (``span._.source``: ``ner``,
  ``gazetteer``, ``rule:<name>``, ``model``) and the gold label there (``none`` or another type).

It also lists the **shapes** of the missed and wrong mentions ("Xx X. Xxxxx", "dddd/dd"): letters become
X/x, digits d, runs longer than four cut to four (as spaCy's ``shape_``), never the text itself, so that the
report can be committed and logged without leaking the documents' contents.
"""

import re
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

import spacy

from textanon.detect.target import COURTESY_TITLES
from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.records import Record
from textanon.io.datasets.tab import GoldDocument, load_tab
from textanon.labels import CODE
from textanon.run.runner import pipe_docs
from textanon_eval.ner_eval import DISABLE_FOR_NER, WORD, token_labels
from textanon_eval.provenance import write_metrics

#: CODE kinds by the shape of the gold mention, first match wins
CODE_KINDS = (
    ("application_number", re.compile(r"^\d{1,6}/\d{2,4}$")),
    ("slash_reference", re.compile(r"/")),
    ("postcode_shape", re.compile(r"^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$")),
    ("letters_and_digits", re.compile(r"^(?=.*[A-Za-z])(?=.*\d)")),
    ("digits_only", re.compile(r"^[\d\s.,-]+$")),
)


def shape(text: str, max_run: int = 4) -> str:
    """The shape of ``text``: upper-case letters X, lower-case x, digits d, other characters kept; a run of the same
    class is cut to ``max_run`` characters; white space becomes one space."""
    out: List[str] = []
    run = 0
    for ch in re.sub(r"\s+", " ", text.strip()):
        c = "X" if ch.isupper() else "x" if ch.isalpha() else "d" if ch.isdigit() else ch
        run = run + 1 if out and out[-1] == c else 1
        if run <= max_run:
            out.append(c)
    return "".join(out)


def _same(a: Optional[str], b: str, org_loc: bool) -> bool:
    return a == b or (org_loc and {a, b} == {"ORG", "LOC"})


def _mention_causes(label: str, text: str, token: str) -> List[str]:
    """What the gold mention (``text``) and the missed token look like (see the module docstring)."""
    causes = []
    if label == CODE:
        causes.append("code:" + next((name for name, rx in CODE_KINDS if rx.search(text.strip())), "other"))
    if token.lower() in COURTESY_TITLES:
        causes.append("title")
    elif len(token) == 1 and token.isalpha():
        causes.append("initial")
    if "\n" in text:
        causes.append("line_break")
    letters = [c for c in text if c.isalpha()]
    if letters and all(c.islower() for c in letters):
        causes.append("lower_case")
    elif len(letters) > 1 and all(c.isupper() for c in letters) and " " in text.strip():
        causes.append("upper_case")
    if any(ord(c) > 127 for c in letters):
        causes.append("non_ascii")
    return causes


def analyse_errors(
    golds: Sequence[GoldDocument],
    docs: Sequence,
    spans_key: str,
    annotator: Optional[str] = None,
    org_loc_interchangeable: bool = True,
    top_shapes: int = 15,
) -> Dict[str, dict]:
    """``{type: {gold_tokens, missed_tokens, missed_by_cause, wrong_tokens, wrong_by_source, missed_shapes,
    wrong_shapes}}`` of the spans ``doc.spans[spans_key]`` of the processed ``docs`` (aligned with ``golds``)."""
    out: Dict[str, dict] = {}

    def entry(label: str) -> dict:
        return out.setdefault(
            label,
            {
                "gold_tokens": 0,
                "missed_tokens": 0,
                "missed_by_cause": Counter(),
                "wrong_tokens": 0,
                "wrong_by_source": Counter(),
                "missed_shapes": Counter(),
                "wrong_shapes": Counter(),
            },
        )

    for gold_doc, doc in zip(golds, docs):
        _, mentions = gold_doc.layer(annotator)
        text = gold_doc.text
        gold = token_labels(text, [(m.start, m.end, m.entity_type) for m in mentions])
        predicted = [(s.start_char, s.end_char, s.label_, s._.source or "unknown") for s in doc.spans[spans_key]]
        pred = token_labels(text, [(s, e, label) for s, e, label, _ in predicted])
        source = token_labels(text, [(s, e, src) for s, e, _, src in predicted])
        counted = set()
        for m in mentions:
            e = entry(m.entity_type)
            missed = False
            for w in WORD.finditer(text, m.start, m.end):
                tok = (w.start(), w.end())
                if gold.get(tok) != m.entity_type or tok in counted:
                    continue  # an overlapping earlier mention owns the token
                counted.add(tok)
                e["gold_tokens"] += 1
                if _same(pred.get(tok), m.entity_type, org_loc_interchangeable):
                    continue
                missed = True
                e["missed_tokens"] += 1
                e["missed_by_cause"]["as:" + pred[tok] if tok in pred else "undetected"] += 1
                for cause in _mention_causes(m.entity_type, text[m.start : m.end], w.group()):
                    e["missed_by_cause"][cause] += 1
            if missed:
                e["missed_shapes"][shape(text[m.start : m.end])] += 1
        for start, end, label, src in predicted:
            e = entry(label)
            wrong = False
            for w in WORD.finditer(text, start, end):
                tok = (w.start(), w.end())
                if pred.get(tok) != label or _same(gold.get(tok), label, org_loc_interchangeable):
                    continue
                wrong = True
                e["wrong_tokens"] += 1
                e["wrong_by_source"][f"{source.get(tok, src)} -> gold {gold.get(tok, 'none')}"] += 1
            if wrong:
                e["wrong_shapes"][shape(text[start:end])] += 1
    for e in out.values():
        for key in ("missed_by_cause", "wrong_by_source"):
            e[key] = dict(e[key].most_common())
        for key in ("missed_shapes", "wrong_shapes"):
            e[key] = dict(e[key].most_common(top_shapes))
    return {label: out[label] for label in sorted(out)}


def markdown(result: dict) -> str:
    """The error counts as Markdown: per type, missed tokens by cause and wrong tokens by detector, then shapes."""
    lines = [
        f"## Recognizer errors on {result['documents']} documents (token level, "
        f"ORG/LOC {'interchangeable' if result['org_loc_interchangeable'] else 'distinct'})",
        "",
        f"Model: `{result['model']}`. Shapes only (X/x/d), never the text. "
        "Reproduce: `python -m textanon lab ner-errors` (see `provenance`).",
        "",
    ]
    for label, e in result["by_type"].items():
        lines += [
            f"### {label}: {e['missed_tokens']} of {e['gold_tokens']} gold tokens missed, {e['wrong_tokens']} wrong",
            "",
        ]
        if e["missed_by_cause"]:
            lines.append("- missed, by cause: " + ", ".join(f"{k} {v}" for k, v in e["missed_by_cause"].items()))
        if e["wrong_by_source"]:
            lines.append("- wrong, by detector: " + ", ".join(f"{k} {v}" for k, v in e["wrong_by_source"].items()))
        if e["missed_shapes"]:
            lines.append("- missed shapes: " + ", ".join(f"`{k}` {v}" for k, v in e["missed_shapes"].items()))
        if e["wrong_shapes"]:
            lines.append("- wrong shapes: " + ", ".join(f"`{k}` {v}" for k, v in e["wrong_shapes"].items()))
        lines.append("")
    return "\n".join(lines)


def ner_errors(
    gold_path,
    model: str,
    output,
    annotator: Optional[str] = None,
    spans_key: Optional[str] = None,
    org_loc_interchangeable: bool = True,
    limit: Optional[int] = None,
    progress: Optional[Callable[[int], None]] = None,
) -> dict:
    """``ner-errors``: :func:`analyse_errors` of the pipeline ``model`` (recognition only) on the TAB-format
    ``gold_path``, written to ``output`` (JSON with provenance) and as Markdown beside it (``.md``)."""

    golds = load_tab(gold_path, require_identifiers=False)[:limit]
    nlp = spacy.load(model)
    disabled = [p for p in DISABLE_FOR_NER if p in nlp.pipe_names]
    with nlp.select_pipes(disable=disabled):
        docs = []
        for i, doc in enumerate(pipe_docs(nlp, (Record(id=g.doc_id, text=g.text) for g in golds))):
            docs.append(doc)
            if progress:
                progress(i + 1)
    result = {
        "model": model,
        "pipeline": [p for p in nlp.pipe_names if p not in disabled],
        "documents": len(golds),
        "org_loc_interchangeable": org_loc_interchangeable,
        "by_type": analyse_errors(golds, docs, spans_key or DEFAULT_SPANS_KEY, annotator, org_loc_interchangeable),
    }
    write_metrics(output, result)
    Path(output).with_suffix(".md").write_text(markdown(result), encoding="utf8")
    return result


__all__ = ["analyse_errors", "markdown", "ner_errors", "shape"]
