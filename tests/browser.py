"""A real headless browser with the network unreachable: Debian's chromium driven by Playwright.

Playwright never downloads a browser here: it drives the system's chromium through
``executable_path`` (``POSTING_CHROMIUM`` overrides ``/usr/bin/chromium``). Every request that
is not for a ``file:`` or ``data:`` URL is aborted, as on a laptop with no signal, and each page
records its failed requests, script errors and console errors.

Used by the browser tests and by ``scripts/screenshot``. In CI (``POSTING_REQUIRE_BROWSER=1``,
set by ``.ci/run``) a missing browser fails the tests instead of skipping them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TILE_HOSTS = ("tile.openstreetmap.org",)


def chromium_path() -> str | None:
    """The chromium binary to drive, or None when there is none."""
    path = os.environ.get("POSTING_CHROMIUM") or "/usr/bin/chromium"
    if os.path.exists(path):
        return path
    return shutil.which("chromium")


@dataclass
class Loaded:
    """A page that was opened, with what went wrong while it loaded."""

    page: Any
    load_s: float
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def failed_except_tiles(self) -> list[str]:
        return [u for u in self.failed if not any(h in u for h in TILE_HOSTS)]

    def count(self, selector: str) -> int:
        return self.page.locator(selector).count()


class Browser:
    """One offline chromium; :meth:`open` loads a local HTML file in a new page."""

    def __init__(self, context: Any) -> None:
        self.context = context

    def open(
        self, path: str | Path, *, width: int = 1400, height: int = 900, timeout_s: float = 120
    ) -> Loaded:
        """Open a local file and wait until it is drawn: its scripts have run ("load"), the
        frame after them has been painted and the tasks that frame queued have run.

        ``load_s`` is that time, from the start of navigation.
        """
        page = self.context.new_page()
        page.set_default_timeout(timeout_s * 1000)
        page.set_viewport_size({"width": width, "height": height})
        loaded = Loaded(page, 0.0)
        page.on("request", lambda r: loaded.requests.append(r.url))
        page.on("requestfailed", lambda r: loaded.failed.append(r.url))
        page.on("pageerror", lambda e: loaded.errors.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: (
                loaded.errors.append(f"console: {m.text}")
                if m.type == "error" and "net::ERR_FAILED" not in m.text
                else None
            ),
        )
        start = time.perf_counter()
        page.goto(Path(path).resolve().as_uri(), wait_until="load")
        # the page's scripts run before "load"; Leaflet's canvas draws in the next frame, and
        # what that frame queued (labels placed once the layers are drawn) runs right after it
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
        loaded.load_s = time.perf_counter() - start
        return loaded

    @contextmanager
    def opened(self, path: str | Path, html: str | None = None, **kw: Any) -> Iterator[Loaded]:
        """:meth:`open` as a context: ``html`` written to ``path`` first when given, the page
        closed at the end (``kw``: :meth:`open`'s size and time-out)."""
        if html is not None:
            Path(path).write_text(html, encoding="utf-8")
        loaded = self.open(path, **kw)
        try:
            yield loaded
        finally:
            loaded.page.close()


def _offline(route: Any) -> None:
    if route.request.url.startswith(("file:", "data:")):
        route.continue_()
    else:
        route.abort()


@contextmanager
def offline_browser() -> Iterator[Browser]:
    """Chromium with an empty profile and every non-file request aborted."""
    from playwright.sync_api import sync_playwright

    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no chromium: apt-get install chromium (or set POSTING_CHROMIUM)")
    with tempfile.TemporaryDirectory(prefix="posting-chromium-") as profile:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=exe,
                args=CHROMIUM_FLAGS,
                headless=True,
                service_workers="block",
            )
            context.route("**/*", _offline)
            try:
                yield Browser(context)
            finally:
                context.close()
