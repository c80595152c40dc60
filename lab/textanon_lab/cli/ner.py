"""Evaluating an entity recognizer against a gold entity layer: ``lab evaluate-ner`` (token P/R/F1) and
``lab ner-errors`` (why tokens are missed)."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg, table

from textanon.cli.common import check_distinct, input_file
from textanon.extensions import DEFAULT_SPANS_KEY
from textanon_eval.cli.evaluate_tab import fail_on_bad_input
from textanon_eval.ner_errors import ner_errors
from textanon_eval.ner_eval import evaluate_ner_model
from textanon_lab.cli.apps import lab

#: the options shared by evaluate-ner and ner-errors
NER_GOLD = input_file("TAB-format JSON or entity layer (e.g. echr-dev)")
NER_MODEL = typer.Option("en_textanon", "--model", "-m", help="spaCy pipeline: package name or path")
NER_ANNOTATOR = typer.Option(None, "--annotator", help="Gold annotator (default: each document's first)")
NER_SPANS_KEY = typer.Option(DEFAULT_SPANS_KEY, "--spans-key")
NER_LIMIT = typer.Option(None, "--limit", help="Only the first N documents")


@lab.command("evaluate-ner")
def evaluate_ner_cmd(
    gold_path: Path = NER_GOLD,
    model: str = NER_MODEL,
    output: Path = typer.Option(Path("metrics/ner.json"), "--output", "-o"),
    annotator: Optional[str] = NER_ANNOTATOR,
    source: str = typer.Option(
        "auto", "--source", help="auto | spans (doc.spans[--spans-key]) | ents (OntoNotes doc.ents mapped to TAB)"
    ),
    spans_key: str = NER_SPANS_KEY,
    org_loc: bool = typer.Option(False, "--org-loc-interchangeable", help="Count ORG and LOC as matching labels"),
    full: bool = typer.Option(
        False, "--full", help="Keep the linker, LM risk scorer and optimizer (default: disabled, recognition only)"
    ),
    limit: Optional[int] = NER_LIMIT,
    folds: int = typer.Option(0, "--folds", help="Also the scores of each of N folds of documents (as cv-ner's)"),
) -> None:
    """Token-level P/R/F1 per TAB type of a pipeline's entities against a gold entity layer."""
    check_distinct([("GOLD_PATH", gold_path)], [("--output", output)])
    if source not in ("auto", "spans", "ents"):
        msg.fail(f"--source must be auto, spans or ents, not {source!r}", exits=1)
    result = fail_on_bad_input(
        lambda: evaluate_ner_model(gold_path, model, output, annotator, source, spans_key, org_loc, full, limit, folds)
    )
    rows = [
        (t, f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f}", s["gold_tokens"])
        for t, s in [*result["by_type"].items(), ("micro", result["micro"]), ("untyped", result["untyped"])]
    ]

    print(table(rows, header=("type", "P", "R", "F1", "gold tokens"), divider=True))
    msg.text(f"macro F1 {result['macro_f1']:.3f}")
    for fold in result.get("folds", []):
        msg.text(f"fold of {len(fold['test'])} documents: macro F1 {fold['macro_f1']:.3f}")
    msg.good(f"NER scores of {result['documents']} documents -> {output}")


@lab.command("ner-errors")
def ner_errors_cmd(
    gold_path: Path = NER_GOLD,
    model: str = NER_MODEL,
    output: Path = typer.Option(Path("metrics/ner_errors.json"), "--output", "-o"),
    annotator: Optional[str] = NER_ANNOTATOR,
    spans_key: str = NER_SPANS_KEY,
    strict: bool = typer.Option(False, "--strict-org-loc", help="ORG and LOC distinct (default: interchangeable)"),
    limit: Optional[int] = NER_LIMIT,
) -> None:
    """Why a recognizer misses or adds tokens, per TAB type: causes, detectors, mention shapes (never text)."""
    check_distinct([("GOLD_PATH", gold_path)], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    result = fail_on_bad_input(lambda: ner_errors(gold_path, model, output, annotator, spans_key, not strict, limit))
    for label, e in result["by_type"].items():
        msg.text(f"{label}: {e['missed_tokens']}/{e['gold_tokens']} gold tokens missed, {e['wrong_tokens']} wrong")
    msg.good(f"NER errors of {result['documents']} documents -> {output} (+ .md)")
