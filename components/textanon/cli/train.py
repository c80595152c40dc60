"""``silver`` and ``train-ner``: the privacy-enhanced entity model (silver corpus -> spaCy training)."""
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from . import app


@app.command("silver")
def silver_cmd(
    inputs: List[Path] = typer.Argument(..., exists=True, dir_okay=False, help="WikiActors JSON file(s) with public_knowledge"),
    output_dir: Path = typer.Option(Path("corpus"), help="Folder for silver-train.spacy, silver-dev.spacy, silver-stats.json"),
    model: str = typer.Option("en_textanon", help="Pipeline whose entity recognizer annotates (package or folder)"),
    max_individuals: Optional[int] = typer.Option(None, help="Use a random subset of this many biographies"),
    dev_share: float = typer.Option(0.1, help="Share of individuals held out as dev"),
    seed: int = typer.Option(0),
    keep_evaluated: bool = typer.Option(False, help="Also use individuals whose abstract is evaluated (default: excluded)"),
) -> None:
    """Annotate public biographies with the rule/gazetteer/NER recognizer -> DocBin silver corpus."""
    import spacy
    from tqdm import tqdm

    import textanon  # noqa: F401

    from ..training.silver import build_silver, limit_bodies, read_bodies, write_silver

    bodies = limit_bodies(read_bodies(inputs, exclude_evaluated=not keep_evaluated), max_individuals, seed)
    if not bodies:
        msg.fail("No public_knowledge bodies left to annotate", exits=1)
    nlp = spacy.load(model)
    result = build_silver(nlp, bodies, dev_share, seed, progress=lambda it, total: tqdm(it, total=total, desc="silver", unit="para"))
    paths = write_silver(result, output_dir)
    stats = result["stats"]
    msg.good(f"Silver corpus: {stats['paragraphs']} paragraphs, {stats['tokens']} tokens -> {paths['train']}, {paths['dev']}")
    msg.table([(label, stats["entities_by_label"]["train"][label], stats["entities_by_label"]["dev"][label])
               for label in stats["entities_by_label"]["train"]], header=("label", "train", "dev"))


@app.command("train-ner", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def train_ner_cmd(
    ctx: typer.Context,
    config: Path = typer.Argument(..., exists=True, dir_okay=False, help="configs/ner_cpu.cfg or configs/ner_trf.cfg"),
    output: Path = typer.Option(..., help="Output folder (model-best / model-last)"),
    train: Path = typer.Option(Path("corpus/silver-train.spacy"), exists=True),
    dev: Path = typer.Option(Path("corpus/silver-dev.spacy"), exists=True),
) -> None:
    """``spacy train`` with the local MiniLM folder filled in for transformer configs; extra
    ``--section.key value`` arguments override the config as in ``spacy train``."""
    from spacy.cli._util import parse_config_overrides
    from spacy.cli.train import train as spacy_train

    overrides = {"paths.train": str(train), "paths.dev": str(dev), **parse_config_overrides(ctx.args)}
    if "encoder = null" in config.read_text(encoding="utf8") and "paths.encoder" not in overrides:
        from ..lm.loading import minilm_path

        overrides["paths.encoder"] = str(minilm_path())
    spacy_train(config, output, use_gpu=-1, overrides=overrides)


@app.command("compare-ner")
def compare_ner_cmd(
    run: List[str] = typer.Option(..., help="NAME=evaluate-ner JSON (repeatable, table column order)"),
    silver: List[str] = typer.Option([], help="NAME=trained model folder (its silver dev scores, repeatable)"),
    output: Path = typer.Option(Path("metrics/ner_echr_dev.json"), help="JSON; a .md table is written beside it"),
    note: List[str] = typer.Option([], help="Line added under the table (repeatable)"),
) -> None:
    """Combine ``evaluate-ner`` results of several recognizers into one comparison table."""
    import json

    from ..training.compare import compare, markdown

    def pairs(items):
        bad = [i for i in items if "=" not in i]
        if bad:
            msg.fail(f"expected NAME=PATH, got {bad[0]!r}", exits=1)
        return [(k, Path(v)) for k, v in (i.split("=", 1) for i in items)]

    result = compare(pairs(run), pairs(silver))
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    table = markdown(result, note)
    output.with_suffix(".md").write_text(table, encoding="utf8")
    print(table)
