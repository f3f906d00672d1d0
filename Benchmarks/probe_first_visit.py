#!/usr/bin/env python3
"""Where a website's first visit spends its time before the notice is visible: one line per visit,
in ms from the publisher page's navigation, for the page of `bench_notice_web.measure_first_visit`
(a publisher's page on another loopback origin than consentd, a new browser context per visit).

  stub / cmp        stub.js and cmp.js: request start - response end (the page's Resource Timing)
  session           POST /v1/web/session: start - end
  frame             notice.html in the page's Resource Timing: start - response end
  f.start           the notice frame's document: its time origin (the renderer began its navigation)
  f.resp            the frame's HTML fully received (its Navigation Timing)
  f.init            the probe's init script ran in the frame (its document began)
  started           the page heard `started`
  f.configure       the frame received `configure` (the document)
  f.dcl             the frame's DOMContentLoaded
  render            the notice's render: start - end (configure() to `ready` posted)
  ready             the page heard `ready`
  visible           the bench's "visible" (a frame after `ready`)

Frame times are moved onto the page's clock through performance.timeOrigin. An init script in
every frame records the marks; nothing of the product changes.

On loopback the publisher page (127.0.0.1) and consentd (127.0.0.1, another port) are one site,
so Chromium runs the notice frame in the page's renderer, on its main thread; `--host localhost`
serves the page from another site. A trace (`--trace`) holds that thread's tasks with their CPU
time (`tdur`), which a busy machine stretches less than their wall time.

Usage: python3 Benchmarks/probe_first_visit.py [--runs 5] [--vendors 20|813] [--host H] [--trace FILE]
(CONSENTD_BIN and CONSENT_BIN as for the bench.)
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "notice"))
sys.path.insert(0, str(ROOT / "Benchmarks"))
import notice_support as ns  # noqa: E402
import bench_notice_web as bench  # noqa: E402

# In every document: its time origin, when the init script ran (document start), when it first
# heard each protocol message, and what the notice posted (its consentkit:message events).
INIT = """(() => {
  const marks = window.__probe = { origin: performance.timeOrigin, heard: {}, posted: {} };
  addEventListener('message', (e) => { const m = e.data; if (m && m.protocol === 1 && !(m.type in marks.heard)) marks.heard[m.type] = performance.now(); }, true);
  addEventListener('consentkit:message', (e) => { const m = e.detail; if (m && !(m.type in marks.posted)) marks.posted[m.type] = performance.now(); });
  marks.init = performance.now();
  addEventListener('DOMContentLoaded', () => { marks.dcl = performance.now(); });
})();"""


def setup(vendors: str, host: str = "127.0.0.1"):
    vendor_ids = sorted(v["id"] for v in ns.live_vendors())
    ids = vendor_ids[:20] if vendors == "20" else vendor_ids
    folder = pathlib.Path(tempfile.mkdtemp(prefix="probe-first-visit-"))
    (folder / "publishers.yaml").write_text(
        f"publishers:\n  - id: pub\n    name: Publisher\n    vendorIds: {ids}\n"
        "websites:\n  - appId: bench\n    name: News\n    privacyPolicyUrl: https://news.example.com/privacy\n    publisherIds: [pub]\n",
        encoding="utf-8")
    server = ns.Consentd("--publishers", str(folder / "publishers.yaml"))
    consent = ns.built_binary("CONSENT_BIN", "Server", "consent")
    key = subprocess.run([consent, "keys", "create", "--app", "bench", "--kind", "publishable",
                          "--database", f"sqlite:{server.folder}/consentd.sqlite"], capture_output=True, text=True, check=True).stdout.strip()
    pages = ns.ResourceServer()
    pages.pages["/news.html"] = bench.PUBLISHER_PAGE.replace("CONSENTD", server.url).replace("KEY", key)
    return server, f"{pages.url}/news.html".replace("127.0.0.1", host)


def visit(browser, url: str, trace: str | None) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(INIT)
    try:
        page = context.new_page()
        if trace:
            browser.start_tracing(page=page, path=trace, categories=[
                "devtools.timeline", "v8", "v8.execute", "blink", "loading", "toplevel", "disabled-by-default-devtools.timeline"])
        bench.visit_until_visible(page, url)
        if trace:
            browser.stop_tracing()
        top = page.evaluate("""() => ({ probe: window.__probe, visible: window.benchVisible,
            resources: performance.getEntriesByType('resource').map(r => ({ name: r.name, type: r.initiatorType, start: r.startTime, end: r.responseEnd })) })""")
        frame = next(f for f in page.frames if f.url.endswith("/notice/notice.html"))
        inner = frame.evaluate("""() => ({ probe: window.__probe, metrics: window.ConsentKitNotice.metrics,
            nav: performance.getEntriesByType('navigation').map(n => ({ responseStart: n.responseStart, responseEnd: n.responseEnd, dcl: n.domContentLoadedEventStart })) [0] })""")
    finally:
        context.close()
    shift = inner["probe"]["origin"] - top["probe"]["origin"]
    f = lambda t: None if t is None else round(t + shift, 1)  # noqa: E731
    res = lambda part: next((r for r in top["resources"] if part in r["name"]), None)  # noqa: E731
    span = lambda r: f"{r['start']:.0f}-{r['end']:.0f}" if r else "-"  # noqa: E731
    configure_at = inner["probe"]["heard"].get("configure")
    ready_posted = inner["probe"]["posted"].get("ready")
    render_ms = inner["metrics"].get("renderMs")
    return {
        "stub": span(res("/cmp/stub.js")), "cmp": span(res("/cmp/cmp.js")), "session": span(res("/v1/web/session")),
        "frame": span(res("/notice/notice.html")),
        "f.start": round(shift, 1), "f.resp": f(inner["nav"]["responseEnd"]), "f.init": f(inner["probe"].get("init")),
        "started": round(top["probe"]["heard"].get("started", -1), 1), "f.configure": f(configure_at), "f.dcl": f(inner["probe"].get("dcl")),
        "render": f"{f(ready_posted - render_ms):.0f}-{f(ready_posted):.0f}" if ready_posted and render_ms is not None else "-",
        "renderMs": render_ms,
        "ready": round(top["probe"]["heard"].get("ready", -1), 1), "visible": round(top["visible"], 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vendors", default="20", choices=["20", "813"])
    parser.add_argument("--host", default="127.0.0.1", help="the publisher page's host: localhost makes it another site than consentd's 127.0.0.1 (its own renderer process)")
    parser.add_argument("--trace", help="write a Chrome trace of the last visit here (the first one also traces the browser's own start)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server, url = setup(args.vendors, args.host)
    try:
        with sync_playwright() as p:
            browser = ns.launch(p)
            try:
                rows = [visit(browser, url, args.trace if i == args.runs - 1 else None) for i in range(args.runs)]
            finally:
                browser.close()
    finally:
        server.stop()
    for row in rows:
        print(json.dumps(row))
    numeric = [k for k, v in rows[0].items() if isinstance(v, (int, float))]
    print("medians:", json.dumps({k: round(statistics.median(r[k] for r in rows), 1) for k in numeric}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
