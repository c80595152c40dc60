"""``index build`` and ``index bench``: the public-knowledge search index (see docs/search.md)."""
from pathlib import Path

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
) -> None:
    """Build time, size and query latency of every embedded backend on INPUT_PATH."""
    from ..evaluation.provenance import write_metrics
    from ..search.bench import bench_backends, markdown

    result = bench_backends(input_path, n_queries=queries, seed=seed)
    write_metrics(output, result)
    output.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    msg.good(f"Wrote {output}")
    print(markdown(result))
