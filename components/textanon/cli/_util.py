"""Shared option declarations of the commands (as spaCy's ``cli/_util.py``)."""

import typer


def input_file(help: str) -> typer.models.ArgumentInfo:
    """A required argument naming an existing file (not a folder)."""
    return typer.Argument(..., exists=True, dir_okay=False, help=help)
