"""The log of evaluation runs: ``metrics/runs.jsonl``, one line per run of a command that wrote metrics, and its
table ``metrics/runs.md`` (newest last), both written by code, never by hand.

:func:`textanon_eval.provenance.write_metrics` calls :func:`record` for every metrics file it writes; a line
is written only when the file is inside the ``metrics/`` folder of the checkout holding the library (:data:`ROOT`),
so outputs elsewhere (a temporary folder, a test) leave the log alone, and never while pytest runs a test against
the checkout's own log. One process is one run: the second metrics file a command writes (``evaluate`` writes
four) is added to the line of the first. A line holds the UTC date, the commit and dirty flag of the code, the
command line, the data files named on it (each marked ``evaluation`` or ``dev``: :func:`data_inputs`), the rows
(systems) of the metrics when it has rows, the outputs, and **why** the run was made (``textanon lab --why TEXT``
or ``$TEXTANON_RUN_WHY``; null when not given). No document text is recorded: the command line holds paths and
options only.

:func:`backfill` rebuilds the earlier runs from the git history (``textanon lab run-log --from-git``): every
version of a ``metrics/*.json`` file that a commit added or changed, with what its provenance block records and
the first line of that commit's message as the why (``"backfilled": true``).
"""

import json
import os
import re
import shlex
import subprocess
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

#: the checkout holding the library (its ``metrics/`` folder is the one whose writes are logged)
ROOT = Path(__file__).resolve().parents[2]
LOG_NAME = "runs.jsonl"
WHY_ENV = "TEXTANON_RUN_WHY"
#: one id per process: the metrics files one command writes share a line
RUN_ID = uuid.uuid4().hex[:12]
#: longest why kept (a commit message's first line, or what --why says)
WHY_CHARS = 200

#: data files that are evaluation data wherever they are used: the 50 evaluated WikiActors abstracts (and every
#: file derived from them, e.g. their anonymizations or bodies: ``wikiactors_50`` not followed by a digit, so
#: ``WikiActors_500_random`` is not one) and TAB's test split
EVALUATION_FILES = re.compile(r"wikiactors_50(?!\d)|echr[_-]?test", re.IGNORECASE)
#: data that is the evaluation set of one command only: the 27 echr-dev cases (TAB test cases) are the documents of
#: the ECHR benchmark, and development data of the entity model (training, cross-validation, error analysis)
EVALUATION_FOR_COMMAND = {"benchmark-echr": re.compile(r"echr[_-]?dev", re.IGNORECASE)}
#: options whose values are outputs or excluded data, not data a run evaluates on
NOT_DATA = re.compile(r"out|markdown|work-dir|readme|exclude|^-o$")
DATA_SUFFIXES = (".json", ".jsonl", ".txt", ".csv")

_why: Optional[str] = None


def set_why(text: Optional[str]) -> None:
    """Why the runs of this process are made (``textanon lab --why``); None: ``$TEXTANON_RUN_WHY`` or nothing."""
    global _why
    _why = text


def why() -> Optional[str]:
    """The why of this process's runs (:func:`set_why`, else ``$TEXTANON_RUN_WHY``), cut to :data:`WHY_CHARS`."""
    text = _why if _why is not None else os.environ.get(WHY_ENV)
    text = " ".join((text or "").split())
    return text[:WHY_CHARS] or None


def subcommand(words: Sequence[str]) -> Optional[str]:
    """The command a command line runs (``textanon [-q] [lab] COMMAND``), None when it is not textanon's."""
    words = list(words)
    if "textanon" not in words[:-1]:
        return None
    rest = [w for w in words[words.index("textanon") + 1 :] if w not in ("-q", "--quiet")]
    while rest[:1] == ["lab"] or rest[:1] and rest[0].startswith("--"):  # the lab group and its options
        rest = rest[2:] if rest[0] == "--why" else rest[1:]
    return rest[0] if rest else None


def data_inputs(command: str) -> List[Dict[str, str]]:
    """``[{"path", "split"}]``: the data files a command line names (positional arguments and option values that
    end in a data suffix or lie under a ``shared/data`` folder; outputs and ``--exclude`` values are not data),
    each ``evaluation`` (:data:`EVALUATION_FILES`, or :data:`EVALUATION_FOR_COMMAND` for this command) or ``dev``.
    Decided from the text of the command line, so a back-filled line gets the same answer as a live one."""
    try:
        words = shlex.split(command or "")
    except ValueError:
        return []
    name = subcommand(words)
    start = words.index(name) + 1 if name in words else len(words)
    special = EVALUATION_FOR_COMMAND.get(name or "")
    found, option = [], None
    for word in words[start:]:
        if word.startswith("-"):
            option, _, word = word.partition("=")
            if not word:
                continue  # the option's value (if it takes one) is the next word
        is_data = word.lower().endswith(DATA_SUFFIXES) or "shared/data" in word.replace(os.sep, "/")
        if is_data and not (option and NOT_DATA.search(option)):
            path = word.split("=", 1)[-1]  # NAME=PATH items (--anonymized a=FILE)
            evaluation = EVALUATION_FILES.search(path) or (special and special.search(path))
            found.append({"path": path, "split": "evaluation" if evaluation else "dev"})
        option = None
    return found


