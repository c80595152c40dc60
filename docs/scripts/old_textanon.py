"""Run an old commit's ``textanon`` CLI (the code before the lab/library split) with today's virtual environment.

The installed ``textanon`` distribution registers today's entry points (``textanon.pipes...``); an old tree registers
its own in its ``pyproject.toml``. This shim serves the old tree's entry points instead of the installed textanon ones.
Used once, ad hoc, to regenerate issue 32's reference output (docs/generalization.md, "The issue's reference measured
again"): ``OLD_TREE=<worktree> PYTHONPATH=<worktree>/components:<this folder> python old_textanon.py <command> ...``
(run inside the worktree). Not part of the package; not imported by anything.
"""

import importlib
import os
import runpy
import sys

import catalogue
import tomllib

OLD = tomllib.load(open(os.path.join(os.environ.get("OLD_TREE", "."), "pyproject.toml"), "rb"))["project"][
    "entry-points"
]


def _load(value):
    mod, _, attr = value.partition(":")
    obj = importlib.import_module(mod)
    for a in attr.split("."):
        obj = getattr(obj, a)
    return obj


def filtered(self):
    out = {}
    for ep in catalogue.AVAILABLE_ENTRY_POINTS.get(self.entry_point_namespace, []):
        if ep.value.startswith("textanon"):
            continue
        out[ep.name] = ep.load()
    for name, value in OLD.get(self.entry_point_namespace, {}).items():
        out[name] = _load(value)
    return out


def filtered_one(self, name, default=None):
    old = OLD.get(self.entry_point_namespace, {})
    if name in old:
        return _load(old[name])
    for ep in catalogue.AVAILABLE_ENTRY_POINTS.get(self.entry_point_namespace, []):
        if ep.name == name and not ep.value.startswith("textanon"):
            return ep.load()
    return default


catalogue.Registry.get_entry_points = filtered
catalogue.Registry.get_entry_point = filtered_one
if __name__ == "__main__":
    sys.argv = ["textanon"] + sys.argv[1:]
    runpy.run_module("textanon", run_name="__main__")
