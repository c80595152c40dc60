"""TAB gold-standard evaluation of a masking: ``evaluate-tab`` (the recognizer's own evaluation, ``evaluate-ner``, is a
lab command: :mod:`textanon_lab.cli.ner`)."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.apps import app
from textanon.cli.common import check_distinct, input_file
from textanon.risk.language_models import ModelNotAvailable
from textanon_eval.tab_metrics import evaluate_masks

IC_MODEL_HELP = (
    "Language model for IC weights (with --weighted): textanon.SmolLM2Scorer.v1 (default), "
    "masked:<hf name/path> (e.g. masked:bert-base-uncased, as the TAB script) or causal:<hf name/path>"
)


def fail_on_bad_input(fn):
    try:
        return fn()
    except (ValueError, OSError, ModelNotAvailable) as err:
        msg.fail(str(err), exits=1)


@app.command("evaluate-tab")
def evaluate_tab(
    gold_path: Path = input_file("TAB-format gold JSON (multi-annotator)"),
    masks_path: Path = input_file("Masks {doc_id: [[start, end(, replacement)], ...]}"),
    output: Path = typer.Option(Path("metrics/tab.json"), "--output", "-o"),
    weighted: bool = typer.Option(False, "--weighted", help="Also IC-weighted token/mention precision"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=IC_MODEL_HELP),
) -> None:
    """TAB recall / precision metrics of masked spans (Pilán et al., 2022)."""
    check_distinct([("GOLD_PATH", gold_path), ("MASKS_PATH", masks_path)], [("--output", output)])
    result = fail_on_bad_input(
        lambda: evaluate_masks(gold_path, masks_path, output, weighted, model, warn=msg.warn, info=msg.info)
    )
    for key, value in result.items():
        if isinstance(value, float):
            print(f"{key:28s} {value:.3f}")
    for label, value in result["token_recall_by_type"].items():
        print(f"  token_recall[{label}]{'':{max(0, 13 - len(label))}s} {value:.3f}")
    msg.good(f"TAB metrics -> {output}")