def rows_of(payload: dict) -> Optional[List[str]]:
    """The systems of the rows of a metrics payload (``{"rows": [{"system": ...}]}``), None without rows."""
    rows = payload.get("rows") if isinstance(payload, dict) else None
    if not isinstance(rows, list):
        return None
    return [str(r.get("system")) for r in rows if isinstance(r, dict) and "system" in r]


def log_path(root: Optional[Path] = None) -> Path:
    """``ROOT/metrics/runs.jsonl``."""
    return Path(root or ROOT) / "metrics" / LOG_NAME


def logged_output(path: Union[str, Path], root: Optional[Path] = None) -> Optional[str]:
    """``metrics/NAME`` when ``path`` is inside the checkout's ``metrics/`` folder (and it is a checkout: it has a
    ``project.yml``), else None (not logged). None too while pytest runs a test and ``root`` is the checkout of
    the library: a test never appends to the project's own log."""
    root = Path(root or ROOT).resolve()
    if not (root / "project.yml").exists():
        return None
    if os.environ.get("PYTEST_CURRENT_TEST") and root == _real_root():
        return None
    folder = root / "metrics"
    real = Path(os.path.realpath(path))
    if folder not in real.parents:
        return None
    return real.relative_to(root).as_posix()


def _real_root() -> Path:
    return Path(__file__).resolve().parents[2]


def read(path: Path) -> List[dict]:
    """The lines of a run log (none when it does not exist; a line that is not JSON is skipped)."""
    if not Path(path).exists():
        return []
    lines = []
    for text in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(line, dict):
            lines.append(line)
    return lines


def record(path: Union[str, Path], payload: dict, block: dict, root: Optional[Path] = None) -> Optional[dict]:
    """Log the metrics file ``path`` (``payload`` + its provenance ``block``) written by this process: a new line,
    or the output added to this process's line. Returns the line, None when ``path`` is not logged
    (:func:`logged_output`)."""
    output = logged_output(path, root)
    if output is None:
        return None
    log = log_path(root)
    lines = read(log)
    rows = rows_of(payload)
    if lines and lines[-1].get("run_id") == RUN_ID:
        line = lines[-1]
        line["outputs"] = sorted(set(line.get("outputs", [])) | {output})
        if rows is not None:
            line["rows"] = sorted(set(line.get("rows") or []) | set(rows))
    else:
        code = block.get("code") or {}
        inputs = data_inputs(block.get("command", ""))
        line = {
            "date": block.get("written_utc"),
            "commit": code.get("commit"),
            "dirty": code.get("dirty"),
            "command": block.get("command"),
            "data": inputs,
            "evaluation_data": any(d["split"] == "evaluation" for d in inputs),
            "rows": rows,
            "outputs": [output],
            "why": why(),
            "run_id": RUN_ID,
        }
        lines.append(line)
    write(log, lines)
    return line


