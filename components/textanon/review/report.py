"""The HTML review report: an index page and one page per document, for a person to check every decision.

Input: the output records of ``anonymize`` (``textanon.render.output.doc_to_record``; error records too) and,
optionally, the original texts (the input file given to ``anonymize``). Without the original text a page
shows the text rebuilt from the anonymized text and the masks, with every masked character drawn as
:data:`HIDDEN` (offsets stay those of the original). Where the original text is given but the masks applied
to it do not give the record's anonymized text, the page says so.

Each document page shows the warnings on top, the original text with every detected span highlighted in its
label's colour (masked: filled; kept: dashed outline), the anonymized text beside it, a table of decisions
(label, entity, source, IC, masked or kept, and why: :mod:`textanon.review.reasons`), the risky combinations
with the member that breaks each, and the spans an allow list kept. Every span links to its row of the table
and carries its reasons in a tooltip: the essentials need no JavaScript. A small inline script adds a details
panel on click and sortable tables. Every file is self-contained (inline CSS and script, no network).

The report contains the original text: keep it where the originals are kept.
"""

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from jinja2 import Environment, FileSystemLoader, select_autoescape

from textanon.labels import TAB_LABELS
from textanon.render.masking import apply, merge, merge_offsets
from textanon.review.colors import LABEL_COLORS, label_color
from textanon.review.fragments import fragments, reference_nlp
from textanon.review.reasons import combination_status, explain

#: drawn for each masked character when the original text is not given
HIDDEN = "█"
#: the legend and tooltip of a fragmented unit (:mod:`textanon.review.fragments`)
FRAGMENT_NOTE = "fragmented unit: part of a name/title left visible"
TEMPLATES = Path(__file__).parent / "templates"
INDEX = "index.html"


@dataclass
class DocumentSummary:
    """One row of the index page."""

    id: str
    page: str
    status: str  # "ok", "warnings" or "error"
    n_spans: int = 0
    n_masked: int = 0
    n_warnings: int = 0
    by_label: Dict[str, Tuple[int, int]] = field(default_factory=dict)  # label -> (masked, total)
    error: Optional[str] = None

    @property
    def masked_share(self) -> Optional[float]:
        """Masked spans / detected spans (None without spans)."""
        return self.n_masked / self.n_spans if self.n_spans else None


class ReportWriter:
    """Writes one page per document as it comes (:meth:`add`), then the index page (:meth:`close`)."""

    def __init__(self, out_dir: Union[str, Path], title: str = "textanon review report"):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.title = title
        self.rows: List[DocumentSummary] = []
        self._env = _environment()

    def add(self, record: dict, text: Optional[str] = None, target: Optional[str] = None) -> Path:
        """Write the page of one output (or error) record; ``text``: its original text; ``target``: the person
        protected, when known (for the reasons). Returns the page's path."""
        page = _page_name(len(self.rows) + 1, str(record.get("id", "")))
        view = document_view(record, text, target)
        summary = DocumentSummary(
            id=str(record.get("id", "")),
            page=page,
            status=view["status"],
            n_spans=len(view["spans"]),
            n_masked=sum(1 for s in view["spans"] if s["masked"]),
            n_warnings=len(view["warnings"]),
            by_label=view["by_label"],
            error=record.get("error"),
        )
        self.rows.append(summary)
        html_text = self._env.get_template("document.html.jinja").render(
            title=self.title, doc=view, **_assets(), **_legend()
        )
        path = self.out_dir / page
        path.write_text(html_text, encoding="utf-8")
        return path

    def close(self) -> Path:
        """Write the index page; returns its path."""
        labels = [lab for lab in TAB_LABELS if any(lab in r.by_label for r in self.rows)]
        labels += sorted({lab for r in self.rows for lab in r.by_label} - set(labels))
        totals = {
            "documents": len(self.rows),
            "errors": sum(1 for r in self.rows if r.status == "error"),
            "with_warnings": sum(1 for r in self.rows if r.n_warnings),
            "spans": sum(r.n_spans for r in self.rows),
            "masked": sum(r.n_masked for r in self.rows),
            "by_label": {
                lab: tuple(sum(r.by_label.get(lab, (0, 0))[k] for r in self.rows) for k in (0, 1)) for lab in labels
            },
        }
        html_text = self._env.get_template("index.html.jinja").render(
            title=self.title, rows=self.rows, labels=labels, totals=totals, **_assets(), **_legend()
        )
        path = self.out_dir / INDEX
        path.write_text(html_text, encoding="utf-8")
        return path


def write_report(
    records: Iterable[dict],
    out_dir: Union[str, Path],
    inputs: Optional[Iterable] = None,
    target: Optional[str] = None,
) -> Path:
    """Write the report of ``records`` (output records, in input order) to ``out_dir``; returns the index path.

    inputs: the input items the records were made from (``datasets.records.read_records`` of the input file,
    in the same order), for the original texts and targets. target: the person protected for records without
    their own (``anonymize --target``)."""
    writer = ReportWriter(out_dir)
    pairs = pair_with_inputs(records, inputs) if inputs is not None else ((r, None) for r in records)
    for record, item in pairs:
        text = getattr(item, "text", None)
        writer.add(record, text, getattr(item, "target", None) or target)
    return writer.close()


