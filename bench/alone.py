#!/usr/bin/env python3
"""What the phone alone costs (issue 32), measured in Debian's Chromium at 360 × 740:

    .venv/bin/python bench/alone.py [--rounds 12]

It serves the app on 127.0.0.1 over a temporary database, counts every byte it sends, and
drives one phone: two page views (the second gets ready to score offline), then, with the
server stopped, a Rami match for three started from the new-match page and --rounds rounds
recorded. It prints the bytes fetched to get ready, the cold start of the phone's scorers
(page open to the first form drawn), each round's time from Record to the round scored, kept
and drawn, as the page measures it (the first, then the median and slowest of the others),
and, as the floor measured in the same run, the server's own time to read and score one
round of that match (its round form and a replay, in this process). The budgets are issue
32's: ≤ 7 MB fetched once, a round ≤ 50 ms after the first, a cold start ≤ 5 s. Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from phone import match as phone_match  # noqa: E402

HANDS = "outcome=out&winner=Ana&hands-1-points=2&hands-1-melded=y&hands-2-points=3&hands-2-melded=y"


class Counted:
    """The app, counting the bytes of every answer it sends."""

    def __init__(self, app: object) -> None:
        self.app, self.sent = app, 0

    def __call__(self, environ: dict, start_response: object) -> object:
        for chunk in self.app(environ, start_response):
            self.sent += len(chunk)
            yield chunk


def floor(rounds: int) -> float:
    """Time the server's own Python reading and scoring one round of a match of `rounds`."""
    kept = {"data": {"game": "rami", "players": ["Ana", "Bo", "Cy"], "options": {}}, "rounds": []}
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        read = phone_match.read_round(kept, HANDS + "&sure=1")
        kept["rounds"].append({"input": read.entered})
        phone_match.scored(kept)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app({"DATABASE": str(folder / "bench.sqlite"), "SECRET_KEY": "bench"})
    counted = Counted(app.wsgi_app)
    app.wsgi_app = counted
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        page = browser.new_context(
            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
        ).new_page()
        page.goto(base + "/")
        first_page = counted.sent
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        page.wait_for_selector("#alone-ready[data-state=ready]", timeout=180_000)
        ready = counted.sent - first_page
        server.shutdown()
        server.server_close()
        page.goto(base + "/matches/new/rami")
        for seat, name in enumerate(("Ana", "Bo", "Cy")):
            page.locator("input[name^=players-]").nth(seat).fill(name)
        started = time.perf_counter()
        page.locator("form button[type=submit].primary").last.click()
        page.wait_for_selector("form.round-form", timeout=60_000)
        cold = time.perf_counter() - started
        rounds = []
        for n in range(1, args.rounds + 1):
            page.locator("form.round-form fieldset").nth(1).locator("label.choice").first.click()
            for seat, points in ((1, 2), (2, 3)):
                page.fill(f"input[name='hands-{seat}-points']", str(points))
                page.locator(f"#hand-{seat} .melded label.choice").first.click()
            started = time.perf_counter()
            page.locator("form.round-form .actions button.primary").click()
            page.wait_for_function(
                "n => document.querySelectorAll('tbody.round').length === n", arg=n
            )
            rounds.append(time.perf_counter() - started)
        scored = page.evaluate(
            "performance.getEntriesByName('phone-round', 'measure').map((m) => m.duration / 1000)"
        )
        browser.close()
    base_floor = floor(args.rounds)
    later = scored[1:]
    print(
        f"fetched to get ready (once): {ready / 1e6:.2f} MB (budget 7 MB); "
        f"first page: {first_page / 1e3:.1f} KB"
    )
    print(f"cold start of the phone's scorers: {cold:.2f} s (budget 5 s)")
    print(
        f"a round, from the page's Record to the round scored, kept and drawn (performance "
        f"measures): first {scored[0] * 1000:.0f} ms, then median "
        f"{statistics.median(later) * 1000:.0f} ms, slowest {max(later) * 1000:.0f} ms "
        "(budget 50 ms)"
    )
    print(
        f"the same seen from outside (tap to page drawn, with the test driver's own delay): "
        f"median {statistics.median(rounds[1:]) * 1000:.0f} ms"
    )
    print(
        f"floor, the server's Python reading and scoring a round: {base_floor * 1000:.1f} ms; "
        f"ratio of the phone's median: {statistics.median(later) / base_floor:.1f}×"
    )


if __name__ == "__main__":
    main()
