"""Test pipelines that Ray workers load (``textanon.run.scale.ray_engine``), and that the runner's tests build: a
worker process imports this module by name, so its components and loaders live on the helpers path, not in a test
module."""

import functools
import os
import signal
from pathlib import Path

import spacy
from spacy.language import Language

import textanon  # noqa: F401  (extensions)

#: a file whose presence makes ``test_ray_kill_once`` kill its worker (once: it deletes the file first)
KILL_FLAG_ENV = "TEXTANON_TEST_KILL_FLAG"


@Language.component("test_ray_boom")
def boom(doc):
    """Raises (with the text in the message, which must never reach an output or a log) on documents with BOOM."""
    if "BOOM" in doc.text:
        raise RuntimeError("secret text must not appear: " + doc.text)
    return doc


@Language.component("test_ray_kill_once")
def kill_once(doc):
    """SIGKILLs its own (worker) process on a document with KILL while the flag file exists, deleting it first:
    the first worker to meet such a document dies, the retry goes through."""
    flag = os.environ.get(KILL_FLAG_ENV)
    if "KILL" in doc.text and flag and Path(flag).exists():
        Path(flag).unlink()
        os.kill(os.getpid(), signal.SIGKILL)
    return doc


@Language.component("test_ray_kill_always")
def kill_always(doc):
    """SIGKILLs its own (worker) process on every document with POISON (a document that kills every worker)."""
    if "POISON" in doc.text and os.environ.get("TEXTANON_TEST_IN_DRIVER") != str(os.getpid()):
        os.kill(os.getpid(), signal.SIGKILL)
    return doc


@Language.component("test_ray_mask_digits")
def mask_digits(doc):
    """Masks every digit (``#``): an output that depends on the text, to compare engines."""
    doc._.masks = [[i, i + 1, "#"] for i, ch in enumerate(doc.text) if ch.isdigit()]
    doc._.anonymized_text = "".join("#" if ch.isdigit() else ch for ch in doc.text)
    return doc


def build(*names: str) -> Language:
    """A blank English pipeline with the components ``names``, in order (also what the runner tests run)."""
    nlp = spacy.blank("en")
    for name in names:
        nlp.add_pipe(name)
    return nlp


def loader(*names: str) -> functools.partial:
    """A picklable loader (what ``ray_anonymize_records`` takes) of a blank English pipeline with ``names``."""
    return functools.partial(build, *names)
