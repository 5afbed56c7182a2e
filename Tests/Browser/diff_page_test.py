#!/usr/bin/env python3
"""reel diff's review page in a real browser: headless Chromium driven over the DevTools protocol.

    Tests/Browser/diff_page_test.py REEL_BINARY                   (CI: scripts/test, the release build)
    Tests/Browser/diff_page_test.py REEL_BINARY PROJECT_FOLDER [--screenshot docs/review.png]

Without a folder it writes a small project of its own (ffmpeg lavfi media, 320x180, 4 s: a
title from the var `headline`, music); with one (Examples/promo, after
scripts/make-promo-media.sh) it diffs that project, which is how docs/review.md's screenshot
is taken. The new side has another headline and, for the small project, quieter music.

Runs `reel diff OLD NEW --html PAGE` (exit 1: they differ) and checks on the page: it loads
from the file alone (no request leaves it); both timelines are there with the changed range
marked on each; each changed video range has stills at its start, middle and end, and each
still's pictures are `reel frame`'s at that time (decoded pixels, PSNR infinite); the slider
uncovers the old and the new picture and the difference view blends them; a changed audio
range shows the loudness of both sides; the causes are listed. Ends with 'N passed, N failed'.
"""
import argparse
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from preview_test import psnr  # noqa: E402

SMALL_PROJECT = """reel: 1
vars:
  headline: Spring Sale
output: { size: [320, 180], fps: 25, segment: 1s }
media: { a: a.mp4, music: music.m4a }
video:
  - clips: [{ media: a, duration: 4s }]
audio:
  - clips: [{ media: music, duration: 4s, volume: VOLUME }]
overlays:
  - { text: "{{ headline }}", at: 1s, duration: 1.5s, style: { size: 28, color: "#ffffff" } }
"""


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True, timeout=120)


