"""``silver`` and ``train-ner``: the privacy-enhanced entity model (silver corpus -> spaCy training)."""

from pathlib import Path
from typing import List, Optional

import typer
from spacy.cli._util import parse_config_overrides
from spacy.cli.train import train as spacy_train
from wasabi import msg

from textanon.cli.common import check_distinct, input_file, named_paths
from textanon.io.datasets.gold import gold_corpus, gold_summary
from textanon.risk.language_models.loading import minilm_path
from textanon_lab.cli.apps import lab
from textanon_lab.training.artifact import ArtifactError, export_model, verify_asset
from textanon_lab.training.compare import compare_ner
from textanon_lab.training.crossval import FoldSettings, cv_ner, step_limit, train_court
from textanon_lab.training.silver import label_rows, silver_corpus, silver_progress, silver_summary


@lab.command("silver")
def silver_cmd(
    inputs: List[Path] = input_file(
        "WikiActors JSON file(s) with public_knowledge, or TAB-format JSON with --input-format tab"
    ),
    output_dir: Path = typer.Option(
        Path("corpus"), help="Folder for <prefix>-train.spacy, <prefix>-dev.spacy, <prefix>-stats.json"
    ),
    model: str = typer.Option(
        "training/en_textanon_rules",
        help="Pipeline whose entity recognizer annotates (package or folder; the rule-based one by default)",
    ),
    max_individuals: Optional[int] = typer.Option(None, help="Use a random subset of this many biographies"),
    dev_share: float = typer.Option(0.1, help="Share of individuals (or annotated documents) held out as dev"),
    seed: int = typer.Option(0),
    keep_evaluated: bool = typer.Option(
        False, help="Also use individuals whose abstract is evaluated (default: excluded)"
    ),
    input_format: str = typer.Option(
        "wikiactors", help="wikiactors (recognizer annotates) | tab (human annotations become the entities)"
    ),
    annotator: Optional[str] = typer.Option(
        None, help="tab: annotator whose mentions are used (default: each document's first)"
    ),
    prefix: Optional[str] = typer.Option(None, help="Output file prefix (default: silver, or gold for tab)"),
) -> None:
    """Training corpus: public biographies annotated by the recognizer (silver), or TAB-format
    annotated documents (gold) -> DocBin train/dev split by individual / document."""
    name = prefix or ("gold" if input_format == "tab" else "silver")
    check_distinct(
        [("INPUTS", p) for p in inputs],
        [(f"--output-dir ({name}-{part})", output_dir / f"{name}-{part}") for part in ("train.spacy", "dev.spacy")]
        + [(f"--output-dir ({name}-stats.json)", output_dir / f"{name}-stats.json")],
    )
    if input_format not in ("wikiactors", "tab"):
        msg.fail(f"--input-format must be wikiactors or tab, got {input_format!r}", exits=1)
    try:
        if input_format == "tab":
            stats, paths = gold_corpus(inputs, output_dir, dev_share, seed, annotator, name)
        else:
            options = (max_individuals, dev_share, seed, keep_evaluated, name)
            stats, paths = silver_corpus(inputs, output_dir, model, *options, progress=silver_progress)
    except ValueError as err:
        msg.fail(str(err), exits=1)
    if input_format == "tab":
        msg.good(gold_summary(stats, paths))
        return
    msg.good(silver_summary(stats, paths))
    msg.table(label_rows(stats), header=("label", "train", "dev"))


