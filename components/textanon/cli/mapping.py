"""``deanonymize`` and ``mapping-key``: the reversible mapping written by ``anonymize --mapping-out``."""

import json
import os
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..mapping import KEY_ENV
from . import app
from ._util import check_distinct, usage_error


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
    output: Path = typer.Option(..., "--output", "-o", help="JSONL {id, text} (or {id, error}) per input record"),
    key_file: Optional[Path] = typer.Option(
        None, "--key-file", dir_okay=False, help=f"File holding the mapping key (default: ${KEY_ENV})"
    ),
) -> None:
    """Restore the original texts of anonymized records: from an (encrypted) mapping, and the encrypt operator's
    tokens with the key."""
    from ..mapping import Mapping, MappingError, deanonymize_records, decrypt_records, read_key
    from ..output import read_output
    from ..progress import bar, count_records

    check_distinct([("INPUT_PATH", input_path), ("--mapping", mapping_path)], [("--output", output)])
    key = read_key(key_file)
    if mapping_path is None and not key:
        usage_error(f"give --mapping, or the key of the encrypt operator (--key-file or ${KEY_ENV})")
    try:
        mapping = Mapping.read(mapping_path, key) if mapping_path is not None else None
    except (MappingError, OSError) as err:
        msg.fail(f"Cannot read the mapping: {err}", exits=1)
    n_ok = n_err = 0
    with output.open("w", encoding="utf-8") as out:
        records = bar(read_output(input_path), total=count_records(input_path), desc="deanonymize")
        restored = deanonymize_records(records, mapping) if mapping is not None else decrypt_records(records, key)
        for record in restored:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            n_err += "error" in record
            n_ok += "error" not in record
    msg.good(f"{n_ok} texts restored, {n_err} not -> {output}")


@app.command("mapping-key")
def mapping_key(output: Path = typer.Option(..., "--output", "-o", help="Key file to create")) -> None:
    """Write a new random mapping key to OUTPUT (readable by its owner only); keep it apart from the mapping."""
    from ..mapping import new_key

    if output.exists():
        msg.fail(f"{output} exists: a key is never overwritten.", exits=1)
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(new_key() + "\n")
    msg.good(f"New mapping key -> {output}")
