"""``index build``: the public-knowledge search index (see docs/search.md). The lab adds ``index bench``, ``index tune``
and ``index dev-set`` (:mod:`textanon_lab.cli.index`)."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.apps import app
from textanon.cli.common import check_distinct
from textanon.io.progress import is_quiet
from textanon.risk.search.backends import DEFAULT_BACKEND
from textanon.risk.search.builder import build_index, persons_in

index_app = typer.Typer(
    help="Public-knowledge search index for the search risk (docs/search.md).", no_args_is_help=True
)
app.add_typer(index_app, name="index")


@index_app.command("build")
def build(
    input_path: Path = typer.Argument(
        ...,
        exists=True,
        help="WikiActors-format .json (name + public_knowledge), .jsonl ({id, text, name?}) or a folder of .txt files",
    ),
    output: Path = typer.Option(..., "--output", "-o", help="Index folder (created; an index there is replaced)"),
    backend: str = typer.Option(None, "--backend", help="sqlite-fts5 (default) or tantivy"),
    exclude: Optional[Path] = typer.Option(
        None,
        exists=True,
        dir_okay=False,
        help="WikiActors JSON: documents about its people are left out (e.g. an index without the evaluated people)",
    ),
) -> None:
    """Index every document of INPUT_PATH into the folder --output."""
    check_distinct([("INPUT_PATH", input_path), ("--exclude", exclude)], [("--output", output)], folders=["--output"])
    if output.exists() and not output.is_dir():
        msg.fail(f"Output {output} is a file; give a folder.", exits=1)
    try:
        meta = build_index(
            input_path,
            output,
            backend=backend or DEFAULT_BACKEND,
            progress=not is_quiet(),
            exclude_persons=persons_in(exclude) if exclude else (),
        )
    except (ValueError, ImportError) as err:
        msg.fail(f"Cannot build the index: {err}", exits=1)
    msg.good(
        f"Indexed {meta['documents']} documents ({meta['persons']} persons, {meta['skipped_records']} records "
        f"without text skipped, {meta['excluded_documents']} left out) with {meta['backend']} in "
        f"{meta['build_seconds']} s -> {output}"
    )
