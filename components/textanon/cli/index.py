"""``index build`` and ``index bench``: the public-knowledge search index (see docs/search.md)."""
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from . import app

index_app = typer.Typer(help="Public-knowledge search index for the search risk (docs/search.md).",
                        no_args_is_help=True)
app.add_typer(index_app, name="index")


@index_app.command("build")
def build(
    input_path: Path = typer.Argument(..., exists=True,
                                      help="WikiActors-format .json (name + public_knowledge), .jsonl "
                                           "({id, text, name?}) or a folder of .txt files"),
    output: Path = typer.Option(..., "--output", "-o", help="Index folder (created; an index there is replaced)"),
    backend: str = typer.Option(None, "--backend", help="sqlite-fts5 (default) or tantivy"),
) -> None:
    """Index every document of INPUT_PATH into the folder --output."""
    from ..search.backends import DEFAULT_BACKEND
    from ..search.builder import build_index

    if output.exists() and not output.is_dir():
        msg.fail(f"Output {output} is a file; give a folder.", exits=1)
    try:
        meta = build_index(input_path, output, backend=backend or DEFAULT_BACKEND)
    except (ValueError, ImportError) as err:
        msg.fail(f"Cannot build the index: {err}", exits=1)
    msg.good(f"Indexed {meta['documents']} documents ({meta['persons']} persons, {meta['skipped_records']} records "
             f"without text skipped) with {meta['backend']} in {meta['build_seconds']} s -> {output}")


@index_app.command("bench")
def bench(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Documents to index (as for build)"),
    output: Path = typer.Option(Path("metrics/search_index_backends.json"), "--output", "-o",
                                help="JSON; a .md table is written beside it"),
    queries: int = typer.Option(300, help="Queries of each kind"),
    seed: int = typer.Option(0, help="Query sampling seed"),
    pipeline: Optional[str] = typer.Option(None, help="A pipeline with textanon_search_risk: time the component too"),
    exclude: Optional[Path] = typer.Option(None, exists=True, dir_okay=False,
                                           help="With --pipeline: the evaluated records (WikiActors JSON), never used; "
                                                "the component runs on pseudo-abstracts of the other actors"),
    documents: int = typer.Option(50, help="With --pipeline: pseudo-abstracts timed (seeded sample)"),
) -> None:
    """Build time, size and query latency of every embedded backend on INPUT_PATH."""
    from ..evaluation.provenance import write_metrics
    from ..search.bench import bench_backends, markdown

    nlp, docs = None, []
    if pipeline and not exclude:
        msg.fail("--pipeline needs --exclude (the evaluated records, never used for timing)", exits=1)
    if pipeline:
        import random

        import spacy

        from .. import search_risk  # noqa: F401  (the factory, also without the package's entry points)
        from ..search import registry  # noqa: F401
        from ..tuning.threshold import pseudo_abstracts

        nlp = spacy.load(pipeline)
        pool = [p for p in pseudo_abstracts(input_path, exclude) if p["eligible"]]
        docs = [(p["abstract"], p["name"]) for p in random.Random(seed).sample(pool, min(documents, len(pool)))]
    result = bench_backends(input_path, n_queries=queries, seed=seed, nlp=nlp, documents=docs)
    write_metrics(output, result)
    output.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    msg.good(f"Wrote {output}")
    print(markdown(result))