@lab.command("train-ner", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def train_ner_cmd(
    ctx: typer.Context,
    config: Path = input_file("configs/ner_cpu.cfg or configs/ner_trf.cfg"),
    output: Path = typer.Option(..., help="Output folder (model-best / model-last)"),
    train: Path = typer.Option(Path("corpus/silver-train.spacy"), exists=True),
    dev: Path = typer.Option(Path("corpus/silver-dev.spacy"), exists=True),
) -> None:
    """``spacy train`` with the local MiniLM folder filled in for transformer configs; extra
    ``--section.key value`` arguments override the config as in ``spacy train``."""
    check_distinct(
        [("CONFIG", config), ("--train", train), ("--dev", dev)], [("--output", output)], folders=["--output"]
    )

    overrides = {"paths.train": str(train), "paths.dev": str(dev), **parse_config_overrides(ctx.args)}
    if "encoder = null" in config.read_text(encoding="utf8") and "paths.encoder" not in overrides:
        overrides["paths.encoder"] = str(minilm_path())
    spacy_train(config, output, use_gpu=-1, overrides=overrides)


@lab.command("compare-ner")
def compare_ner_cmd(
    run: List[str] = typer.Option(..., help="NAME=evaluate-ner JSON (repeatable, table column order)"),
    silver: List[str] = typer.Option([], help="NAME=trained model folder (its silver dev scores, repeatable)"),
    output: Path = typer.Option(
        Path("build/ner_compare.json"),
        help="JSON; a .md table is written beside it (metrics/ only through a project.yml command)",
    ),
    note: List[str] = typer.Option([], help="Line added under the table (repeatable)"),
) -> None:
    """Combine ``evaluate-ner`` results of several recognizers into one comparison table."""
    check_distinct(
        named_paths("--run", run) + named_paths("--silver", silver),
        [("--output", output), ("--output (.md)", output.with_suffix(".md"))],
    )

    def pairs(items):
        bad = [i for i in items if "=" not in i]
        if bad:
            msg.fail(f"expected NAME=PATH, got {bad[0]!r}", exits=1)
        return [(k, Path(v)) for k, v in (i.split("=", 1) for i in items)]

    print(compare_ner(pairs(run), pairs(silver), output, note))


@lab.command("train-court")
def train_court_cmd(
    gold: List[Path] = input_file("TAB-format JSON with annotated cases"),
    output: Path = typer.Option(Path("training/ner_court"), help="Output folder (model-best / model-last)"),
    base_model: Path = typer.Option(
        Path("training/ner_cpu/model-best"), exists=True, file_okay=False, help="Silver model to start from"
    ),
    config: Path = typer.Option(Path("configs/ner_court.cfg"), exists=True, dir_okay=False),
    annotator: Optional[str] = typer.Option(
        None, help="Annotator whose mentions are used (default: each document's first)"
    ),
    dev_share: float = typer.Option(0.15, help="Share of cases held out for early stopping"),
    max_steps: Optional[int] = typer.Option(None, help="Override training.max_steps (smoke runs)"),
    seed: int = typer.Option(0),
) -> None:
    """Fine-tune the silver model on annotated court cases (split by case into train / early-stopping dev)."""
    check_distinct(
        [("GOLD", p) for p in gold] + [("--base-model", base_model), ("--config", config)],
        [("--output", output)],
        folders=["--output"],
    )
    try:
        model = train_court(gold, output, base_model, config, annotator, dev_share, max_steps, seed, log=msg.good)
    except ValueError as err:
        msg.fail(str(err), exits=1)
    msg.good(f"Court-tuned entity model -> {model}")


@lab.command("cv-ner")
def cv_ner_cmd(
    gold: Path = input_file("TAB-format JSON with annotated cases (e.g. echr-dev)"),
    folds: int = typer.Option(3, help="Number of folds (split by document)"),
    base_model: Path = typer.Option(
        Path("training/ner_cpu/model-best"), exists=True, file_okay=False, help="Silver model to fine-tune"
    ),
    config: Path = typer.Option(Path("configs/ner_court.cfg"), exists=True, dir_okay=False),
    pipeline_config: Path = typer.Option(
        Path("configs/textanon.cfg"), exists=True, dir_okay=False, help="Hybrid pipeline (paths.ner_model set per fold)"
    ),
    gazetteer: Optional[Path] = typer.Option(
        Path("assets/gazetteer.jsonl"), help="Gazetteer JSONL for the hybrid pipeline"
    ),
    work_dir: Path = typer.Option(Path("training/cv"), help="Fold corpora and models"),
    output: Path = typer.Option(Path("metrics/ner_echr_cv.json"), help="JSON; a .md table is written beside it"),
    annotator: Optional[str] = typer.Option(None),
    max_steps: Optional[int] = typer.Option(None, help="Override training.max_steps (smoke runs)"),
    seed: int = typer.Option(0),
) -> None:
    """k-fold cross-validation of court fine-tuning: every case scored by a model that never saw it."""
    check_distinct(
        [("GOLD", gold), ("--base-model", base_model), ("--config", config)]
        + [("--pipeline-config", pipeline_config), ("--gazetteer", gazetteer)],
        [("--work-dir", work_dir), ("--output", output), ("--output (.md)", output.with_suffix(".md"))],
        folders=["--work-dir"],
    )
    gazetteer = gazetteer if gazetteer and gazetteer.exists() else None
    settings = FoldSettings(
        config, pipeline_config, base_model, gazetteer, work_dir, annotator, seed=seed, overrides=step_limit(max_steps)
    )
    print(cv_ner(gold, output, folds, settings, log=msg.info))


@lab.command("export-ner")
def export_ner_cmd(
    model: Path = typer.Argument(..., exists=True, file_okay=False, help="Trained pipeline folder (train-court)"),
    output: Path = typer.Option(Path("assets/models/ner_court"), help="Artifact folder (replaced)"),
    project: Optional[Path] = typer.Option(
        None, exists=True, dir_okay=False, help="project.yml whose assets entry for OUTPUT gets the new checksum"
    ),
) -> None:
    """The shipped entity model: MODEL copied to OUTPUT without its training-time strings, checked to tag probe
    texts as MODEL does, its checksum written into PROJECT."""
    check_distinct([("MODEL", model), ("--project", project)], [("--output", output)], folders=["--output"])
    try:
        export_model(model, output, project, log=msg.good)
    except ArtifactError as err:
        msg.fail(str(err), exits=1)


@lab.command("verify-asset")
def verify_asset_cmd(
    dest: str = typer.Argument(..., help="The dest of an assets entry of PROJECT (e.g. assets/models/ner_court)"),
    project: Path = typer.Option(Path("project.yml"), exists=True, dir_okay=False),
) -> None:
    """Fail unless DEST has the checksum PROJECT's assets entry gives (the build runs this)."""
    try:
        digest = verify_asset(project, dest)
    except ArtifactError as err:
        msg.fail(str(err), exits=1)
    msg.good(f"{dest}: checksum {digest} as in {project}")