def write(log: Path, lines: Iterable[dict]) -> None:
    """``log`` (JSON lines, atomically) and its table beside it (``.md``, :func:`markdown`)."""
    lines = list(lines)
    log.parent.mkdir(parents=True, exist_ok=True)
    tmp = log.with_name(f".{log.name}.{os.getpid()}.tmp")
    tmp.write_text("".join(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n" for x in lines), encoding="utf-8")
    tmp.replace(log)
    log.with_suffix(".md").write_text(markdown(lines), encoding="utf-8")


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(lines: Sequence[dict]) -> str:
    """The table of the run log, newest last (sorted by date; lines without a date first)."""
    out = [
        "# Evaluation runs",
        "",
        "Written by the commands (textanon_eval.run_log), never by hand: one line per run that wrote "
        "metrics/ (`textanon lab --why TEXT` says why). Back-filled lines (from the git history: "
        "`textanon lab run-log --from-git`) take the why from the commit message that added the file. "
        "Data: **eval** = evaluation data. The protocol: docs/protocol.md.",
        "",
        "| # | date (UTC) | commit | dirty | command | data | rows | outputs | why |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for i, line in enumerate(sorted(lines, key=lambda x: x.get("date") or ""), 1):
        data = ", ".join(
            ("**eval** " if d.get("split") == "evaluation" else "dev ") + Path(d.get("path", "")).name
            for d in line.get("data") or []
        )
        rows = line.get("rows")
        commit = (line.get("commit") or "?")[:10]
        dirty = {True: "yes", False: "no"}.get(line.get("dirty"), "?")
        name = subcommand(shlex.split(line["command"])) if line.get("command") else None
        why_text = (line.get("why") or "–") + (" (backfilled)" if line.get("backfilled") else "")
        out.append(
            f"| {i} | {_cell(line.get('date') or '?')} | {commit} | {dirty} | {_cell(name or '?')} | {_cell(data)} | "
            f"{len(rows) if rows is not None else '–'} | {_cell(', '.join(line.get('outputs') or []))} | "
            f"{_cell(why_text)} |"
        )
    return "\n".join(out) + "\n"


def key(line: dict) -> List[Tuple[str, Optional[str], Optional[str]]]:
    """The identities of a line, one per output: (output, commit of the code, command); a version of a file that
    records no commit is told apart by its date (when it was written, else when it was committed)."""
    commit = line.get("commit") or f"written {line.get('date')}"
    return [(o, commit, line.get("command")) for o in line.get("outputs") or []]


def merge(lines: Sequence[dict], new: Iterable[dict]) -> List[dict]:
    """``lines`` + the ``new`` lines none of whose identities (:func:`key`) is already there, sorted by date."""
    seen = {k for line in lines for k in key(line)}
    out = list(lines)
    for line in new:
        ids = key(line)
        if ids and not (set(ids) & seen):
            out.append(line)
            seen |= set(ids)
    return sorted(out, key=lambda x: x.get("date") or "")


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True, timeout=120
    ).stdout


def history(root: Path, folder: str = "metrics") -> List[Tuple[str, str, str, str]]:
    """``[(commit, commit date (UTC ISO), first line of its message, path)]``, oldest first: every
    ``FOLDER/*.json`` that a commit added or changed."""
    text = _git(
        root, "log", "--reverse", "--no-renames", "--diff-filter=AM", "--name-only",
        "--date=iso-strict", "--format=\x1e%H\x1f%cd\x1f%s", "--", f"{folder}/*.json",
    )  # fmt: skip
    out = []
    for block in text.split("\x1e")[1:]:
        head, _, names = block.partition("\n")
        commit, date, subject = (head.split("\x1f") + ["", ""])[:3]
        for name in names.split():
            if re.fullmatch(rf"{re.escape(folder)}/[^/]+\.json", name):
                out.append((commit, date, subject, name))
    return out


def _utc(date: str) -> str:
    try:
        return datetime.fromisoformat(date).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return date


def backfill(root: Path, warn: Callable[[str], None] = lambda _: None) -> List[dict]:
    """One line per version of a ``metrics/*.json`` file in the git history of ``root`` (:func:`history`): what its
    provenance block records (nulls for a file without one), its rows, ``why`` = the first line of the message
    of the commit that added the version (cut to :data:`WHY_CHARS`), ``added_in`` = that commit,
    ``"backfilled": true``. A version that is not JSON is skipped with a ``warn``ing."""
    lines = []
    for commit, date, subject, path in history(Path(root)):
        try:
            payload = json.loads(_git(Path(root), "show", f"{commit}:{path}"))
        except (subprocess.SubprocessError, json.JSONDecodeError):
            warn(f"{path} at {commit[:10]}: not readable as JSON, skipped")
            continue
        block = payload.get("provenance") if isinstance(payload, dict) else None
        block = block if isinstance(block, dict) else {}
        code = block.get("code") if isinstance(block.get("code"), dict) else {}
        inputs = data_inputs(block.get("command", "")) if block.get("command") else []
        lines.append(
            {
                "date": block.get("written_utc") or _utc(date),
                "commit": code.get("commit"),
                "dirty": code.get("dirty"),
                "command": block.get("command"),
                "data": inputs,
                "evaluation_data": any(d["split"] == "evaluation" for d in inputs),
                "rows": rows_of(payload),
                "outputs": [path],
                "why": " ".join(subject.split())[:WHY_CHARS] or None,
                "added_in": commit,
                "backfilled": True,
            }
        )
    return lines


def rebuild(root: Path, log: Optional[Path] = None, from_git: bool = True, warn=lambda _: None) -> List[dict]:
    """``log`` (default ``ROOT/metrics/runs.jsonl``) with the back-filled lines of ``root``'s history merged in
    (:func:`merge`; lines already there are kept) and its table written again. Returns the lines."""
    log = Path(log) if log else log_path(root)
    lines = read(log)
    if from_git:
        lines = merge(lines, backfill(root, warn))
    write(log, lines)
    return lines
