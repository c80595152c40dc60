"""The truth audit of the generalizations (issue 31): is each generalization the benchmark wrote true of the original?

Three steps, the middle one by a person:

1. the benchmark saves the generalization decisions of its generalizing rows (``--generalizations-out``,
   :func:`generalized_spans` on each decided Doc, :func:`generalization_records` and :func:`write_generalizations`):
   for every document and generalized span, the original text, the generalizer's replacement and the string the
   output shows there, the level and kind (``numbers``, ``places``, ``wordnet``...) and a context window of
   :data:`CONTEXT` characters each side with the span marked ``[[...]]``;
2. :func:`draw` samples ``n`` of one row's generalizations uniformly at random (seeded: the same file, row, ``n`` and
   seed draw the same items) into a JSON Lines file with an empty ``verdict`` and ``note`` on each line
   (:func:`write_sample` refuses to overwrite a file that already holds a verdict); a person reads each one and
   writes ``true``, ``false`` or ``unsure``;
3. :func:`summarize` validates the verdicts (:func:`read_audit`: an error names the line) and counts them, overall
   and per kind, lists the false ones and checks the bounded numbers: a generalization of kind ``numbers``, or one
   with a bound or an approximation right around its original ("over", "about", "since", "or more"), must never be
   false (:func:`bounded`).
"""

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Union

from textanon.decide.generalization.numbers import AFTER_BOUNDS, APPROXIMATE, LOWER_BOUNDS, TIME_BOUNDS, UPPER_BOUNDS
from textanon.render.masking import SUPPRESSION
from textanon_eval.provenance import write_metrics

#: characters of context kept on each side of a generalized span
CONTEXT = 100
#: the verdicts a line may carry
VERDICTS = ("true", "false", "unsure")
#: the share of true verdicts the issue asks for
TARGET_TRUE_SHARE = 0.95
#: characters read on each side of the original for a bound word (:func:`bounded`)
BOUND_WINDOW = 30
#: the words before a span that make it a bound or an approximation (numbers' lists, plus the time bounds of dates)
BOUND_WORDS = LOWER_BOUNDS + APPROXIMATE + UPPER_BOUNDS + TIME_BOUNDS + ("ca.", "circa")
_WORDS = "|".join(re.escape(w) for w in sorted(BOUND_WORDS, key=len, reverse=True))
_BOUND_BEFORE = re.compile(r"(?:^|\W)(?:" + _WORDS + r")(?:\s+(?:the\s+)?ages?(?:\s+of)?)?\W*$", re.IGNORECASE)
_BOUND_START = re.compile(r"(?:" + _WORDS + r")(?:\W|$)", re.IGNORECASE)
#: the fields of a sampled line, in order (``verdict`` and ``note`` are the reader's)
FIELDS = (
    "id",
    "row",
    "doc",
    "original",
    "replacement",
    "applied",
    "kind",
    "level",
    "label",
    "context",
    "rendered",
    "bounded",
    "seed",
    "draw",
    "verdict",
    "note",
)


class AuditError(ValueError):
    """A truth-audit file that cannot be used (a line that is not JSON, a missing or unknown verdict...)."""


def generalized_spans(doc, spans_key: str = "pii") -> List[dict]:
    """The generalized mentions of a decided Doc (``span._.treatment`` ``generalize:LEVEL``): ``[{"start", "end",
    "level", "kind", "label", "source", "replacement"}]`` in document order (one per character span), the
    replacement being the generalizer's text at the chosen level (``span._.generalizations``)."""
    out: Dict[tuple, dict] = {}
    for span in doc.spans.get(spans_key, []):
        treatment = span._.treatment or ""
        if not treatment.startswith("generalize:"):
            continue
        level = int(treatment.split(":", 1)[1])
        options = span._.generalizations or []
        chosen = options[level - 1] if 0 < level <= len(options) else {}
        out.setdefault(
            (span.start_char, span.end_char),
            {
                "start": span.start_char,
                "end": span.end_char,
                "level": level,
                "kind": chosen.get("kind"),
                "label": span.label_,
                "source": span._.source,
                "replacement": chosen.get("text"),
            },
        )
    return [out[k] for k in sorted(out)]


def _window(text: str, start: int, end: int, middle: str, context: int) -> str:
    return f"{text[max(0, start - context) : start]}[[{middle}]]{text[end : end + context]}"


