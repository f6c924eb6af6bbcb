"""The H200 report in headless Chromium: it loads, every row is there, every plot decodes, nothing spills.

Skipped only when Chromium (or its driver) is not installed: apt-get install chromium chromium-driver.
"""

import struct
import subprocess
import sys

import pytest

from conftest import H200, PLANTED, REPORTS
from vmmcheck_report import browser, load, render

pytestmark = pytest.mark.skipif(browser.find_chromium() is None, reason=browser.missing_reason())


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("browser") / "report.html"
    path.write_text(render.render_html(load.load(H200)), encoding="utf-8")
    with browser.headless(1400, 1000) as driver:
        driver.get(path.as_uri())
        yield driver


def test_title(page):
    assert page.title == "vmmcheck — NVIDIA H200, driver 580.159.04 (CUDA 13.0)"


def test_rows(page):
    assert page.execute_script("return document.querySelectorAll('table.cases tbody tr.case').length") == 243
    assert page.execute_script("return document.querySelectorAll('#families tbody tr').length") == 8
    assert page.execute_script("return document.querySelectorAll('details.family').length") == 8


def test_every_image_loaded(page):
    """Including the plots in closed families: an <img> that did not decode has naturalWidth 0."""
    counts = page.execute_script("""
        const imgs = [...document.images];
        return [imgs.length, imgs.filter(i => i.complete && i.naturalWidth > 0).length];""")
    assert counts == [243, 243]


def test_expand_all_and_no_horizontal_overflow(page):
    page.find_element("xpath", "//button[text()='Expand all']").click()
    assert page.execute_script("return [...document.querySelectorAll('details.family')].every(d => d.open)")
    assert page.execute_script("return document.documentElement.scrollWidth") <= 1400
    # A header row stays in view while scrolling a long family table.
    assert page.execute_script(
        "return getComputedStyle(document.querySelector('table.cases thead th')).position") == "sticky"


def test_screenshot_tool(tmp_path):
    out = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, str(REPORTS / "tools" / "screenshot.py"), str(H200), "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1400, 2000)
    assert len(data) < 1_000_000


def test_planted_run_fits_with_failures_open(tmp_path):
    """The run with planted Crash/Timeout: failing families open and first, every reason on screen, nothing
    spills past a 1400-pixel window even with every family open."""
    path = tmp_path / "planted.html"
    path.write_text(render.render_html(load.load(PLANTED)), encoding="utf-8")
    with browser.headless(1400, 1000) as driver:
        driver.get(path.as_uri())
        opened = driver.execute_script(
            "return [...document.querySelectorAll('details.family')].filter(d => d.open).map(d => d.id)")
        assert opened == ["fam-planted.gpu", "fam-planted.host"]
        reasons = driver.execute_script("""
            return [...document.querySelectorAll('tr.kind-failure-row td.reason')].map(td => {
                const r = td.getBoundingClientRect();
                return [td.closest('tr').id, td.innerText.trim().length > 0, r.width > 150, r.right <= 1400];
            });""")
        assert reasons == [[f"case-{n}", True, True, True] for n in
                           ("planted.gpu.trap", "planted.gpu.spin", "planted.host.crash", "planted.host.hang")]
        driver.find_element("xpath", "//button[text()='Expand all']").click()
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 1400


def test_a_tile_opens_and_shows_its_case(tmp_path):
    """The failures and warnings are the first thing on screen; a tile's link lands on the case's row, opening
    its family where the reader had closed it."""
    from conftest import make_doc, result
    doc = make_doc([result(f"alias.kernels.c{i}.ok") for i in range(40)] +
                   [result("alias.mp.a.model", "Warning", weak=3, reason="only the PTX model forbids it"),
                    result("alias.rmw.a.lost", "Fail", weak=5, reason="5 lost updates")])
    path = tmp_path / "report.html"
    path.write_text(render.render_html(doc), encoding="utf-8")
    with browser.headless(1400, 900) as driver:
        driver.get(path.as_uri())
        tiles = driver.execute_script("""
            return [...document.querySelectorAll('a.tile')].map(a => [a.dataset.case, a.getBoundingClientRect().bottom]);""")
        assert [name for name, _ in tiles] == ["alias.rmw.a.lost", "alias.mp.a.model"]
        assert all(bottom <= 900 for _, bottom in tiles)          # in the first screen, before anything else
        driver.execute_script("document.getElementById('fam-alias.mp').open = false")
        driver.find_element("css selector", "a.tile[data-case='alias.mp.a.model']").click()
        assert driver.execute_script("return document.getElementById('fam-alias.mp').open")
        top, bottom = driver.execute_script(
            "const r = document.getElementById('case-alias.mp.a.model').getBoundingClientRect(); return [r.top, r.bottom];")
        assert 0 <= top and bottom <= 900
