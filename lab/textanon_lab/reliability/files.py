"""File and mapping cases of the reliability suite (issue 27): the command line never destroys an input and never
restores the wrong text from a mapping.

Each scenario runs ``anonymize`` / ``deanonymize`` in subprocesses (the ordinary command line) in its own folder
and checks what is on disk afterwards: the input's bytes, which files exist, which texts came back. A scenario
passes when every check holds; the checks are named in the result, never with record text.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

TEXT_A = "The applicant, Mr Tomasz Wielgosz, was born on 4 May 1961 in Gdynia; his e-mail is t.wielgosz@example.org."
TEXT_B = "The applicant, Ms Oona Brackenridge, lives at 12 Mill Lane; her e-mail is oona.b@example.net."
KEY = "reliability suite key: correct horse battery staple\n"
TIMEOUT_S = 300


class Scenario:
    """Runs the command line in ``folder`` with ``model``; records each check."""

    def __init__(self, folder: Path, model: Path):
        self.folder, self.model = folder, model
        self.checks: Dict[str, bool] = {}
        self.exit_codes: List[int] = []
        folder.mkdir(parents=True, exist_ok=True)
        self.key = folder / "mapping.key"
        self.key.write_text(KEY, encoding="utf8")
        os.chmod(self.key, 0o600)

    def write_jsonl(self, name: str, records: List[dict]) -> Path:
        path = self.folder / name
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
        return path

    def run(self, *args: str) -> int:
        env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
        env.pop("TEXTANON_MAPPING_KEY", None)  # the key files of the scenario only
        proc = subprocess.run(
            [sys.executable, "-m", "textanon", *args],
            cwd=self.folder,
            capture_output=True,
            timeout=TIMEOUT_S,
            env=env,
        )
        self.exit_codes.append(proc.returncode)
        return proc.returncode

    def anonymize(self, source: Path, output: Path, *extra: str) -> int:
        return self.run("anonymize", str(source), "-o", str(output), "--model", str(self.model), *extra)

    def check(self, name: str, ok: bool) -> None:
        self.checks[name] = bool(ok)


def _texts(path: Path) -> List[Optional[str]]:
    """The ``text`` of every record of a deanonymized file (``None`` for an error record)."""
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]
    return [r.get("text") if "error" not in r else None for r in rows]


def output_is_input(s: Scenario) -> None:
    """``anonymize X -o X`` is refused before X is opened: X keeps its bytes."""
    src = s.write_jsonl("in.jsonl", [{"id": "a", "text": TEXT_A}])
    before = src.read_bytes()
    s.check("refused", s.anonymize(src, src) != 0)
    s.check("input intact", src.read_bytes() == before)


def output_links_to_input(s: Scenario) -> None:
    """An output that is a symbolic link to the input, and one that is a hard link, are refused."""
    src = s.write_jsonl("in.jsonl", [{"id": "a", "text": TEXT_A}])
    before = src.read_bytes()
    (s.folder / "soft.jsonl").symlink_to(src)
    os.link(src, s.folder / "hard.jsonl")
    s.check("symbolic link refused", s.anonymize(src, s.folder / "soft.jsonl") != 0)
    s.check("hard link refused", s.anonymize(src, s.folder / "hard.jsonl") != 0)
    s.check("input intact", src.read_bytes() == before)


def mapping_out_is_output(s: Scenario) -> None:
    """``--mapping-out`` equal to ``-o`` is refused; nothing is written."""
    src = s.write_jsonl("in.jsonl", [{"id": "a", "text": TEXT_A}])
    out = s.folder / "out.jsonl"
    s.check("refused", s.anonymize(src, out, "--mapping-out", str(out), "--key-file", str(s.key)) != 0)
    s.check("nothing written", not out.exists())


def deanonymize_output_is_input(s: Scenario) -> None:
    """``deanonymize Y -o Y`` is refused: Y keeps its bytes."""
    src = s.write_jsonl("in.jsonl", [{"id": "a", "text": TEXT_A}])
    out, mapping = s.folder / "out.jsonl", s.folder / "run.mapping"
    s.check("anonymized", s.anonymize(src, out, "--mapping-out", str(mapping), "--key-file", str(s.key)) == 0)
    before = out.read_bytes() if out.exists() else b""
    code = s.run("deanonymize", str(out), "-o", str(out), "--mapping", str(mapping), "--key-file", str(s.key))
    s.check("refused", code != 0)
    s.check("input intact", out.exists() and out.read_bytes() == before)


def ids_collide_across_runs(s: Scenario) -> None:
    """Two runs with the same record id (``--mapping-in``): each output gets its own text back, never the other's;
    an output whose text was changed is refused."""
    a, b = s.write_jsonl("a.jsonl", [{"text": TEXT_A}]), s.write_jsonl("b.jsonl", [{"text": TEXT_B}])
    out_a, out_b = s.folder / "out_a.jsonl", s.folder / "out_b.jsonl"
    map_a, map_ab = s.folder / "a.mapping", s.folder / "ab.mapping"
    key = ["--key-file", str(s.key)]
    s.check("run 1", s.anonymize(a, out_a, "--mapping-out", str(map_a), *key) == 0)
    s.check("run 2", s.anonymize(b, out_b, "--mapping-in", str(map_a), "--mapping-out", str(map_ab), *key) == 0)
    for name, out, text in (("a", out_a, TEXT_A), ("b", out_b, TEXT_B)):
        restored = s.folder / f"restored_{name}.jsonl"
        s.run("deanonymize", str(out), "-o", str(restored), "--mapping", str(map_ab), *key)
        s.check(f"output {name} restores its own text", _texts(restored) == [text])
    changed = s.folder / "changed.jsonl"
    row = json.loads(out_a.read_text(encoding="utf8").splitlines()[0])
    row["anonymized_text"] = row.get("anonymized_text", "") + " (edited)"
    changed.write_text(json.dumps(row) + "\n", encoding="utf8")
    restored = s.folder / "restored_changed.jsonl"
    code = s.run("deanonymize", str(changed), "-o", str(restored), "--mapping", str(map_ab), *key)
    s.check("changed output refused", code != 0 and _texts(restored) == [None])


def error_record_keeps_valid_document(s: Scenario) -> None:
    """A bad record followed by a valid one with the same id: the valid document stays in the mapping."""
    src = s.write_jsonl("in.jsonl", [{"id": "x", "text": 12}, {"id": "x", "text": TEXT_A}])
    out, mapping, restored = s.folder / "out.jsonl", s.folder / "run.mapping", s.folder / "restored.jsonl"
    key = ["--key-file", str(s.key)]
    s.check("anonymized", s.anonymize(src, out, "--mapping-out", str(mapping), *key) == 0)
    s.run("deanonymize", str(out), "-o", str(restored), "--mapping", str(mapping), *key)
    s.check("valid document restored", TEXT_A in _texts(restored))


def plain_mapping_with_key(s: Scenario) -> None:
    """A plain-text mapping is refused when a key is given, and without the explicit flag."""
    src = s.write_jsonl("in.jsonl", [{"id": "a", "text": TEXT_A}])
    out, mapping = s.folder / "out.jsonl", s.folder / "plain.mapping"
    s.check("written", s.anonymize(src, out, "--mapping-out", str(mapping), "--mapping-unencrypted") == 0)
    restored = s.folder / "restored.jsonl"
    with_key = s.run("deanonymize", str(out), "-o", str(restored), "--mapping", str(mapping), "--key-file", str(s.key))
    s.check("refused with a key", with_key != 0 and TEXT_A not in _texts(restored))
    no_flag = s.run("deanonymize", str(out), "-o", str(s.folder / "r2.jsonl"), "--mapping", str(mapping))
    s.check("refused without the flag", no_flag != 0)


def files_hold_originals_owner_only(s: Scenario) -> None:
    """The mapping and the deanonymized output are created readable by their owner only."""
    src = s.write_jsonl("in.jsonl", [{"id": "a", "text": TEXT_A}])
    out, mapping, restored = s.folder / "out.jsonl", s.folder / "run.mapping", s.folder / "restored.jsonl"
    key = ["--key-file", str(s.key)]
    s.anonymize(src, out, "--mapping-out", str(mapping), *key)
    s.run("deanonymize", str(out), "-o", str(restored), "--mapping", str(mapping), *key)
    for name, path in (("mapping", mapping), ("deanonymized output", restored)):
        s.check(f"{name} 0600", path.exists() and (path.stat().st_mode & 0o077) == 0)


SCENARIOS: Dict[str, Callable[[Scenario], None]] = {
    "output_is_input": output_is_input,
    "output_links_to_input": output_links_to_input,
    "mapping_out_is_output": mapping_out_is_output,
    "deanonymize_output_is_input": deanonymize_output_is_input,
    "ids_collide_across_runs": ids_collide_across_runs,
    "error_record_keeps_valid_document": error_record_keeps_valid_document,
    "plain_mapping_with_key": plain_mapping_with_key,
    "files_hold_originals_owner_only": files_hold_originals_owner_only,
}


def run_scenario(name: str, model: Path, workdir: Path) -> dict:
    """One scenario in ``workdir/files-<name>``: its checks, exit codes, seconds and pass."""
    scenario = Scenario(workdir / f"files-{name}", model)
    fn = SCENARIOS[name]
    start = time.perf_counter()
    error = None
    try:
        fn(scenario)
    except (OSError, subprocess.SubprocessError, ValueError) as err:  # a crash or time-out fails the scenario
        error = type(err).__name__
    return {
        "case": name,
        "group": "files",
        "description": (fn.__doc__ or "").strip().split("\n")[0],
        "checks": scenario.checks,
        "exit_codes": scenario.exit_codes,
        "error": error,
        "seconds": round(time.perf_counter() - start, 1),
        "pass": error is None and bool(scenario.checks) and all(scenario.checks.values()),
    }