def pair_with_inputs(records: Iterable[dict], inputs: Iterable) -> Iterator[Tuple[dict, object]]:
    """Pair output records with the input items they were made from (one per item, in order, as ``anonymize``
    writes them). An item whose id differs from its record's is not used (the page shows no original text)."""
    items = iter(inputs)
    for record in records:
        item = next(items, None)
        yield record, (item if item is not None and getattr(item, "id", None) == record.get("id") else None)


def rebuild_original(record: dict) -> Optional[str]:
    """The original text rebuilt from ``anonymized_text`` and ``masks``, each masked character drawn as
    :data:`HIDDEN`; None where the masks do not fit the anonymized text."""
    anonymized = record.get("anonymized_text")
    if anonymized is None:
        return None
    parts, pos_a, pos_o = [], 0, 0
    for start, end, rep, *_ in merge(tuple(m) for m in record.get("masks") or []):
        rep = rep or ""
        if start < pos_o:
            return None
        plain = anonymized[pos_a : pos_a + start - pos_o]
        if len(plain) != start - pos_o or anonymized[pos_a + len(plain) : pos_a + len(plain) + len(rep)] != rep:
            return None
        parts += [plain, HIDDEN * (end - start)]
        pos_a, pos_o = pos_a + len(plain) + len(rep), end
    parts.append(anonymized[pos_a:])
    return "".join(parts)


def document_view(record: dict, text: Optional[str] = None, target: Optional[str] = None) -> dict:
    """Everything a document page shows (plain data: the template only lays it out)."""
    if "error" in record:
        return {
            "id": str(record.get("id", "")),
            "status": "error",
            "error": record["error"],
            "warnings": [],
            "spans": [],
            "by_label": {},
            "fragments": [],
        }
    masks = [tuple(m) for m in record.get("masks") or []]
    anonymized = record.get("anonymized_text") or ""
    notes = []
    if text is None:
        text = rebuild_original(record)
        if text is None:
            notes.append("The original text was not given and cannot be rebuilt from the masks: spans are listed only.")
        else:
            notes.append(f"The original text was not given (report --input): masked characters are drawn as {HIDDEN}.")
            target = None
    elif _applied(text, masks) != anonymized:
        notes.append("The masks applied to the given original text do not give this anonymized text: check the input.")
    spans_in = record.get("spans") or []
    explanations = explain(record, text if text and HIDDEN not in text else None, target)
    spans = []
    for n, (s, exp) in enumerate(zip(spans_in, explanations), 1):
        surface = text[s["start"] : s["end"]] if text is not None else ""
        spans.append(
            {
                "n": n,
                "start": s["start"],
                "end": s["end"],
                "text": surface,
                "label": s["label"],
                "color": label_color(s["label"]),
                "entity_id": s.get("entity_id") or "",
                "source": s.get("source") or "",
                "ic": s.get("ic"),
                "masked": bool(s["masked"]),
                "always": exp.always,
                "reasons": exp.reasons,
                "combinations": [k + 1 for k in exp.combinations],
                "tooltip": _tooltip(s, exp.reasons),
            }
        )
    by_label: Dict[str, Tuple[int, int]] = {}
    for s in spans:
        m, t = by_label.get(s["label"], (0, 0))
        by_label[s["label"]] = (m + s["masked"], t + 1)
    texts_of = {}
    for s in spans:
        texts_of.setdefault(s["entity_id"], []).append(s["text"])
    combinations = [
        {
            "n": k,
            "members": [{"id": e, "masked": e in broken, "texts": sorted(set(texts_of.get(e, [])))} for e in ids],
            "broken": bool(broken),
        }
        for k, (ids, broken) in enumerate(combination_status(record), 1)
    ]
    warnings = list(record.get("warnings") or [])
    fragmented: List[Tuple[int, int]] = []
    if text is not None and HIDDEN not in text and masks:
        found = fragmented_units(text, masks)
        if found is None:
            notes.append("Fragmented units are not marked: no spaCy English pipeline for the reference parse.")
        fragmented = found or []
    return {
        "id": str(record.get("id", "")),
        "status": "warnings" if warnings else "ok",
        "error": None,
        "warnings": warnings,
        "notes": notes,
        "spans": spans,
        "by_label": by_label,
        "combinations": combinations,
        "allowed": [
            {**a, "text": text[a["start"] : a["end"]] if text is not None else "", "color": label_color(a["label"])}
            for a in record.get("allowed") or []
        ],
        "reid_rank": _rank(record.get("reid_rank")),
        "fragments": [{"start": s, "end": e, "text": text[s:e]} for s, e in fragmented],
        "original_html": _highlight(text, spans, fragmented) if text is not None else None,
        "anonymized_html": _highlight_masks(anonymized, masks, spans),
        "n_masks": len(masks),
    }


