"""Annotation-free utility evaluators: ``evaluate-tpi``, ``evaluate-tps``, ``evaluate-nmi``, ``evaluate``, ``bench-tpi``."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from . import app

MODEL_HELP = (
    "IC model: a registry name (textanon.SmolLM2Scorer.v1, the offline default), masked:<hf name/path>, "
    "causal:<hf name/path>, or wordfreq (word frequencies, independent of the anonymizer)"
)
ALT_HELP = "Term alternation for masked LMs: n (N-term alternation) or s (sentence-term alternation)"


def _cache(no_cache: bool, cache_dir: Optional[Path]):
    if no_cache:
        return None
    if cache_dir:
        return cache_dir
    from ..language_models.loading import cache_dir as base

    return base() / "ic"


COLUMNS_HELP = "Comma-separated anonymization columns to evaluate (e.g. ner3_abstract,manual_abstract); default: all *_abstract columns"


def _columns(columns: Optional[str]) -> Optional[List[str]]:
    return [c.strip() for c in columns.split(",") if c.strip()] if columns else None


SPLIT_HELP = "Do not repair placeholder tags glued to neighbouring words (e.g. 'SSENSITIVEin') before alignment"


def _load(
    input_path: Path,
    limit: Optional[int],
    extra: List[Path],
    offsets: List[str],
    columns: Optional[str] = None,
    no_split_tags: bool = False,
):
    from ..evaluation.corpus import load_corpus
    from ..evaluation.tpi import EvaluationError

    try:
        corpus = load_corpus(input_path, limit, extra, offsets, _columns(columns), split_tags=not no_split_tags)
    except EvaluationError as err:
        msg.fail(str(err), exits=1)
    for method, ids in corpus.missing.items():
        if ids:
            shown = ", ".join(map(repr, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            msg.warn(
                f"column {method!r}: no anonymization (empty or null) for record(s) {shown}: left out of its average"
            )
    return corpus


def _write(output: Path, result: dict, key: str) -> None:
    from wasabi import table

    from ..evaluation.provenance import write_metrics

    write_metrics(output, result)

    print(
        table(
            sorted(result[key].items(), key=lambda kv: -kv[1]),
            header=("method", key.upper()),
            divider=True,
            aligns=("l", "r"),
        )
    )
    msg.good(f"{key.upper()} of {len(result[key])} methods -> {output}")


def _guard(fn):
    """Run ``fn``; bad input (EvaluationError and other ValueErrors) or a missing model -> one error line, exit 1."""
    from ..language_models import ModelNotAvailable

    try:
        return fn()
    except (ValueError, ModelNotAvailable) as err:
        msg.fail(str(err), exits=1)


@app.command("evaluate-tpi")
def evaluate_tpi(
    input_path: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="WikiActors-style JSON (name, original_abstract, *_abstract columns)"
    ),
    output: Path = typer.Option(Path("metrics/tpi.json"), "--output", "-o"),
    alternation: str = typer.Option("n", "--alternation", help=ALT_HELP),
    n: int = typer.Option(6, "--n", help="N of N-term alternation"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=MODEL_HELP),
    limit: Optional[int] = typer.Option(None, "--limit", help="Only the first N records"),
    extra: List[Path] = typer.Option(
        [], "--extra", exists=True, dir_okay=False, help="Extra anonymizations {column: {name: text}} (repeatable)"
    ),
    offsets: List[str] = typer.Option(
        [], "--offsets", help="METHOD=FILE offset file {name: [[start, end, replacement], ...]} (repeatable)"
    ),
    columns: Optional[str] = typer.Option(None, "--columns", help=COLUMNS_HELP),
    no_split_tags: bool = typer.Option(False, "--no-split-tags", help=SPLIT_HELP),
    cache_dir: Optional[Path] = typer.Option(
        None, "--cache-dir", help="IC cache folder (default ~/.cache/textanon/ic)"
    ),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the on-disk IC cache"),
) -> None:
    """Text Preserved Information (TPI) of every anonymization column against original_abstract."""
    from ..evaluation.report import tpi_result
    from ..evaluation.tpi import InformationContent

    corpus = _load(input_path, limit, extra, offsets, columns, no_split_tags)
    ic = _guard(lambda: InformationContent(model, alternation, n, _cache(no_cache, cache_dir)))
    _write(output, _guard(lambda: tpi_result(corpus, ic, path=input_path)), "tpi")


@app.command("evaluate-tps")
def evaluate_tps(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="WikiActors-style JSON"),
    output: Path = typer.Option(Path("metrics/tps.json"), "--output", "-o"),
    alternation: str = typer.Option("n", "--alternation", help=ALT_HELP),
    n: int = typer.Option(6, "--n"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=MODEL_HELP),
    limit: Optional[int] = typer.Option(None, "--limit"),
    extra: List[Path] = typer.Option([], "--extra", exists=True, dir_okay=False),
    offsets: List[str] = typer.Option([], "--offsets", help="METHOD=FILE offset file with replacements (repeatable)"),
    columns: Optional[str] = typer.Option(None, "--columns", help=COLUMNS_HELP),
    no_split_tags: bool = typer.Option(False, "--no-split-tags", help=SPLIT_HELP),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir"),
    no_cache: bool = typer.Option(False, "--no-cache"),
) -> None:
    """Text Preserved Similarity (TPS): TPI where a replaced term keeps IC x similarity(term, replacement)."""
    from ..evaluation.report import tps_result
    from ..evaluation.tpi import InformationContent

    corpus = _load(input_path, limit, extra, offsets, columns, no_split_tags)
    ic = _guard(lambda: InformationContent(model, alternation, n, _cache(no_cache, cache_dir)))
    _write(output, _guard(lambda: tps_result(corpus, ic, path=input_path)), "tps")


@app.command("evaluate-nmi")
def evaluate_nmi(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="WikiActors-style JSON"),
    output: Path = typer.Option(Path("metrics/nmi.json"), "--output", "-o"),
    limit: Optional[int] = typer.Option(None, "--limit"),
    extra: List[Path] = typer.Option([], "--extra", exists=True, dir_okay=False),
    columns: Optional[str] = typer.Option(None, "--columns", help=COLUMNS_HELP),
    no_split_tags: bool = typer.Option(False, "--no-split-tags", help=SPLIT_HELP),
    seeds: int = typer.Option(10, "--seeds", help="k-means runs (seeds) to average"),
    k_min: int = typer.Option(2, "--k-min"),
    k_max: int = typer.Option(10, "--k-max"),
) -> None:
    """NMI between k-means clusterings of the original and of the anonymized documents."""
    from ..evaluation.report import nmi_result

    corpus = _load(input_path, limit, extra, [], columns, no_split_tags)
    _write(output, _guard(lambda: nmi_result(corpus, seeds, tuple(range(k_min, k_max + 1)), path=input_path)), "nmi")


@app.command("evaluate")
def evaluate(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="WikiActors-style JSON"),
    out_dir: Path = typer.Option(Path("metrics"), "--out-dir"),
    name: str = typer.Option("wikiactors", "--name", help="Corpus name used in the output file names"),
    extra: List[Path] = typer.Option(
        [], "--extra", help="Extra anonymizations {column: {name: text}}; missing files are skipped"
    ),
    offsets: List[str] = typer.Option([], "--offsets", help="METHOD=FILE offset files (repeatable)"),
    metrics: str = typer.Option(
        "tpi,tpi_lm,tps,nmi",
        "--metrics",
        help="Comma-separated subset of tpi (headline, word-frequency IC), tpi_lm (TPI with --model), tps, nmi",
    ),
    headline_model: str = typer.Option(
        "wordfreq",
        "--headline-model",
        help="IC model of the headline TPI and of TPS: wordfreq (independent of the anonymizer; default) or any --model spec",
    ),
    columns: Optional[str] = typer.Option(None, "--columns", help=COLUMNS_HELP),
    no_split_tags: bool = typer.Option(False, "--no-split-tags", help=SPLIT_HELP),
    alternation: str = typer.Option("n", "--alternation", help=ALT_HELP),
    n: int = typer.Option(6, "--n"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=MODEL_HELP),
    limit: Optional[int] = typer.Option(None, "--limit"),
    trir: Optional[Path] = typer.Option(
        None, "--trir", help="TRIR metrics JSON (default OUT_DIR/trir_NAME_50_eval.json if present)"
    ),
    seeds: int = typer.Option(10, "--seeds"),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir"),
    no_cache: bool = typer.Option(False, "--no-cache"),
) -> None:
    """Run TPI (headline: word-frequency IC; beside it: the LM's), TPS and NMI; write metrics/*.json, a markdown
    table and a utility-vs-privacy plot."""
    from ..evaluation.report import run_report

    for p in extra:
        if not p.exists():
            msg.warn(f"extra anonymizations {p} not found: skipped")
    wanted = [m.strip() for m in metrics.split(",") if m.strip()]
    written = _guard(
        lambda: run_report(
            input_path,
            out_dir,
            name,
            extra,
            offsets,
            model,
            alternation,
            n,
            limit,
            _cache(no_cache, cache_dir),
            trir,
            wanted,
            seeds,
            columns=_columns(columns),
            split_tags=not no_split_tags,
            headline_model=headline_model,
        )
    )
    print(Path(written["markdown"]).read_text(encoding="utf-8"))
    for key, path in written.items():
        msg.good(f"{key}: {path}")


@app.command("bench-tpi")
def bench_tpi(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="WikiActors-style JSON"),
    output: Path = typer.Option(Path("metrics/tpi_speed.json"), "--output", "-o"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=MODEL_HELP),
    n: int = typer.Option(6, "--n"),
    limit: Optional[int] = typer.Option(None, "--limit"),
    random_bert_base: bool = typer.Option(
        False,
        "--random-bert-base",
        help="Also time a randomly initialised BERT-base masked LM (runtime only: its TPI values are meaningless)",
    ),
    bert_limit: Optional[int] = typer.Option(
        None, "--bert-limit", help="Documents for the random BERT-base run (default: all)"
    ),
    device: str = typer.Option("cpu", "--device", help="torch device of the random BERT-base run (e.g. cuda)"),
) -> None:
    """Time TPI (IC of all original documents, no cache) with N-TA and S-TA -> metrics/tpi_speed.json."""
    from ..benchmarks.tpi_speed import bench

    corpus = _load(input_path, limit, [], [])
    result = _guard(lambda: bench(corpus, model, n, random_bert_base, bert_limit, str(input_path), device))
    from ..evaluation.provenance import write_metrics

    write_metrics(output, result)
    for run in result["runs"]:
        msg.info(
            f"{run['model']} {run['alternation']}: {run['seconds']:.1f} s for {run['documents']} documents ({run['passes']} passes)"
        )
    msg.good(f"-> {output}")
