#!/usr/bin/env python3
"""The preview page in a real browser: headless Chromium driven over the DevTools protocol.

    Tests/Browser/preview_test.py REEL_BINARY                    (CI: scripts/test, the release build)
    Tests/Browser/preview_test.py REEL_BINARY PROJECT_FOLDER [--screenshot docs/preview.png]
    Tests/Browser/preview_test.py REEL_BINARY PROJECT_FOLDER --figures   (docs/preview.md's measurements)

Without a folder it writes a small project of its own (ffmpeg lavfi media: 11 s at 480x270,
30 fps, two clips with a 1 s crossfade and a title), which a debug build renders faster than
real time: that is what CI runs. With a folder (Examples/promo, after
scripts/make-promo-media.sh) it runs on a copy of that project at 960 wide; the docs'
screenshot and figures are taken that way, by hand, with a release build:

    swift build -c release --product reel && scripts/make-promo-media.sh
    Tests/Browser/preview_test.py .build/release/reel Examples/promo --screenshot docs/preview.png

Runs `reel preview` on a copy of the project and checks, in order: the paused picture
equals `reel frame` at 0 s and after a seek to 9.5 s (decoded pixels, PSNR at least 60 dB:
the page shows reel frame's own PNG, so anything less means another picture); playback
advances the media time by about the wall time over 3 s and the picture changes; a new
title in the file shows within 2 s; a broken YAML shows `reel validate`'s diagnostic with
its line and column over the player, keeping the picture; the fix brings the picture back;
the server's log has no error; Ctrl-C ends it with status 0 and no temporary file. Ends
with 'N passed, N failed'.
"""
import argparse
import base64
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

PSNR_MIN = 60.0


def psnr(a, b):
    """PSNR in dB of two pictures of the same size (ffmpeg's psnr filter); inf when equal."""
    out = subprocess.run(["ffmpeg", "-v", "info", "-nostats", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"],
                         capture_output=True, text=True, timeout=60).stderr
    match = re.search(r"PSNR .*average:(\S+)", out)
    if not match:
        raise RuntimeError(f"ffmpeg psnr: {out[-400:]}")
    return float("inf") if match.group(1) == "inf" else float(match.group(1))


# The project CI runs: small enough for a debug build to render faster than real time, with
# what the checks need (a title from the var `headline` on screen at 2 s, 9.5 s inside the
# timeline, a crossfade, sound).
SMALL_PROJECT = """reel: 1

vars:
  headline: Spring Sale

output:
  size: [480, 270]
  fps: 30
  video: { codec: h264, preset: veryfast, crf: 23 }
  audio: { codec: aac, bitrate: 128k, sample_rate: 48000, channels: 2 }

media:
  a: media/a.mp4
  b: media/b.mp4

video:
  - clips:
      - media: a
        duration: 6s
      - transition: crossfade
        duration: 1s
      - media: b
        duration: 6s

overlays:
  - text: "{{ headline }}"
    at: 1s
    duration: 4s
    position: ["50%", "80%"]
    style: { font: DejaVu Sans, weight: bold, size: 32, color: "#ffffff" }
"""


def write_small_project(folder):
    """SMALL_PROJECT and its media (7 s each: 480x270 30 fps H.264 with a keyframe a second,
    48 kHz AAC tones) in `folder`."""
    os.makedirs(os.path.join(folder, "media"))
    for name, picture, tone in (("a", "testsrc2", 440), ("b", "smptehdbars", 660)):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                        "-f", "lavfi", "-i", f"{picture}=size=480x270:rate=30:duration=7",
                        "-f", "lavfi", "-i", f"sine=frequency={tone}:sample_rate=48000:duration=7",
                        "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
                        "-c:a", "aac", "-b:a", "96k", "-shortest", os.path.join(folder, "media", f"{name}.mp4")],
                       check=True, timeout=120)
    with open(os.path.join(folder, "project.yaml"), "w") as f:
        f.write(SMALL_PROJECT)


