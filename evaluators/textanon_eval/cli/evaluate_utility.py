"""Annotation-free utility evaluators: ``evaluate-tpi``, ``evaluate-tps``, ``evaluate-nmi``, ``evaluate``,
``bench-tpi`` (options here; the work in ``textanon_eval.utility`` and ``textanon_lab.benchmarks.tpi_speed``)."""

from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg, table

from textanon.cli.apps import app
from textanon.cli.common import check_distinct, input_file, named_paths
from textanon.io.progress import is_quiet
from textanon.risk.language_models import ModelNotAvailable
from textanon.risk.language_models.loading import cache_dir as base
from textanon_eval.utility import UtilitySettings, evaluate_metric, report_outputs, run_report

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

    return base() / "ic"


COLUMNS_HELP = (
    "Comma-separated anonymization columns to evaluate (e.g. ner3_abstract,manual_abstract); "
    "default: all *_abstract columns"
)


def _columns(columns: Optional[str]) -> Optional[List[str]]:
    return [c.strip() for c in columns.split(",") if c.strip()] if columns else None


SPLIT_HELP = "Do not repair placeholder tags glued to neighbouring words (e.g. 'SSENSITIVEin') before alignment"


def _write(output: Path, result: dict, key: str) -> None:
    """Print the table of ``result[key]`` (one row per method, best first) and where it was written."""
    print(
        table(
            sorted(result[key].items(), key=lambda kv: -kv[1]),
            header=("method", key.upper()),
            divider=True,
            aligns=("l", "r"),
        )
    )
    msg.good(f"{key.upper()} of {len(result[key])} methods -> {output}")


def guard(fn):
    """Run ``fn``; bad input (EvaluationError and other ValueErrors) or a missing model -> one error line, exit 1."""
    try:
        return fn()
    except (ValueError, ModelNotAvailable) as err:
        msg.fail(str(err), exits=1)


def _settings(
    model, alternation, n, limit, extra, offsets, columns, no_split_tags, no_cache, cache_dir
) -> UtilitySettings:
    """The :class:`UtilitySettings` of the options that ``evaluate-tpi``, ``evaluate-tps`` and ``evaluate`` share."""
    return UtilitySettings(
        model=model,
        alternation=alternation,
        n=n,
        limit=limit,
        extra=extra,
        offsets=offsets,
        columns=_columns(columns),
        split_tags=not no_split_tags,
        cache_dir=_cache(no_cache, cache_dir),
    )


def _ic_metric_command(metric: str, summary: str):
    """The ``evaluate-tpi`` / ``evaluate-tps`` command (same options): ``report.evaluate_metric(metric, ...)``."""

    def command(
        input_path: Path = input_file("WikiActors-style JSON (name, original_abstract, *_abstract columns)"),
        output: Path = typer.Option(Path(f"metrics/{metric}.json"), "--output", "-o"),
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
        check_distinct(
            [("INPUT_PATH", input_path), *(("--extra", p) for p in extra), *named_paths("--offsets", offsets)],
            [("--output", output)],
        )
        settings = _settings(model, alternation, n, limit, extra, offsets, columns, no_split_tags, no_cache, cache_dir)
        result = guard(lambda: evaluate_metric(metric, input_path, output, settings, msg.warn, not is_quiet()))
        _write(output, result, metric)

    command.__doc__ = summary
    return command


app.command("evaluate-tpi")(
    _ic_metric_command(
        "tpi", "Text Preserved Information (TPI) of every anonymization column against original_abstract."
    )
)
app.command("evaluate-tps")(
    _ic_metric_command(
        "tps", "Text Preserved Similarity (TPS): TPI where a replaced term keeps IC x similarity(term, replacement)."
    )
)


@app.command("evaluate-nmi")
def evaluate_nmi(
    input_path: Path = input_file("WikiActors-style JSON"),
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
    check_distinct([("INPUT_PATH", input_path), *(("--extra", p) for p in extra)], [("--output", output)])
    settings = UtilitySettings(
        limit=limit,
        extra=extra,
        columns=_columns(columns),
        split_tags=not no_split_tags,
        seeds=seeds,
        ks=tuple(range(k_min, k_max + 1)),
    )
    result = guard(lambda: evaluate_metric("nmi", input_path, output, settings, msg.warn, not is_quiet()))
    _write(output, result, "nmi")


@app.command("evaluate")
def evaluate(
    input_path: Path = input_file("WikiActors-style JSON"),
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
        help="IC model of the headline TPI and of TPS: wordfreq (independent of the anonymizer; default) "
        "or any --model spec",
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
    wanted = [m.strip() for m in metrics.split(",") if m.strip()]
    check_distinct(
        [("INPUT_PATH", input_path), *(("--extra", p) for p in extra), *named_paths("--offsets", offsets)]
        + [("--trir", trir)],
        report_outputs(out_dir, name, wanted),
    )
    settings = replace(
        _settings(model, alternation, n, limit, extra, offsets, columns, no_split_tags, no_cache, cache_dir),
        seeds=seeds,
    )
    written = guard(
        lambda: run_report(input_path, out_dir, name, settings, trir, wanted, headline_model, msg.warn, not is_quiet())
    )
    print(Path(written["markdown"]).read_text(encoding="utf-8"))
    for key, path in written.items():
        msg.good(f"{key}: {path}")
