"""WikiActors TRIR benchmark: run the attack, compare with the published TRIR, write JSON + markdown.

``python -m textanon_lab.benchmarks.trir DATA --output metrics/x.json --markdown metrics/x.md``
"""

import argparse
import json
from pathlib import Path
from typing import Optional, Sequence

from textanon_eval.provenance import write_metrics
from textanon_eval.trir.attack import TrirSettings, run_trir
from textanon_eval.trir.data import load_wikiactors
from textanon_eval.trir.published import PUBLISHED_50_EVAL, compare, markdown

#: TrirSettings fields given as ``--name`` options (default: the dataclass's), with their type
SETTING_OPTIONS = (
    ("epochs", int),
    ("patience", int),
    ("window", int),
    ("overlap", int),
    ("batch_size", int),
    ("lr", float),
    ("pretrain_epochs", int),
    ("seed", int),
    ("max_bk_chars", int),
    ("device", str),
)


def parser() -> argparse.ArgumentParser:
    """The script's options: the data, outputs, cache, model and the :data:`SETTING_OPTIONS`."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("data")
    p.add_argument("--output", required=True)
    p.add_argument("--markdown")
    p.add_argument("--title", default="TRIR on WikiActors")
    p.add_argument("--published", choices=["50_eval", "none"], default="50_eval")
    p.add_argument("--cache-dir")
    p.add_argument("--model")
    p.add_argument("--model-label", help="How to name the model in the report (default: --model)")
    p.add_argument("--threads", type=int)
    p.add_argument("--pretreat-only", action="store_true")
    p.add_argument("--quiet", action="store_true")
    for name, typ in SETTING_OPTIONS:
        p.add_argument("--" + name.replace("_", "-"), type=typ, default=getattr(TrirSettings, name))
    p.add_argument("--keep-mask-marks", action="store_true")
    p.add_argument("--no-dev", action="store_true", help="No dev set: keep the last epoch")
    p.add_argument("--no-monitor", action="store_true", help="Do not score every method after each epoch")
    return p


def settings_of(args: argparse.Namespace) -> TrirSettings:
    """The attack settings of parsed :func:`parser` arguments."""
    return TrirSettings(
        model=args.model,
        **{name: getattr(args, name) for name, _ in SETTING_OPTIONS},
        keep_mask_marks=args.keep_mask_marks,
        monitor=not args.no_monitor,
        use_dev=not args.no_dev,
    )


def main(argv: Optional[Sequence[str]] = None) -> dict:
    """Command line: run the attack on ``data``, write the JSON (and markdown) report; returns the result."""
    a = parser().parse_args(argv)
    settings = settings_of(a)
    inputs = load_wikiactors(a.data, max_bk_chars=a.max_bk_chars)
    result = run_trir(
        inputs,
        settings,
        Path(a.cache_dir) if a.cache_dir else None,
        progress=not a.quiet,
        threads=a.threads,
        pretreat_only=a.pretreat_only,
    )
    if a.pretreat_only:
        print(json.dumps(result))
        return result
    published = PUBLISHED_50_EVAL if a.published == "50_eval" else None
    result["settings"]["model_label"] = a.model_label or result["settings"]["model"]
    result["settings"]["data"] = Path(a.data).name
    if published:
        result["published"] = published
        result["comparison"] = compare(result["trir"], published)

    write_metrics(a.output, result)
    if a.markdown:
        Path(a.markdown).write_text(markdown(result, a.title, published), encoding="utf-8")
    print(
        json.dumps({"trir": result["trir"], "comparison": result.get("comparison"), "timings_s": result["timings_s"]})
    )
    return result


if __name__ == "__main__":
    main()
