"""TAB gold-standard evaluation: ``evaluate-tab`` (masking) and ``evaluate-ner`` (recognition)."""

import time
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from . import app

IC_MODEL_HELP = (
    "Language model for IC weights (with --weighted): textanon.SmolLM2Scorer.v1 (default), "
    "masked:<hf name/path> (e.g. masked:bert-base-uncased, as the TAB script) or causal:<hf name/path>"
)


def _fail_on_bad_input(fn):
    from ..language_models import ModelNotAvailable

    try:
        return fn()
    except (ValueError, OSError, ModelNotAvailable) as err:
        msg.fail(str(err), exits=1)


def _write(output: Path, result: dict) -> None:
    from ..evaluation.provenance import write_metrics

    write_metrics(output, result)


@app.command("evaluate-tab")
def evaluate_tab(
    gold_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="TAB-format gold JSON (multi-annotator)"),
    masks_path: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="Masks {doc_id: [[start, end(, replacement)], ...]}"
    ),
    output: Path = typer.Option(Path("metrics/tab.json"), "--output", "-o"),
    weighted: bool = typer.Option(False, "--weighted", help="Also IC-weighted token/mention precision"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=IC_MODEL_HELP),
) -> None:
    """TAB recall / precision metrics of masked spans (Pilán et al., 2022)."""
    from ..datasets.tab import load_tab
    from ..evaluation.tab import TabEvaluator, lm_information_content
    from ..evaluation.tab_corpus import load_masks, overlapping_pairs

    def run():
        gold = load_tab(gold_path)
        masks = load_masks(masks_path, {g.doc_id: g.text for g in gold})
        overlaps = {d: n for d, spans in masks.items() if (n := overlapping_pairs(spans))}
        if overlaps:
            msg.warn(
                f"{sum(overlaps.values())} overlapping span(s) in {len(overlaps)} document(s): scored as the "
                "official TAB script does (recall on the union of masked characters; precision over each "
                "span's tokens, a token in two spans counting twice)"
            )
        missing = [g.doc_id for g in gold if g.doc_id not in masks]
        if missing:
            msg.warn(
                f"{len(missing)} gold document(s) have no entry in the masks file: left out (as the TAB script does)"
            )
        ic = lm_information_content(model) if weighted else None
        start = time.perf_counter()
        result = TabEvaluator(gold).evaluate(masks, ic, weighted)
        if weighted:
            msg.info(f"IC weights from {getattr(ic, 'model_name', model)}")
        msg.info(f"{len(masks)} documents scored in {time.perf_counter() - start:.1f} s")
        return result

    result = _fail_on_bad_input(run)
    _write(output, result)  # exactly the metric keys (see docs/evaluation_tab.md)
    for key, value in result.items():
        if isinstance(value, float):
            print(f"{key:28s} {value:.3f}")
    for label, value in result["token_recall_by_type"].items():
        print(f"  token_recall[{label}]{'':{max(0, 13 - len(label))}s} {value:.3f}")
    msg.good(f"TAB metrics -> {output}")


@app.command("evaluate-ner")
def evaluate_ner_cmd(
    gold_path: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="TAB-format JSON or entity layer (e.g. echr-dev)"
    ),
    model: str = typer.Option("en_textanon", "--model", "-m", help="spaCy pipeline: package name or path"),
    output: Path = typer.Option(Path("metrics/ner.json"), "--output", "-o"),
    annotator: Optional[str] = typer.Option(
        None, "--annotator", help="Gold annotator (default: each document's first)"
    ),
    source: str = typer.Option(
        "auto", "--source", help="auto | spans (doc.spans[--spans-key]) | ents (OntoNotes doc.ents mapped to TAB)"
    ),
    spans_key: str = typer.Option("pii", "--spans-key"),
    org_loc: bool = typer.Option(False, "--org-loc-interchangeable", help="Count ORG and LOC as matching labels"),
    full: bool = typer.Option(
        False, "--full", help="Keep the linker, LM risk scorer and optimizer (default: disabled, recognition only)"
    ),
    limit: Optional[int] = typer.Option(None, "--limit", help="Only the first N documents"),
) -> None:
    """Token-level P/R/F1 per TAB type of a pipeline's entities against a gold entity layer."""
    import spacy

    from ..datasets.tab import load_tab
    from ..evaluation.ner_eval import DISABLE_FOR_NER, evaluate_ner

    if source not in ("auto", "spans", "ents"):
        msg.fail(f"--source must be auto, spans or ents, not {source!r}", exits=1)

    def run():
        gold = load_tab(gold_path, require_identifiers=False)[:limit]
        nlp = spacy.load(model)
        disabled = [] if full else [p for p in DISABLE_FOR_NER if p in nlp.pipe_names]
        start = time.perf_counter()
        with nlp.select_pipes(disable=disabled):
            result = evaluate_ner(gold, nlp, annotator, source, spans_key, org_loc)
        result.update(
            {
                "model": model,
                "pipeline": [p for p in nlp.pipe_names if p not in disabled],
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
        return result

    result = _fail_on_bad_input(run)
    _write(output, result)
    rows = [
        (t, f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f}", s["gold_tokens"])
        for t, s in [*result["by_type"].items(), ("micro", result["micro"]), ("untyped", result["untyped"])]
    ]
    from wasabi import table

    print(table(rows, header=("type", "P", "R", "F1", "gold tokens"), divider=True))
    msg.good(f"NER scores of {result['documents']} documents -> {output}")
