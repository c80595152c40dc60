"""``build-gazetteer``: the DEM/MISC person-attribute gazetteer as JSONL (WordNet offline, Wikidata online);
``build-word-classes``: the table of verbs and adverbs of the tagger-less phrase candidates (WordNet, offline);
``build-eponyms``: the table of terms named after a person ("Asperger's syndrome": WordNet, offline)."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct
from textanon.detect import eponyms
from textanon.detect.gazetteer import build_gazetteer, count_labels, write_jsonl
from textanon.detect.word_classes import TABLE, write_table
from textanon.detect.word_classes import build as build_word_classes
from textanon.io.progress import bar
from textanon_lab.cli.apps import lab


@lab.command("build-gazetteer")
def build_gazetteer_cmd(
    output: Path = typer.Option(Path("assets/gazetteer.jsonl"), "--output", "-o", help="JSONL file to write"),
    source: str = typer.Option("wordnet", help="wordnet (offline) or wikidata (needs internet)"),
    nltk_data: Optional[Path] = typer.Option(None, help="NLTK data folder with corpora/wordnet (default: $NLTK_DATA)"),
    min_count: int = typer.Option(20, help="wikidata: values used on at least this many humans"),
    limit: Optional[int] = typer.Option(None, help="wikidata: at most this many values per property"),
    prop: Optional[List[str]] = typer.Option(None, "--property", help="wikidata: only these properties (repeatable)"),
) -> None:
    """Build the gazetteer of person attributes and write ``{term, label, source, property_or_synset}`` rows."""
    check_distinct([("--nltk-data", nltk_data)], [("--output", output)])
    stats: dict = {}
    try:
        entries = build_gazetteer(
            source,
            nltk_data=nltk_data,
            min_count=min_count,
            limit=limit,
            properties=prop or None,
            progress=lambda it: bar(it, desc=source, unit="item"),
            stats=stats,
        )
    except (ValueError, LookupError, OSError) as err:
        msg.fail(f"Could not build the gazetteer from {source}: {err}", exits=1)
    n = write_jsonl(entries, output)
    counts = ", ".join(f"{k} {v}" for k, v in sorted(count_labels(entries).items()))
    refused = ", ".join(f"{k} {v}" for k, v in sorted(stats.items())) or "none"
    msg.good(f"Wrote {n} gazetteer terms to {output} ({counts}); refused: {refused}")


@lab.command("build-word-classes")
def build_word_classes_cmd(
    output: Path = typer.Option(TABLE, "--output", "-o", help="Text file to write, one word a line"),
    nltk_data: Optional[Path] = typer.Option(None, help="NLTK data folder with corpora/wordnet (default: $NLTK_DATA)"),
) -> None:
    """The words WordNet knows mostly as verbs or adverbs, among wordfreq's most frequent English words: the table the
    tagger-less phrase candidates read (textanon.detect.word_classes)."""
    _write_wordnet_table(build_word_classes, write_table, output, nltk_data, "words")


@lab.command("build-eponyms")
def build_eponyms_cmd(
    output: Path = typer.Option(eponyms.TABLE, "--output", "-o", help="Text file to write, one term a line"),
    nltk_data: Optional[Path] = typer.Option(None, help="NLTK data folder with corpora/wordnet (default: $NLTK_DATA)"),
) -> None:
    """The terms WordNet knows that are named after a person and name no person ("Asperger's syndrome", "Heimlich
    maneuver"): the table the recognizer reads to tell them from a person's name (textanon.detect.eponyms)."""
    _write_wordnet_table(eponyms.build, eponyms.write_table, output, nltk_data, "terms")


def _write_wordnet_table(build, write, output: Path, nltk_data: Optional[Path], what: str) -> None:
    """``write(build(nltk_data=...), output)`` for a table derived from WordNet, its output never the WordNet folder;
    a WordNet that cannot be read fails the command."""
    check_distinct([("--nltk-data", nltk_data)], [("--output", output)])
    try:
        entries = build(nltk_data=nltk_data)
    except (ValueError, LookupError, OSError) as err:
        msg.fail(f"Could not read WordNet: {err}", exits=1)
    write(entries, output)
    msg.good(f"Wrote {len(entries)} {what} to {output}")