def fragmented_units(text: str, masks: Sequence[Sequence]) -> Optional[List[Tuple[int, int]]]:
    """Offsets of the units of ``text`` (names, titles, dates) that ``masks`` cut, leaving part visible
    (:func:`textanon.review.fragments.fragments`); None when no spaCy English pipeline is installed."""
    try:
        nlp = reference_nlp()
    except (OSError, ImportError):
        return None
    return fragments(nlp(text), masks).units


# -- HTML pieces ------------------------------------------------------------------------------------------
def _highlight(text: str, spans: Sequence[dict], fragmented: Sequence[Tuple[int, int]] = ()) -> str:
    """``text`` escaped, every (non-nested) span a link to its row of the decision table, the characters of
    ``fragmented`` units marked (class ``fragment``)."""
    regions = merge_offsets(fragmented)
    out, pos = [], 0
    for s in sorted(spans, key=lambda s: (s["start"], -s["end"])):
        if s["start"] < pos:
            continue  # nested or overlapping: listed in the table only
        state, label = ("masked" if s["masked"] else "kept"), html.escape(s["label"])
        out.append(_marked(text, pos, s["start"], regions))
        out.append(
            f'<a class="span {state}" id="s{s["n"]}" href="#d{s["n"]}" data-n="{s["n"]}" data-label="{label}"'
            f' style="--c:{s["color"]}" title="{html.escape(s["tooltip"])}">'
            f'{_marked(text, s["start"], s["end"], regions)}<span class="tag">{label}'
            f"{' ✕' if s['masked'] else ''}</span></a>"
        )
        pos = s["end"]
    out.append(_marked(text, pos, len(text), regions))
    return "".join(out)


def _marked(text: str, start: int, end: int, regions: Sequence[Sequence[int]]) -> str:
    """``text[start:end]`` escaped, the parts inside ``regions`` (sorted, disjoint) wrapped as fragments."""
    out, pos = [], start
    for r_start, r_end in regions:
        lo, hi = max(r_start, pos), min(r_end, end)
        if lo >= hi:
            continue
        out.append(html.escape(text[pos:lo]))
        out.append(f'<span class="fragment" title="{FRAGMENT_NOTE}">{html.escape(text[lo:hi])}</span>')
        pos = hi
    out.append(html.escape(text[pos:end]))
    return "".join(out)


def _highlight_masks(anonymized: str, masks: Sequence[tuple], spans: Sequence[dict]) -> str:
    """The anonymized text escaped, each replacement marked in the colour of the first span it covers."""
    out, pos_a, pos_o = [], 0, 0
    for start, end, rep, *_ in merge(masks):
        rep = rep or ""
        plain = anonymized[pos_a : pos_a + start - pos_o]
        if start < pos_o or anonymized[pos_a + len(plain) : pos_a + len(plain) + len(rep)] != rep:
            return html.escape(anonymized)  # masks do not fit this text (e.g. an LLM rewrite): plain text
        covered = [s for s in spans if s["start"] < end and start < s["end"]]
        color = covered[0]["color"] if covered else "#bbb"
        link = f' href="#d{covered[0]["n"]}"' if covered else ""
        out.append(html.escape(plain))
        out.append(f'<a class="replacement" style="--c:{color}"{link}>{html.escape(rep)}</a>')
        pos_a, pos_o = pos_a + len(plain) + len(rep), end
    out.append(html.escape(anonymized[pos_a:]))
    return "".join(out)


def _rank(rank) -> Optional[str]:
    """The search risk's ``reid_rank`` as text (``{"before": 3, "after": 41}`` -> ``before 3, after 41``)."""
    if rank is None:
        return None
    if isinstance(rank, dict):
        return ", ".join(f"{k} {v}" for k, v in rank.items())
    return str(rank)


def _tooltip(span: dict, reasons: Sequence[str]) -> str:
    ic = "unscored" if span.get("ic") is None else f"IC {span['ic']:.1f} nats"
    head = f"{span['label']} · {span.get('entity_id') or '-'} · {span.get('source') or '-'} · {ic}"
    return head + " · " + ("MASKED" if span["masked"] else "KEPT") + "\n" + "\n".join(reasons)


def _applied(text: str, masks: Sequence[tuple]) -> Optional[str]:
    try:
        return apply(text, merge(masks))
    except (ValueError, TypeError):
        return None


def _page_name(index: int, doc_id: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", doc_id).strip("-")[:40]
    return f"doc-{index:05d}{'-' + slug if slug else ''}.html"


def _environment():
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html", "jinja"]), trim_blocks=True
    )
    env.filters["share"] = lambda x: "–" if x is None else f"{100 * x:.0f} %"
    return env


def _assets() -> dict:
    return {
        "css": (TEMPLATES / "review.css").read_text(encoding="utf-8"),
        "script": (TEMPLATES / "review.js").read_text(encoding="utf-8"),
    }


def _legend() -> dict:
    return {"legend": list(LABEL_COLORS.items()), "colors": LABEL_COLORS, "fragment_note": FRAGMENT_NOTE}