def generalization_records(
    originals: Dict[str, str],
    spans: Dict[str, List[dict]],
    replacements: Dict[str, List[list]],
    context: int = CONTEXT,
) -> List[dict]:
    """One record per generalized span that the output shows generalized: ``spans`` (document -> the
    :func:`generalized_spans` of its Doc) matched to the mask covering each span in ``replacements`` (document ->
    ``[[start, end, replacement]]``, what the row's text shows; a span whose mask was suppressed, e.g. merged with
    the protected name, is left out). ``context``: the original with the span marked; ``rendered``: the output's
    text there, the mask's replacement marked; ``applied``: the mask's replacement (the generalizer's text, its
    article fitted, or a whole unit's)."""
    records = []
    for doc in sorted(spans):
        text = originals.get(doc)
        if text is None:
            continue
        masks = sorted(replacements.get(doc, []), key=lambda m: (m[0], m[1]))
        for span in spans[doc]:
            start, end = span["start"], span["end"]
            cover = next((m for m in masks if m[0] <= start and end <= m[1]), None)
            if cover is None or cover[2] is None or cover[2] == SUPPRESSION:
                continue
            records.append(
                {
                    "id": f"{doc}:{start}-{end}",
                    "doc": doc,
                    "start": start,
                    "end": end,
                    "original": text[start:end],
                    "replacement": span.get("replacement"),
                    "applied": cover[2],
                    "applied_original": text[cover[0] : cover[1]],
                    "kind": span.get("kind"),
                    "level": span.get("level"),
                    "label": span.get("label"),
                    "source": span.get("source"),
                    "context": _window(text, start, end, text[start:end], context),
                    "rendered": _window(text, cover[0], cover[1], cover[2], context),
                }
            )
    return records


def write_generalizations(path: Union[str, Path], systems: Dict[str, dict], originals: Dict[str, str]) -> Path:
    """Write ``{"context_chars", "rows": {row: [record]}}`` (:func:`generalization_records`) of every system with
    ``generalizations`` (document -> :func:`generalized_spans`) and ``replacements`` to ``path``."""
    rows = {
        name: generalization_records(originals, s["generalizations"], s.get("replacements") or {})
        for name, s in systems.items()
        if s.get("generalizations") is not None
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"context_chars": CONTEXT, "rows": rows}, ensure_ascii=False) + "\n", encoding="utf8")
    return path


def bounded(record: dict) -> bool:
    """A bounded number: a generalization of kind ``numbers``, or of an original holding a digit with a bound or an
    approximation right before it ("over", "about", "since", "over the age of": :data:`BOUND_WORDS`), at its start
    ("over 70") or right after it ("or more", "+", "-odd")."""
    if record.get("kind") == "numbers":
        return True
    original = record.get("original") or ""
    if not any(c.isdigit() for c in original):
        return False
    left, _, rest = (record.get("context") or "").partition("[[")
    right = rest.partition("]]")[2]
    return bool(_BOUND_BEFORE.search(left[-BOUND_WINDOW:]) or _BOUND_START.match(original) or AFTER_BOUNDS.match(right))


def load_generalizations(path: Union[str, Path], row: str) -> List[dict]:
    """The records of ``row`` in a ``--generalizations-out`` file (AuditError: no such row, naming those there)."""
    data = json.loads(Path(path).read_text(encoding="utf8"))
    rows = data.get("rows", {})
    if row not in rows:
        raise AuditError(f"no row {row!r} in {path}; rows there: {sorted(rows)}")
    return rows[row]


def draw(records: Sequence[dict], n: int, seed: int, row: str = "") -> List[dict]:
    """``n`` records (all when fewer) drawn uniformly at random without replacement by ``random.Random(seed)``, as
    audit lines (:data:`FIELDS`; ``verdict`` and ``note`` empty, ``bounded`` from :func:`bounded`)."""
    if n < 1:
        raise AuditError(f"n must be >= 1, got {n}")
    picked = random.Random(seed).sample(range(len(records)), min(n, len(records)))
    lines = []
    for i, index in enumerate(picked):
        r = records[index]
        line = {k: r.get(k) for k in FIELDS if k in r}
        line.update(row=row, bounded=bounded(r), seed=seed, draw=i, verdict="", note="")
        lines.append({k: line.get(k) for k in FIELDS})
    return lines


def write_sample(path: Union[str, Path], lines: Iterable[dict]) -> Path:
    """Write the audit lines as JSON Lines; refuse (AuditError) when ``path`` already holds a verdict (a reader's
    work is never overwritten; an unread draw may be)."""
    path = Path(path)
    if path.exists() and any(str(line.get("verdict") or "").strip() for line in _lines(path, strict=False)):
        raise AuditError(f"{path} already holds verdicts: it is not overwritten (move it away to draw again)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf8")
    return path


def _lines(path: Path, strict: bool = True) -> List[dict]:
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as err:
            if strict:
                raise AuditError(f"{path}:{number}: not a JSON object ({err.msg})") from err
            line = {"verdict": "unreadable"}  # an unreadable line may hold a verdict: never overwritten
        if not isinstance(line, dict):
            if strict:
                raise AuditError(f"{path}:{number}: not a JSON object")
            line = {"verdict": "unreadable"}
        line["_line"] = number
        out.append(line)
    return out


