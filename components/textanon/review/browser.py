"""Headless Chromium on report pages: the DOM after the page's script ran, and screenshots.

Uses the ``chromium`` executable (Debian package ``chromium``; ``make debian-deps`` installs it) through its
command line: ``--dump-dom`` prints the DOM once the page has loaded, ``--screenshot`` writes a PNG. Each run
gets a fresh temporary profile, so runs never share state. The pages are local files: nothing is fetched.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple, Union

#: executables tried in order (Debian: chromium; other systems: chromium-browser, google-chrome)
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserError(RuntimeError):
    """The browser could not be run, or did not produce its output."""


def find_browser() -> Optional[str]:
    """Path of a Chromium-family executable (``TEXTANON_BROWSER`` first), or None if none is installed."""
    for name in (os.environ.get("TEXTANON_BROWSER"), *BROWSERS):
        path = shutil.which(name) if name else None
        if path:
            return path
    return None


def dump_dom(page: Union[str, Path], fragment: str = "", timeout: float = 120.0) -> str:
    """The DOM of ``page`` (a local HTML file; ``fragment``: ``#...`` appended to its URL) after it loaded and
    its scripts ran, as HTML."""
    return _run(["--dump-dom", _url(page, fragment)], timeout).stdout


def screenshot(
    page: Union[str, Path],
    out: Union[str, Path],
    size: Tuple[int, int] = (1280, 900),
    fragment: str = "",
    timeout: float = 120.0,
) -> Path:
    """Write a PNG screenshot of ``page`` (``size``: window width and height in pixels) to ``out``."""
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():
        out.unlink()
    _run(
        [f"--screenshot={out}", f"--window-size={size[0]},{size[1]}", "--hide-scrollbars", _url(page, fragment)],
        timeout,
    )
    if not out.is_file() or out.stat().st_size == 0:
        raise BrowserError(f"the browser wrote no screenshot to {out}")
    return out


def _url(page: Union[str, Path], fragment: str) -> str:
    return Path(page).resolve().as_uri() + fragment


def _run(args: List[str], timeout: float) -> subprocess.CompletedProcess:
    browser = find_browser()
    if browser is None:
        raise BrowserError("no Chromium browser installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="textanon-browser-") as profile:
        cmd = [
            browser,
            "--headless",
            "--no-sandbox",  # root in containers has no user namespaces for the sandbox
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--disable-background-networking",
            f"--user-data-dir={profile}",
            *args,
        ]
        try:
            result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise BrowserError(f"the browser did not run ({type(err).__name__})") from err
    if result.returncode != 0:
        raise BrowserError(f"the browser exited with status {result.returncode}")
    return result


def main(argv: Optional[List[str]] = None) -> None:
    """``python -m textanon.review.browser PAGE[#FRAGMENT] OUT.png [WIDTH HEIGHT]``: a screenshot of a report
    page (``#panel=N`` opens the details of span N)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 4):
        raise SystemExit("usage: python -m textanon.review.browser PAGE[#FRAGMENT] OUT.png [WIDTH HEIGHT]")
    page, _, fragment = args[0].partition("#")
    size = (int(args[2]), int(args[3])) if len(args) == 4 else (1280, 900)
    print(screenshot(page, args[1], size=size, fragment=f"#{fragment}" if fragment else ""))


if __name__ == "__main__":
    main()
