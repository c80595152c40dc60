"""``deanonymize`` and ``mapping-key``: the reversible mapping written by ``anonymize --mapping-out``."""

import os
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.apps import app
from textanon.cli.common import check_distinct, load_key, open_private, usage_error
from textanon.render.deanonymize import deanonymize_file, refusal_warnings
from textanon.render.mapping import KEY_ENV, Mapping, MappingError, new_key


@app.command("deanonymize")
def deanonymize(
    input_path: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="Output JSONL of `anonymize` (or {id, text} per line)"
    ),
    mapping_path: Optional[Path] = typer.Option(
        None,
        "--mapping",
        exists=True,
        dir_okay=False,
        help="The mapping file of `anonymize --mapping-out`; without it only the encrypt operator's tokens are "
        "restored (with the key)",
    ),
    output: Path = typer.Option(
        ...,
        "--output",
        "-o",
        help="JSONL {id, text} (or {id, error, line}) per input record, in input order (created with mode 0600)",
    ),
    key_file: Optional[Path] = typer.Option(
        None, "--key-file", dir_okay=False, help=f"File holding the mapping key (default: ${KEY_ENV})"
    ),
    mapping_unencrypted: bool = typer.Option(
        False,
        "--mapping-unencrypted",
        help="Read a plain-text mapping (written with --mapping-unencrypted; not authenticated). Refused with a key",
    ),
) -> None:
    """Restore the original texts of anonymized records: from an (encrypted) mapping, and the encrypt operator's
    tokens with the key. A record is restored only when its run, id and text match its mapping entry; any other
    gets an error record, and the exit code is 1."""
    check_distinct(
        [("INPUT_PATH", input_path), ("--mapping", mapping_path), ("--key-file", key_file)], [("--output", output)]
    )
    key = load_key(key_file)
    if mapping_path is None and not key:
        usage_error(f"give --mapping, or the key of the encrypt operator (--key-file or ${KEY_ENV})")
    if mapping_unencrypted and (mapping_path is None or key):
        usage_error(
            "--mapping-unencrypted reads a plain-text --mapping, and is refused with a key "
            f"(--key-file or ${KEY_ENV}): an encrypted mapping is authenticated, a plain one is not"
        )
    try:
        mapping = Mapping.read(mapping_path, key, mapping_unencrypted) if mapping_path is not None else None
    except (MappingError, OSError) as err:
        msg.fail(f"Cannot read the mapping: {err}", exits=1)
    try:
        out = open_private(output)
    except OSError as err:
        msg.fail(f"Cannot write output {output}: {err.strerror or type(err).__name__}.", exits=1)
    with out:
        n_ok, refused = deanonymize_file(input_path, out, mapping, key)
    for warning in refusal_warnings(refused, output):
        msg.warn(warning)
    if refused:
        msg.fail(f"{n_ok} texts restored, {len(refused)} refused (error records) -> {output}", exits=1)
    msg.good(f"{n_ok} texts restored -> {output}")


@app.command("mapping-key")
def mapping_key(
    output: Path = typer.Option(..., "--output", "-o", help="Key file to create (never overwritten; mode 0600)"),
) -> None:
    """Write a new random mapping key to OUTPUT (readable by its owner only); keep it apart from the mapping."""
    if output.exists() or output.is_symlink():
        msg.fail(f"{output} exists: a key is never overwritten.", exits=1)
    try:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        msg.fail(f"{output} exists: a key is never overwritten.", exits=1)
    except OSError as err:
        msg.fail(f"Cannot create the key file {output}: {err.strerror or type(err).__name__}.", exits=1)
    with os.fdopen(fd, "w") as f:
        f.write(new_key() + "\n")
    msg.good(f"New mapping key -> {output}")