class Run:
    def __init__(self, reel, project_folder, width):
        self.reel = reel
        self.width = width
        self.work = tempfile.mkdtemp(prefix="reel-preview-test-")
        self.project_dir = os.path.join(self.work, "project")
        if project_folder:
            os.makedirs(self.project_dir)
            shutil.copy(os.path.join(project_folder, "project.yaml"), self.project_dir)
            os.symlink(os.path.abspath(os.path.join(project_folder, "media")), os.path.join(self.project_dir, "media"))
        else:
            write_small_project(self.project_dir)
        self.project = os.path.join(self.project_dir, "project.yaml")
        self.original = open(self.project).read()
        self.cache = os.path.join(self.work, "cache")
        self.log_path = os.path.join(self.work, "server.log")
        self.passed, self.failed = 0, 0
        env = dict(os.environ, REEL_CACHE_DIR=self.cache)
        self.server = subprocess.Popen([reel, "preview", self.project, "--port", "0", "--size", f"{width}x"],
                                       stdout=subprocess.PIPE, stderr=open(self.log_path, "w"), text=True, env=env)
        line = self.server.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if not match:
            raise RuntimeError(f"reel preview printed no URL: {line!r}; log: {open(self.log_path).read()}")
        self.url = match.group(1)
        self.browser = Browser()

    def step(self, name, body):
        start = time.time()
        try:
            body()
            errors = [l for l in open(self.log_path) if "error" in l.lower()]
            if errors:
                raise AssertionError(f"the server logged: {errors[0].strip()}")
            self.passed += 1
            print(f"ok   {name} ({time.time() - start:.1f} s)", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)

    def write_project(self, text):
        # As an editor saves: a new file renamed into place.
        temporary = self.project + ".saving"
        with open(temporary, "w") as f:
            f.write(text)
        os.replace(temporary, self.project)

    def reel_frame(self, at, name):
        path = os.path.join(self.work, name)
        subprocess.run([self.reel, "frame", self.project, "--at", at, "--size", f"{self.width}x", "-o", path],
                       check=True, capture_output=True, timeout=120, env=dict(os.environ, REEL_CACHE_DIR=self.cache))
        return path

    READ_BACK = """new Promise((resolve, reject) => { const image = new Image(); image.onerror = reject;
        image.onload = () => { const c = document.createElement('canvas'); c.width = image.naturalWidth; c.height = image.naturalHeight;
            c.getContext('2d').drawImage(image, 0, 0); resolve(c.toDataURL('image/png')); }; image.src = SOURCE; })"""

    def page_still(self, name):
        """The still the page shows: the PNG it received, and its pixels as the browser decodes
        them (read back from a canvas, lossless)."""
        raw = self.browser.evaluate("fetch(document.getElementById('still').src).then(r => r.blob()).then(b => new Promise(done => {"
                                    " const reader = new FileReader(); reader.onload = () => done(reader.result); reader.readAsDataURL(b); }))")
        shown = self.browser.evaluate(self.READ_BACK.replace("SOURCE", "document.getElementById('still').src"))
        path = os.path.join(self.work, name)
        with open(path, "wb") as f:
            f.write(base64.b64decode(raw.split(",", 1)[1]))
        with open(path + ".shown.png", "wb") as f:
            f.write(base64.b64decode(shown.split(",", 1)[1]))
        return path

    def shown_by_browser(self, path):
        """A PNG file's pixels as the browser decodes them (it colour-manages: reel frame's PNGs
        carry BT.709's cHRM and gAMA)."""
        data = base64.b64encode(open(path, "rb").read()).decode()
        shown = self.browser.evaluate(self.READ_BACK.replace("SOURCE", f"'data:image/png;base64,{data}'"))
        out = path + ".shown.png"
        with open(out, "wb") as f:
            f.write(base64.b64decode(shown.split(",", 1)[1]))
        return out

    def video_picture(self):
        return self.browser.evaluate("""(() => { const v = document.getElementById('video');
            const c = document.createElement('canvas'); c.width = v.videoWidth; c.height = v.videoHeight;
            c.getContext('2d').drawImage(v, 0, 0); return c.toDataURL('image/png'); })()""")

    def showing(self, generation, frame):
        return f"reelPreview.stillFrame === '{generation}/{frame}' && !reelPreview.stillLoading"

    def generation(self):
        return self.browser.evaluate("reelPreview.state && reelPreview.state.generation")

    def assert_same(self, page, reference):
        """The page's PNG decodes to reel frame's pixels, and the browser shows both alike."""
        value = psnr(page, reference)
        assert value >= PSNR_MIN, f"PSNR {value:.1f} dB < {PSNR_MIN} dB against {reference}"
        shown = psnr(page + ".shown.png", self.shown_by_browser(reference))
        assert shown >= PSNR_MIN, f"as shown by the browser: PSNR {shown:.1f} dB < {PSNR_MIN} dB against {reference}"
        return f"{value} dB (as the browser shows them: {shown} dB)"

    # ---- the steps ----

    def load(self):
        self.browser.send("Page.navigate", url=self.url)
        self.browser.wait_for(self.showing(1, 0), 60, "the first picture")
        assert self.browser.evaluate("document.getElementById('diagnostics').hidden")
        print(f"     PSNR at 0 s: {self.assert_same(self.page_still('page-0.png'), self.reel_frame('0s', 'ref-0.png'))}")

    def seek(self):
        self.browser.evaluate("seekFrame(285)")  # 9.5 s at 30 fps
        self.browser.wait_for(self.showing(1, 285), 30, "frame 285")
        assert self.browser.evaluate("document.getElementById('timecode').textContent") == "00:00:09.500"
        print(f"     PSNR at 9.5 s: {self.assert_same(self.page_still('page-285.png'), self.reel_frame('9.5s', 'ref-285.png'))}")

    def play(self):
        self.browser.evaluate("seekFrame(30)")
        self.browser.wait_for(self.showing(1, 30), 30, "frame 30")
        # Pieces are rendered ahead of the playhead while paused; give them a moment (cold cache).
        self.browser.wait_for("true", 1, "")
        self.browser.key(" ", "Space", 32)
        first = self.browser.wait_for("document.getElementById('screen').classList.contains('playing') && "
                                      "document.getElementById('video').currentTime > 1.0", 20, "playback")
        print(f"     first picture {first:.2f} s after pressing play")
        t0, w0 = self.browser.evaluate("document.getElementById('video').currentTime"), time.time()
        picture0 = self.video_picture()
        time.sleep(3)
        t1, w1 = self.browser.evaluate("document.getElementById('video').currentTime"), time.time()
        picture1 = self.video_picture()
        advanced, wall = t1 - t0, w1 - w0
        print(f"     media time advanced {advanced:.2f} s in {wall:.2f} s of wall time")
        assert abs(advanced - wall) < 0.4, f"media time advanced {advanced:.2f} s in {wall:.2f} s"
        assert picture0 != picture1, "the picture did not change while playing"
        self.browser.key("k", "KeyK", 75)
        self.browser.wait_for("!reelPreview.playing", 5, "pause")

    def shuttle(self):
        """J goes back in real time (frames skipped if their stills are late), twice as fast
        on a second J; K stops it on an exact still."""
        self.browser.evaluate("seekFrame(300)")
        self.browser.wait_for(self.showing(1, 300), 30, "frame 300")
        frames_per_second = 1 / self.browser.evaluate("frameSeconds()")
        for presses, rate in ((1, 1), (2, 2)):
            self.browser.key("j", "KeyJ", 74)
            time.sleep(0.3)  # the shuttle has started (and, after a second J, doubled)
            f0, w0 = self.browser.evaluate("reelPreview.frame"), time.time()
            time.sleep(1.5)
            f1, w1 = self.browser.evaluate("reelPreview.frame"), time.time()
            speed = (f0 - f1) / (w1 - w0) / frames_per_second
            print(f"     after {presses} J: {speed:.2f}x backwards")
            assert abs(speed - rate) < 0.25 * rate, f"J x{presses} went back at {speed:.2f}x, expected {rate}x"
        self.browser.key("k", "KeyK", 75)
        self.browser.wait_for("reelPreview.shuttle === null", 2, "K stops J")
        stopped = self.browser.evaluate("reelPreview.frame")
        self.browser.wait_for(self.showing(1, stopped), 10, f"the exact still of frame {stopped}")
        time.sleep(0.3)
        assert self.browser.evaluate("reelPreview.frame") == stopped, "the frame moved after K"

    def edit_title(self):
        self.browser.evaluate("seekFrame(60)")  # 2 s: the title is on screen
        generation = self.generation()
        self.browser.wait_for(self.showing(generation, 60), 30, "frame 60")
        before = self.page_still("title-before.png")
        self.write_project(self.original.replace("headline: Spring Sale", "headline: Winter Sale"))
        took = self.browser.wait_for(self.showing(generation + 1, 60), 10, "the new title")
        print(f"     new picture {took:.2f} s after saving")
        assert took < 2, f"the new picture took {took:.2f} s"
        after = self.page_still("title-after.png")
        assert psnr(before, after) < 40, "the picture did not change"
        self.assert_same(after, self.reel_frame("2s", "ref-title.png"))

    def break_yaml(self):
        still = self.browser.evaluate("document.getElementById('still').src")
        broken = self.original.replace("headline: Spring Sale", "headline: [Spring Sale")
        self.write_project(broken)
        self.browser.wait_for("!document.getElementById('diagnostics').hidden", 5, "the diagnostics")
        shown = self.browser.evaluate("document.getElementById('diagnostics').textContent")
        validate = subprocess.run([self.reel, "validate", self.project], capture_output=True, text=True, timeout=60)
        assert validate.returncode == 65, validate
        assert shown.strip() == validate.stderr.strip(), f"page:\n{shown}\nreel validate:\n{validate.stderr}"
        assert re.search(r"project\.yaml:\d+:\d+: error", shown), shown
        print("     " + shown.splitlines()[0])
        assert self.browser.evaluate("document.getElementById('still').src") == still, "the last good picture went away"
        assert self.browser.evaluate("document.getElementById('still').naturalWidth") == self.width

    def fix_yaml(self):
        generation = self.generation()
        self.write_project(self.original)
        self.browser.wait_for(f"document.getElementById('diagnostics').hidden && {self.showing(generation + 1, 60)}",
                              10, "the picture after the fix")
        self.assert_same(self.page_still("fixed.png"), self.reel_frame("2s", "ref-fixed.png"))

    def show_warning(self):
        long = self.original.replace("headline: Spring Sale", "headline: Spring Sale, all week long, on every item in the shop")
        self.write_project(long)
        self.browser.wait_for("!document.getElementById('warnings').hidden", 10, "the warnings")
        shown = self.browser.evaluate("document.getElementById('warnings').textContent")
        validate = subprocess.run([self.reel, "validate", self.project], capture_output=True, text=True, timeout=60)
        assert validate.returncode == 0, validate
        assert shown.strip() == validate.stderr.strip(), f"page:\n{shown}\nreel validate:\n{validate.stderr}"
        assert re.search(r"project\.yaml:\d+:\d+: warning: this text runs outside the frame", shown), shown
        assert self.browser.evaluate("document.getElementById('diagnostics').hidden"), "a warning is no error"
        print("     " + shown.splitlines()[0])
        self.browser.screenshot(os.path.join(self.work, "warning.png"))
        self.write_project(self.original)
        self.browser.wait_for("document.getElementById('warnings').hidden", 10, "the warnings gone after the fix")

    # ---- figures (--figures): measured, printed, not checked ----

    def play_through(self, label):
        """Plays the whole timeline from 0; prints the first picture's delay and the stalls."""
        self.browser.evaluate("seekFrame(0); reelPreview.stalls = { count: 0, seconds: 0, since: null }")
        self.browser.wait_for(self.showing(self.generation(), 0), 60, "frame 0")
        start = time.time()
        self.browser.key(" ", "Space", 32)
        self.browser.wait_for("document.getElementById('screen').classList.contains('playing')", 60, "playback")
        first = time.time() - start
        duration = self.browser.evaluate("reelPreview.state.duration")
        self.browser.wait_for("!reelPreview.playing", duration + 60, "the end")
        stalls = self.browser.evaluate("reelPreview.stalls")
        print(f"     {label}: first picture {first:.2f} s after play; {stalls['count']} stalls, {stalls['seconds']:.2f} s stalled; "
              f"{time.time() - start - first:.1f} s to play {duration:.0f} s")

    def edit_figure(self, label, old, new, frame):
        """Seconds from saving an edit to the updated still at `frame` (then the edit is undone)."""
        assert old in self.original, old
        self.browser.evaluate(f"seekFrame({frame})")
        generation = self.generation()
        self.browser.wait_for(self.showing(generation, frame), 60, f"frame {frame}")
        self.write_project(self.original.replace(old, new))
        took = self.browser.wait_for(self.showing(generation + 1, frame), 30, label)
        print(f"     {label}: new picture {took:.2f} s after saving")
        self.write_project(self.original)
        self.browser.wait_for(self.showing(generation + 2, frame), 30, "the undo")

    def figures(self):
        self.browser.send("Page.navigate", url=self.url)
        self.browser.wait_for(self.showing(1, 0), 60, "the first picture")
        self.play_through("cold cache")
        self.play_through("warm cache")
        self.edit_figure("title text", "headline: Spring Sale", "headline: Autumn Sale", 60)
        self.edit_figure("clip trim", "        to: 11s", "        to: 10.5s", 285)
        self.edit_figure("transition", "        duration: 1s\n", "        duration: 2s\n", 285)
        self.edit_figure("output size", "size: [1920, 1080]", "size: [1280, 720]", 60)

    def screenshot(self, path):
        self.browser.evaluate("seekFrame(75)")
        self.browser.wait_for(self.showing(self.generation(), 75), 30, "frame 75")
        self.browser.wait_for("true", 1, "")  # the timeline frame's layout
        self.browser.screenshot(path)

    def stop(self):
        self.browser.close()
        self.server.send_signal(signal.SIGINT)
        status = self.server.wait(30)
        assert status == 0, f"reel preview exited with {status} after SIGINT"
        left = [os.path.join(d, f) for d, _, files in os.walk(self.work) for f in files if ".partial" in f or f.startswith(".")]
        assert not left, f"temporary files left: {left}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reel")
    parser.add_argument("project", nargs="?", help="a project folder (project.yaml, media/); default: a small one made here")
    parser.add_argument("--size", type=int, help="the preview's width (default: 960 for a given project, 480 for the small one)")
    parser.add_argument("--screenshot", help="also take the page's picture (docs/preview.png: of the promo, by hand)")
    parser.add_argument("--figures", action="store_true")
    args = parser.parse_args()
    started = time.time()
    run = Run(os.path.abspath(args.reel), args.project, args.size or (960 if args.project else 480))
    try:
        if args.figures:
            run.step("figures", run.figures)
            return
        run.step("the page shows reel frame's picture at 0 s", run.load)
        run.step("a seek to 9.5 s shows reel frame's picture", run.seek)
        run.step("play advances at 1x and the picture changes", run.play)
        run.step("J plays backwards at 1x, 2x after a second J; K stops it", run.shuttle)
        run.step("a new title in the file shows within 2 s", run.edit_title)
        run.step("broken YAML shows reel validate's diagnostic over the last good picture", run.break_yaml)
        run.step("the fix brings the picture back", run.fix_yaml)
        run.step("a warning shows under the picture as reel validate prints it, and goes with its cause", run.show_warning)
        if args.screenshot:
            run.step(f"screenshot {args.screenshot}", lambda: run.screenshot(args.screenshot))
    finally:
        run.step("Ctrl-C stops the server cleanly, no temporary files", run.stop)
        if run.server.poll() is None:
            run.server.kill()
        shutil.rmtree(run.work, ignore_errors=True)
        print(f"{run.passed} passed, {run.failed} failed ({time.time() - started:.0f} s)")
    sys.exit(1 if run.failed else 0)


if __name__ == "__main__":
    main()
