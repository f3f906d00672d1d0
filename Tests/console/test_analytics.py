"""The console's analytics page (page-analytics.js) over the events conftest seeds (console_support.SEED):
each chart's table holds the seeded counts, and equals the CSV its download link fetches; the
charts are SVG images with a title and a description; axe, keyboard and screenshots. Each test
runs in Chromium and WebKit."""
import collections
import math
import urllib.parse

import pytest

import console_support as cs

pytestmark = pytest.mark.consentd

OUTCOME = {"acceptAll": "acceptAll", "rejectAll": "rejectAll", "custom": "custom", "dismissed": "closed", "withdrawal": "withdrawn"}
OUTCOME_COLUMNS = ["acceptAll", "rejectAll", "custom", "closed", "withdrawn"]
PATH = f"#/analytics?app={cs.APP}&from={cs.RANGE['from']}&to={cs.RANGE['to']}"


def expected_choices(key):
    """{group: Counter(outcome)} of the seeded events of APP, grouped by `key` of the seed tuple."""
    groups = collections.defaultdict(collections.Counter)
    for event in cs.SEED:
        groups[key(event)][OUTCOME[event[7]]] += 1
    return groups


def percent(rate):
    """As the page writes a rate: a percentage to one place, rounded half up."""
    return f"{math.floor(float(rate) * 1000 + 0.5) / 10:.1f} %"


def csv_of(page, section):
    """The CSV the card's download link fetches, parsed."""
    href = page.evaluate("""(t) => [...document.querySelectorAll('section.card')]
        .find((c) => c.querySelector('h2').textContent === t).querySelector('a[download]').getAttribute('href')""", section)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
    assert query["app"] == [cs.APP] and query["format"] == ["csv"]
    status, text = cs.fetch_text(page, href)
    assert status == 200, text
    return cs.csv_rows(text)


def assert_choice_table_is_csv(rows, csv_rows, key):
    """A pivoted choices table (first cell the period or group `key` names, a cell per outcome
    "n (x %)", then the events) holds exactly the CSV's figures, and nothing else."""
    by_key = {row[0]: row for row in rows}
    assert set(by_key) == {figure[key] for figure in csv_rows}
    shown = 0
    for figure in csv_rows:
        row = by_key[figure[key]]
        cell = row[1 + OUTCOME_COLUMNS.index(figure["item"])]
        assert cell == f"{figure['count']} ({percent(figure['rate'])})", (figure, row)
        assert row[-1] == figure["of"], (figure, row)
        shown += 1
    assert shown == sum(1 for row in rows for cell in row[1:-1] if cell != "0")


def open_analytics(signed_in, path=PATH, **size):
    page = signed_in("analyst", path, **size)
    page.wait_for("() => document.querySelectorAll('section.card svg, section.card .empty-chart').length === 6")
    return page


def test_choices_over_time_hold_the_seeded_counts_in_chart_table_and_csv(signed_in):
    page = open_analytics(signed_in)
    rows = cs.table_rows(page, "Choices over time")
    expected = expected_choices(lambda e: e[2])
    assert [row[0] for row in rows] == sorted(expected)
    for row in rows:
        counts = expected[row[0]]
        total = sum(counts.values())
        for i, outcome in enumerate(OUTCOME_COLUMNS):
            n = counts[outcome]
            assert row[1 + i] == (f"{n} ({percent(n / total)})" if n else "0"), row
        assert row[-1] == str(total)
    figures = csv_of(page, "Choices over time")
    assert {(f["period"], f["item"]): int(f["count"]) for f in figures} == {
        (day, outcome): n for day, counts in expected.items() for outcome, n in counts.items()}
    assert_choice_table_is_csv(rows, figures, "period")
    # The chart: an SVG image named by its title and description, a column per day of the range.
    chart = page.evaluate("""() => { const s = document.querySelector('section.card svg');
        const ids = s.getAttribute('aria-labelledby').split(' ');
        return [s.getAttribute('role'), document.getElementById(ids[0]).textContent, document.getElementById(ids[1]).textContent,
                s.querySelectorAll('rect').length]; }""")
    assert chart[0] == "img" and chart[1] == "Choices over time, by day" and f"{len(cs.SEED)} events and closed notices in all" in chart[2]
    assert chart[3] == sum(1 for counts in expected.values() for n in counts.values() if n)