class Run:
    def __init__(self, reel, project_folder):
        self.reel = reel
        self.work = tempfile.mkdtemp(prefix="reel-diff-page-")
        self.old, self.new = os.path.join(self.work, "old"), os.path.join(self.work, "new")
        for side in (self.old, self.new):
            os.makedirs(side)
        if project_folder:
            text = open(os.path.join(project_folder, "project.yaml")).read()
            media = os.path.abspath(os.path.join(project_folder, "media"))
            for side in (self.old, self.new):
                os.symlink(media, os.path.join(side, "media"))
            self.write(self.old, text)
            self.write(self.new, text.replace("headline: Spring Sale", "headline: Summer Sale"))
        else:
            ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                   os.path.join(self.work, "a.mp4"))
            ffmpeg("-f", "lavfi", "-i", "sine=frequency=330:duration=4", "-c:a", "aac", os.path.join(self.work, "music.m4a"))
            for side in (self.old, self.new):
                for name in ("a.mp4", "music.m4a"):
                    os.symlink(os.path.join(self.work, name), os.path.join(side, name))
            self.write(self.old, SMALL_PROJECT.replace("VOLUME", "1"))
            self.write(self.new, SMALL_PROJECT.replace("VOLUME", "0.5").replace("headline: Spring Sale", "headline: Summer Sale"))
        self.page = os.path.join(self.work, "review.html")
        self.env = dict(os.environ, REEL_CACHE_DIR=os.path.join(self.work, "cache"))
        self.passed, self.failed = 0, 0
        self.browser = None

    @staticmethod
    def write(folder, text):
        with open(os.path.join(folder, "project.yaml"), "w") as f:
            f.write(text)

    def step(self, name, body):
        start = time.time()
        try:
            body()
            self.passed += 1
            print(f"ok   {name} ({time.time() - start:.1f} s)", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)

    def diff(self):
        # Named relative to the work folder, as the page then names them: old/project.yaml → new/project.yaml.
        run = subprocess.run([self.reel, "diff", "old/project.yaml", "new/project.yaml", "--html", self.page],
                             capture_output=True, text=True, env=self.env, cwd=self.work, timeout=600)
        assert run.returncode == 1, f"exit {run.returncode}: {run.stderr}"
        assert "overlays[0].text (via vars.headline)" in run.stdout, run.stdout
        self.summary = run.stdout.strip().split("\n")[-1]
        self.browser = Browser()
        self.browser.send("Page.navigate", url="file://" + self.page)
        self.browser.wait_for("document.readyState === 'complete' && [...document.images].every(i => i.complete)", 30, "the page")
        images = self.browser.evaluate("[...document.images].filter(i => i.naturalWidth > 0).length")
        total = self.browser.evaluate("document.images.length")
        assert images == total and total > 0, f"{images} of {total} pictures decoded"
        requests = self.browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        assert requests == [], f"the page requested {requests}"
        assert self.browser.evaluate("document.querySelector('.summary').textContent") == self.summary

    def timelines(self):
        for side in ("old", "new"):
            marks = self.browser.evaluate(f"document.querySelectorAll('.timeline.{side} .mark.video').length")
            assert marks >= 1, f"{side} timeline: {marks} changed ranges marked"
        width = self.browser.evaluate("document.querySelector('.timeline.new .mark.video').getBoundingClientRect().width")
        assert width > 5, f"the changed range is {width} px wide"

    def stills(self):
        sections = self.browser.evaluate("""[...document.querySelectorAll('section.range')].filter(s => s.querySelector('figure'))
            .map(s => [...s.querySelectorAll('figure')].map(f => [f.querySelector('figcaption').textContent,
              f.querySelector('img.before').src, f.querySelector('img.after').src]))""")
        assert sections, "no changed video range with stills"
        compared = 0
        for figures in sections:
            assert [f[0].split(" ·")[0] for f in figures] == ["start", "middle", "end"], [f[0] for f in figures]
            for caption, before, after in figures:
                clock = caption.split("· ")[1]
                for side, data in (("old", before), ("new", after)):
                    png = os.path.join(self.work, f"page-{side}.png")
                    with open(png, "wb") as f:
                        f.write(base64.b64decode(data.split(",", 1)[1]))
                    size = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0", png],
                                          capture_output=True, text=True).stdout.strip()
                    frame = os.path.join(self.work, f"frame-{side}.png")
                    run = subprocess.run([self.reel, "frame", os.path.join(getattr(self, side), "project.yaml"), "--at", clock,
                                          "--size", f"{size}x", "-o", frame], capture_output=True, text=True, env=self.env, timeout=300)
                    assert run.returncode == 0, run.stderr
                    quality = psnr(png, frame)
                    assert quality == float("inf"), f"{side} at {clock}: PSNR {quality} dB against reel frame"
                    compared += 1
        # The titles differ: the new picture is not the old one somewhere in the first range.
        assert any(f[1] != f[2] for f in sections[0]), "old and new stills are all the same"
        print(f"     {compared} pictures equal reel frame's")

    def slider(self):
        clip = self.browser.evaluate("""(() => { const f = document.querySelector('figure.compare'), s = f.querySelector('input[type=range]');
            s.value = 20; s.dispatchEvent(new Event('input'));
            return getComputedStyle(f.querySelector('.after')).clipPath; })()""")
        assert clip == "inset(0px 0px 0px 20%)", clip
        blend = self.browser.evaluate("""(() => { const f = document.querySelector('figure.compare'), d = f.querySelector('input.difference');
            d.click(); return [getComputedStyle(f.querySelector('.after')).mixBlendMode, getComputedStyle(f.querySelector('.after')).clipPath]; })()""")
        assert blend == ["difference", "none"], blend
        self.browser.evaluate("document.querySelector('figure.compare input.difference').click()")

    def loudness(self):
        cells = self.browser.evaluate("[...document.querySelectorAll('table.loudness td')].map(c => c.textContent)")
        assert cells, "no loudness table (the audio changes)"
        old, new = float(cells[1].split()[0]), float(cells[2].split()[0])
        # Half the volume: about 6 dB quieter.
        assert 5 < old - new < 7, f"old {old} LUFS, new {new} LUFS"

    def causes(self):
        causes = self.browser.evaluate("[...document.querySelectorAll('ul.causes li')].map(l => l.textContent)")
        assert "overlays[0].text via vars.headline" in causes, causes

    def screenshot(self, path):
        self.browser.send("Emulation.setDeviceMetricsOverride", width=1280, height=1000, deviceScaleFactor=1, mobile=False)
        self.browser.evaluate("window.scrollTo(0, 0)")
        time.sleep(0.3)
        self.browser.screenshot(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reel")
    parser.add_argument("project", nargs="?")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    started = time.time()
    run = Run(os.path.abspath(args.reel), args.project)
    try:
        run.step("reel diff --html writes a page that loads from itself alone", run.diff)
        run.step("both timelines mark the changed range", run.timelines)
        run.step("stills at start, middle and end are reel frame's pictures", run.stills)
        run.step("the slider and the difference view", run.slider)
        if not args.project:
            run.step("the loudness of both sides over the changed audio", run.loudness)
        run.step("the causes are listed", run.causes)
        if args.screenshot:
            run.step(f"screenshot {args.screenshot}", lambda: run.screenshot(args.screenshot))
    finally:
        if run.browser:
            run.browser.close()
        shutil.rmtree(run.work, ignore_errors=True)
        print(f"{run.passed} passed, {run.failed} failed ({time.time() - started:.0f} s)")
    sys.exit(1 if run.failed else 0)


if __name__ == "__main__":
    main()
