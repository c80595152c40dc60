"""Smoke test run by .ci/check_wheel.sh after it installs the evaluators' wheel (textanon-eval) into the same fresh
venv: the evaluator imports, its commands join the ``textanon`` command line, and TAB's metrics score a masking."""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import textanon_eval.tab_metrics as tab

help_text = subprocess.run(
    [sys.executable, "-m", "textanon", "--help"], capture_output=True, text=True, check=True
).stdout
missing = [c for c in ("evaluate-tab", "evaluate-trir", "evaluate-nmi") if c not in help_text]
commands = help_text.split("Commands:")[-1]  # the command list, after the description
if missing or re.search(r"^\s+lab\s", commands, re.M):  # the lab is in no wheel
    raise SystemExit(f"FAIL: the evaluators' commands are not all there ({missing}) or the lab is")
text = "Mr Ion Rusu was born in 1970."
gold = [
    {
        "doc_id": "d1",
        "text": text,
        "annotations": {
            "a1": {
                "entity_mentions": [
                    {
                        "entity_type": "PERSON",
                        "entity_mention_id": "d1_em1",
                        "start_offset": 3,
                        "end_offset": 11,
                        "span_text": "Ion Rusu",
                        "edit_type": "check",
                        "identifier_type": "DIRECT",
                        "entity_id": "d1_e1",
                    },
                ]
            }
        },
    }
]
with tempfile.TemporaryDirectory() as folder:
    gold_path = Path(folder) / "gold.json"
    gold_path.write_text(json.dumps(gold))
    masks_path = Path(folder) / "masks.json"
    masks_path.write_text(json.dumps({"d1": [[3, 11]]}))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "textanon",
            "evaluate-tab",
            str(gold_path),
            str(masks_path),
            "-o",
            str(Path(folder) / "tab.json"),
        ],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"FAIL: textanon evaluate-tab exited {out.returncode}: {out.stderr[-500:]}")
print(f"OK: textanon-eval installed beside textanon; evaluate-tab scored a masking ({tab.__name__})")