def test_rates_per_purpose_vendor_google_and_us_hold_the_seeded_counts(signed_in):
    page = open_analytics(signed_in)
    # Out of the 4 events with a TCF string: two accept-all, a reject-all and a custom choice.
    expected = {
        "Purposes": [["Purpose consent", "Purpose 1", "3", "4", "75.0 %"], ["Purpose consent", "Purpose 2", "2", "4", "50.0 %"],
                     ["Purpose consent", "Purpose 3", "2", "4", "50.0 %"],
                     ["Purpose legitimate interest", "Purpose 2", "3", "4", "75.0 %"],
                     ["Special feature opt-in", "Special feature 1", "2", "4", "50.0 %"]],
        "Vendors": [["Google ad-tech provider consent", "Provider 89", "2", "4", "50.0 %"],
                    ["Vendor consent", "Vendor 1", "2", "4", "50.0 %"], ["Vendor consent", "Vendor 755", "3", "4", "75.0 %"],
                    ["Vendor legitimate interest", "Vendor 755", "2", "4", "50.0 %"]],
        "Google choice": [["Google choice", "Additional Consent string", "3", "4", "75.0 %"],
                          ["Google choice", "Non-personalized ads", "2", "4", "50.0 %"],
                          ["Google choice", "Personalized ads", "2", "4", "50.0 %"]],
    }
    for section, rows in expected.items():
        table = cs.table_rows(page, section)
        assert table == rows, section
        figures = csv_of(page, section)
        assert [[f["count"], f["of"], percent(f["rate"])] for f in figures] == [row[2:] for row in table], section
        assert all(f["period"] == "2026-11-01..2026-11-30" for f in figures)
    us = cs.table_rows(page, "US opt-outs")
    us_by_item = {row[1]: row[2:] for row in us}
    assert us_by_item["Sale opt-out"] == ["1", "2", "50.0 %"] and us_by_item["Sharing opt-out"] == ["1", "2", "50.0 %"]
    figures = csv_of(page, "US opt-outs")
    assert [[f["count"], f["of"], percent(f["rate"])] for f in figures] == [row[2:] for row in us]
    # Each rate is a bar of the chart, labelled with the rate the table shows.
    bars = page.evaluate("""() => [...[...document.querySelectorAll('section.card')].find((c) => c.querySelector('h2').textContent === 'Purposes')
        .querySelectorAll('svg text')].map((t) => t.textContent).filter((t) => t.endsWith('%'))""")
    assert bars == [row[4] for row in expected["Purposes"]]


def test_weeks_and_every_dimension_hold_the_seeded_counts(signed_in):
    page = open_analytics(signed_in, PATH + "&granularity=week&by=language")
    weeks = cs.table_rows(page, "Choices over time")
    assert [row[0] for row in weeks] == ["2026-W45", "2026-W46"]
    assert weeks[0][1:] == ["3 (42.9 %)", "2 (28.6 %)", "1 (14.3 %)", "1 (14.3 %)", "0", "7"] and weeks[1][-1] == "1"
    assert_choice_table_is_csv(weeks, csv_of(page, "Choices over time"), "period")
    seed_index = {"region": None, "language": 4, "platform": 5, "noticeVersion": 6, "method": 7}
    regions = {"DE": "eea", "FR": "eea", "GB": "uk", "US-CA": "us-ca"}
    for by, index in seed_index.items():
        page.evaluate("(v) => { const s = document.querySelector('select[name=by]'); s.value = v; s.dispatchEvent(new Event('change')); }", by)
        page.wait_for("(v) => { const a = document.querySelector('section.card a[download][href*=\"by=' + v + '\"]'); "
                      "return a && !a.closest('section').querySelector('.card-body p.muted:only-child'); }", by)
        rows = cs.table_rows(page, "Choices by dimension")
        expected = expected_choices(lambda e: regions[e[0]] if index is None else e[index])
        if by == "noticeVersion":
            # The close of notice 2 (GB, Monday): closed beside that version's custom choice.
            assert expected["2"] == {"custom": 1, "closed": 1}
        if by == "method":
            # A close counts under the notice's action, dismissed.
            assert expected["dismissed"] == {"closed": 1}
        assert {row[0]: row[-1] for row in rows} == {k: str(sum(c.values())) for k, c in expected.items()}, by
        assert_choice_table_is_csv(rows, csv_of(page, "Choices by dimension"), "group")
    # The address keeps the grouping, so a reload or a shared link shows the same.
    assert "by=method" in page.evaluate("() => location.hash")


def test_another_app_shows_its_own_figures(signed_in):
    page = open_analytics(signed_in, f"#/analytics?app={cs.OTHER_APP}&from={cs.RANGE['from']}&to={cs.RANGE['to']}")
    assert page.evaluate("() => document.querySelector('select[name=app]').value") == cs.OTHER_APP
    rows = cs.table_rows(page, "Choices over time")
    assert rows == [["2026-11-02", "1 (100.0 %)", "0", "0", "0", "0", "1"]]
    assert cs.table_rows(page, "US opt-outs") == []
    assert cs.text(page, "section.card:last-of-type .empty-chart") == "No event with a US privacy section in this range."


def test_the_analytics_page_is_axe_clean_keyboard_usable_and_pictured(signed_in):
    page = open_analytics(signed_in)
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "analytics-desktop")
    # Tab from the top reaches every control of the page, in order.
    controls = page.evaluate("""() => [...document.querySelectorAll('main a[href], main button, main select, main input, main summary')]
        .filter((e) => e.offsetParent !== null).length""")
    # From the skip link, the first control of the page (a date input takes a Tab per part).
    page.evaluate("() => document.getElementById('skip').focus()")
    seen = set()
    for _ in range(controls + 20):
        page.press("Tab")
        seen.add(page.evaluate("""() => { const e = document.activeElement;
            return e && e.closest('main') ? [...document.querySelectorAll('main a[href], main button, main select, main input, main summary')].indexOf(e) : -1; }"""))
    seen.discard(-1)
    assert len(seen) == controls, (len(seen), controls)


def test_the_analytics_page_fits_a_phone(signed_in):
    page = open_analytics(signed_in, width=390, height=844)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "analytics-phone")