def read_audit(path: Union[str, Path]) -> List[dict]:
    """The audit lines of ``path``, each with a verdict of :data:`VERDICTS` (AuditError naming the line otherwise:
    not JSON, an empty or an unknown verdict; or no line at all)."""
    path = Path(path)
    lines = _lines(path)
    if not lines:
        raise AuditError(f"{path}: no audit line")
    for line in lines:
        verdict = str(line.get("verdict") or "").strip().lower()
        if not verdict:
            raise AuditError(f"{path}:{line['_line']}: empty verdict (write one of {', '.join(VERDICTS)})")
        if verdict not in VERDICTS:
            raise AuditError(f"{path}:{line['_line']}: verdict {line['verdict']!r} is not one of {', '.join(VERDICTS)}")
        line["verdict"] = verdict
    return lines


def _counts(lines: Sequence[dict]) -> dict:
    counts = {v: sum(line["verdict"] == v for line in lines) for v in VERDICTS}
    counts["n"] = len(lines)
    counts["true_share"] = round(counts["true"] / len(lines), 4) if lines else None
    return counts


def summarize(lines: Sequence[dict], source: Optional[Union[str, Path]] = None) -> dict:
    """Counts of the verdicts (overall, per kind), the false ones, the bounded numbers (:func:`bounded`) and whether
    the issue's bar is met: at least :data:`TARGET_TRUE_SHARE` true and no false bounded number."""
    by_kind: Dict[str, list] = {}
    for line in lines:
        by_kind.setdefault(str(line.get("kind")), []).append(line)
    numbers = [line for line in lines if line.get("bounded") or bounded(line)]
    false_numbers = [line for line in numbers if line["verdict"] == "false"]
    overall = _counts(lines)

    def brief(line: dict) -> dict:
        keys = ("line", "id", "kind", "original", "replacement", "applied", "note")
        return {k: line.get("_line") if k == "line" else line.get(k) for k in keys}

    summary = {
        "audit": str(source) if source is not None else None,
        "audit_sha256": hashlib.sha256(Path(source).read_bytes()).hexdigest() if source else None,
        "rows": sorted({str(line.get("row")) for line in lines}),
        "seeds": sorted({line.get("seed") for line in lines if line.get("seed") is not None}),
        "overall": overall,
        "by_kind": {kind: _counts(group) for kind, group in sorted(by_kind.items())},
        "false": [brief(line) for line in lines if line["verdict"] == "false"],
        "unsure": [brief(line) for line in lines if line["verdict"] == "unsure"],
        "bounded_numbers": {
            **_counts(numbers),
            "any_false": bool(false_numbers),
            "false_ids": [line.get("id") for line in false_numbers],
        },
        "target": {
            "true_share_at_least": TARGET_TRUE_SHARE,
            "no_false_bounded_number": True,
            "met": (overall["true_share"] or 0) >= TARGET_TRUE_SHARE and not false_numbers,
        },
        "method": "generalizations drawn uniformly at random (seeded) from the benchmark's output "
        "(lab truth-audit sample), each read and given a verdict by a person: true (the replacement is true of the "
        "original in its context), false, unsure; bounded numbers: kind numbers or a bound/approximation word "
        f"within {BOUND_WINDOW} characters before an original holding a digit, at its start or right after it",
    }
    return summary


def markdown(summary: dict) -> str:
    """The summary as Markdown tables."""
    o = summary["overall"]
    out = f"Truth audit of {o['n']} generalizations ({', '.join(summary['rows'])}):\n\n"
    out += "| kind | n | true | false | unsure | true share |\n|---|---|---|---|---|---|\n"
    for kind, c in list(summary["by_kind"].items()) + [("all", o), ("bounded numbers", summary["bounded_numbers"])]:
        out += f"| {kind} | {c['n']} | {c['true']} | {c['false']} | {c['unsure']} | {c['true_share']} |\n"
    met = summary["target"]["met"]
    out += (
        f"\nTarget (at least {TARGET_TRUE_SHARE:.0%} true, no false bounded number): {'met' if met else 'NOT met'}.\n"
    )
    if summary["false"]:
        out += "\nFalse:\n\n| line | kind | original | replacement | note |\n|---|---|---|---|---|\n"
        for f in summary["false"]:
            cells = [f["line"], f["kind"], f["original"], f["applied"] or f["replacement"], f["note"]]
            out += "| " + " | ".join(str(c or "").replace("|", "\\|") for c in cells) + " |\n"
    return out


def write_summary(audit: Union[str, Path], output: Union[str, Path]) -> dict:
    """Validate and summarize ``audit`` (:func:`read_audit`, :func:`summarize`); write ``output`` (JSON, with
    provenance) and the Markdown beside it (``.md``)."""
    summary = summarize(read_audit(audit), audit)
    write_metrics(output, summary)
    Path(output).with_suffix(".md").write_text(markdown(summary), encoding="utf8")
    return summary
