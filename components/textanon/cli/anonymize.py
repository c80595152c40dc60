"""``anonymize`` and ``demo`` commands."""
from pathlib import Path
from typing import Optional

import srsly
import typer
from wasabi import msg

from . import app

DEFAULT_PIPELINE = "en_textanon"


def load_pipeline(name: str, replacement: Optional[str] = None):
    """Load the packaged pipeline (or a pipeline folder), with a clear message if it is missing."""
    import spacy

    import textanon  # noqa: F401  (extensions)

    config = {"components": {"textanon_optimizer": {"replacement": replacement}}} if replacement else {}
    try:
        return spacy.load(name, config=config)
    except OSError:
        msg.fail(f"Cannot load pipeline {name!r}.", "Build and install it with `make package`, or pass --model PATH.", exits=1)


@app.command("anonymize")
def anonymize(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help=".txt, .jsonl ({id, text, target?}) or TAB-style .json"),
    output: Path = typer.Option(..., "--output", "-o", help="Output JSONL: one record (or error record) per input record"),
    masks_out: Optional[Path] = typer.Option(None, "--masks-out", help="Write {doc_id: [[start, end, replacement], ...]}"),
    model: str = typer.Option(DEFAULT_PIPELINE, "--model", "-m", help="Pipeline package name or folder"),
    target: Optional[str] = typer.Option(None, "--target", help="Person to protect (for records without 'target')"),
    replacement: Optional[str] = typer.Option(None, "--replacement", help="suppression | label | numbered"),
    n_process: int = typer.Option(1, "--n-process", help="Worker processes for nlp.pipe"),
    batch_size: int = typer.Option(8, "--batch-size"),
) -> None:
    """Anonymize every record of INPUT_PATH and write the decisions to --output."""
    from tqdm import tqdm

    from ..output import doc_to_record, masks_by_doc
    from ..records import Record, read_records

    nlp = load_pipeline(model, replacement)
    items = list(read_records(input_path))
    records, errors = [], [i for i in items if not isinstance(i, Record)]
    docs, ids = [], []
    for item in items:
        if isinstance(item, Record):
            doc = nlp.make_doc(item.text)
            doc._.target = item.target or target
            docs.append(doc)
            ids.append(item.id)
    for doc_id, doc in tqdm(zip(ids, nlp.pipe(docs, batch_size=batch_size, n_process=n_process)), total=len(docs), desc="anonymize", unit="doc"):
        records.append(doc_to_record(doc, doc_id))
    out_rows = records + [e.to_json() for e in errors]
    srsly.write_jsonl(output, out_rows)
    if masks_out:
        srsly.write_json(masks_out, masks_by_doc(records))
    for err in errors:
        msg.warn(err.error)
    msg.good(f"{len(records)} documents anonymized, {len(errors)} error records -> {output}")


@app.command("demo")
def demo(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="A .txt document"),
    model: str = typer.Option(DEFAULT_PIPELINE, "--model", "-m"),
    target: Optional[str] = typer.Option(None, "--target"),
) -> None:
    """Anonymize one text file and print the masked text with a table of decisions."""
    from wasabi import table

    nlp = load_pipeline(model)
    doc = nlp.make_doc(input_path.read_text(encoding="utf-8"))
    doc._.target = target
    doc = nlp(doc)
    msg.divider("Anonymized text")
    print(doc._.anonymized_text)
    msg.divider("Decisions")
    rows = [(s.text[:40], s.label_, s._.entity_id, s._.source, "-" if s._.ic is None else f"{s._.ic:.1f}", "masked" if s._.masked else "kept")
            for s in doc.spans["pii"]]
    print(table(rows, header=("span", "label", "entity", "source", "IC (nats)", "decision"), divider=True))
    masked = sum(1 for s in doc.spans["pii"] if s._.masked)
    msg.info(f"{masked}/{len(doc.spans['pii'])} mentions masked; {len(doc._.risky_combinations or [])} risky combinations")
    for warning in doc._.anonymization_warnings or []:
        msg.warn(warning)
