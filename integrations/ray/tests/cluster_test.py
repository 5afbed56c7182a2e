"""The tests of integrations/ray/test.sh, against the running two-node cluster it started.

Each test prints PASS or FAIL lines; the last line is `N passed, N failed`; the exit status is
1 if anything failed.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

RESULTS = {"passed": 0, "failed": 0}


def check(condition: bool, what: str, detail: str = "") -> bool:
    RESULTS["passed" if condition else "failed"] += 1
    print(f"{'PASS' if condition else 'FAIL'}: {what}" + ("" if condition or not detail else f"\n      {detail}"), flush=True)
    return condition


def sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


class Env:
    """The binary, the cluster and the work folder of this run."""

    def __init__(self, reel: str, address: str, work: Path, python: str) -> None:
        self.reel, self.address, self.work, self.python = reel, address, work, python

    def run(self, command: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
        print("$ " + " ".join(command), flush=True)
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=self.work)

    def reel_ray(self, *args: str) -> list[str]:
        return [self.python, "-m", "reel_ray", *args, "--address", self.address, "--reel", self.reel]


def show(done: subprocess.CompletedProcess) -> None:
    """reel-ray's output, indented, for the log."""
    for line in (done.stdout + done.stderr).rstrip().splitlines():
        print(f"    | {line}")


def ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True)


def make_media(folder: Path, seconds: int) -> None:
    """Two clips with sound from lavfi: testsrc2 and SMPTE bars, 320x240 at 30 fps."""
    for name, video, tone in (("a", "testsrc2", 440), ("b", "smptebars", 660)):
        ffmpeg("-f", "lavfi", "-i", f"{video}=size=320x240:rate=30:duration={seconds}",
               "-f", "lavfi", "-i", f"sine=frequency={tone}:sample_rate=48000:duration={seconds}",
               "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
               str(folder / f"{name}{seconds}.mp4"))


def write_project(path: Path, size: tuple[int, int], first: int, second: int, media_seconds: int) -> None:
    """Two clips with a 1 s crossfade (first + second - 1 seconds), a title, 1 s segments."""
    path.write_text(f"""reel: 1
vars:
  headline: Ray test
output:
  size: [{size[0]}, {size[1]}]
  fps: 30
  segment: 1s
  video: {{ codec: h264, preset: ultrafast, crf: 28 }}
  audio: {{ codec: aac, bitrate: 64k, sample_rate: 48000, channels: 2 }}
media:
  a: a{media_seconds}.mp4
  b: b{media_seconds}.mp4
video:
  - clips:
      - media: a
        from: 0s
        duration: {first}s
      - transition: crossfade
        duration: 1s
      - media: b
        from: 0s
        duration: {second}s
overlays:
  - text: "{{{{ headline }}}}"
    at: 0.5s
    duration: 4s
    position: ["50%", "80%"]
    style: {{ font: DejaVu Sans, weight: bold, size: 24, color: "#ffffff" }}
""")


def reference(env: Env, project: Path, output: Path) -> str | None:
    """The file reel renders alone on this machine, its SHA-256."""
    done = env.run([env.reel, "render", str(project), "-o", str(output), "--jobs", "1", "--no-cache", "--progress", "none"])
    if not check(done.returncode == 0, f"reel renders {project.name} locally", done.stderr):
        return None
    return sha256(output)


def left_parts_folders(env: Env) -> list[str]:
    return [p.name for p in env.work.glob("reel-ray-parts-*")]


def test_render(env: Env, project: Path, expected: str | None) -> None:
    print("== test 1: a render on the cluster is the bytes of a local render, made on both nodes", flush=True)
    output, report = env.work / "short-ray.mp4", env.work / "short-report.json"
    started = time.monotonic()
    done = env.run(env.reel_ray("render", str(project), "-o", str(output), "--report", str(report)))
    show(done)
    check(done.returncode == 0, f"reel_ray render exits 0 ({time.monotonic() - started:.1f}s)", f"exit {done.returncode}")
    check(expected is not None and sha256(output) == expected, "the output is byte-identical to reel render --jobs 1 --no-cache",
          f"{sha256(output)} != {expected}")
    facts = json.loads(report.read_text()) if report.is_file() else {"units": []}
    nodes = {u["nodeId"] for u in facts["units"] if u["nodeId"]}
    check(len(facts["units"]) == 6 and all(u["status"] == "rendered" for u in facts["units"]),
          "the report lists 6 segments, all rendered", json.dumps(facts)[:400])
    check(len(nodes) == 2, "the segments were rendered on both nodes", f"nodes: {sorted(nodes)}")
    check(all(u["pid"] and u["seconds"] is not None and u["attempts"] == 1 for u in facts["units"]),
          "each segment's pid, seconds and 1 attempt are reported")
    check(not left_parts_folders(env), "the temporary parts folder is removed after the join", str(left_parts_folders(env)))


def reel_processes(project: Path) -> list[tuple[int, int, int]]:
    """(pid, parent pid, segment) of every `reel render PROJECT ... --segment K` running."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = [a.decode() for a in (entry / "cmdline").read_bytes().split(b"\0") if a]
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if len(args) > 3 and args[1] == "render" and args[2] == str(project) and "--segment" in args:
            found.append((int(entry.name), parent, int(args[args.index("--segment") + 1])))
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def kill_one_unit(project: Path, victim: str, killed: dict) -> None:
    """Waits for a segment of project to be rendering (past its first instants), then SIGKILLs
    its Ray worker (victim "worker") or the reel process itself (victim "reel")."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for pid, parent, segment in reel_processes(project):
            if segment < 2:  # let the first segments go: they start while workers are still coming up
                continue
            worker = command_line(parent)
            if not worker.startswith("ray::"):
                continue
            target = parent if victim == "worker" else pid
            try:
                os.kill(target, signal.SIGKILL)
            except ProcessLookupError:
                continue
            killed.update(segment=segment, pid=target, reel=pid, worker=parent, command=worker)
            return
        time.sleep(0.01)


def test_kill(env: Env, project: Path, expected: str | None, victim: str) -> None:
    what = {"worker": "the Ray worker running a segment is SIGKILLed (a system failure)",
            "reel": "a segment's reel process is SIGKILLed (a retryable exit)"}[victim]
    print(f"== test 2 ({victim}): {what}", flush=True)
    output, report = env.work / f"long-{victim}.mp4", env.work / f"long-{victim}.json"
    killed: dict = {}
    killer = threading.Thread(target=kill_one_unit, args=(project, victim, killed))
    killer.start()
    done = env.run(env.reel_ray("render", str(project), "-o", str(output), "--report", str(report)))
    killer.join()
    show(done)
    if not check(bool(killed), f"a running segment's {victim} was found and killed"):
        return
    print(f"    killed {victim} pid {killed['pid']} (segment {killed['segment']}; worker: {killed['command'][:40]})")
    check(done.returncode == 0, "the render still completes", f"exit {done.returncode}")
    check(expected is not None and sha256(output) == expected, "the output is still byte-identical",
          f"{sha256(output)} != {expected}")
    units = {u["segment"]: u for u in json.loads(report.read_text())["units"]} if report.is_file() else {}
    unit = units.get(killed["segment"], {})
    tries = unit.get("tries") or []
    check((unit.get("attempts") or 0) >= 2 and unit.get("status") == "rendered",
          f"the report shows segment {killed['segment']} tried again and rendered", json.dumps(unit)[:600])
    if victim == "worker":
        check(bool(tries) and tries[0]["pid"] == killed["worker"] and tries[0]["error"] is None,
              "its first try is the killed worker's, ended without an error of reel's", json.dumps(tries)[:600])
        check(unit.get("pid") != killed["worker"], "the segment was rendered by another worker", json.dumps(unit)[:300])
    else:
        check(bool(tries) and "SIGKILL" in (tries[0]["error"] or ""),
              "its first try failed with reel killed by SIGKILL", json.dumps(tries)[:600])
    check(f"segment {killed['segment']}: " in done.stdout and " tries: " in done.stdout,
          "the retry is printed in the summary")


def write_template(folder: Path) -> tuple[Path, Path]:
    """A template with typed vars and 4 rows, row 2 with a colour that is not one."""
    project = folder / "card.yaml"
    project.write_text("""reel: 1
vars:
  id: { type: string, default: sample }
  name: { type: string, default: "Widget", max_length: 40 }
  price: { type: number, default: 9.99, minimum: 0 }
  colour: { type: color, default: "#ff3366" }
output:
  size: [320, 240]
  fps: 30
  video: { codec: h264, preset: ultrafast, crf: 28 }
  audio: { codec: aac, bitrate: 64k, sample_rate: 48000, channels: 2 }
media:
  a: a6.mp4
video:
  - clips:
      - media: a
        from: 0s
        duration: 2s
overlays:
  - text: "{{ name }}"
    position: ["50%", "40%"]
    style: { font: DejaVu Sans, weight: bold, size: 24, color: "{{ colour }}" }
  - text: "€ {{ price }}"
    position: ["50%", "70%"]
    style: { font: DejaVu Sans, size: 20, color: "#ffffff" }
""")
    rows = folder / "rows.csv"
    with rows.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["id", "name", "price", "colour"])
        writer.writerows([["alpha", "Alpha", "1.5", "#ff0000"], ["beta", "Beta", "2", "blurple"],
                          ["gamma", "Gamma", "3", "#00ff00"], ["delta", "Delta, Inc.", "4", "#0000ff"]])
    return project, rows


def test_batch(env: Env) -> None:
    print("== test 3: a batch with a bad row renders the good rows and exits 65", flush=True)
    project, rows = write_template(env.work)
    local = env.run([env.reel, "batch", str(project), "--data", str(rows), "--output", str(env.work / "local/{{ id }}.mp4")])
    check(local.returncode == 65, "reel batch alone exits 65", f"exit {local.returncode}: {local.stderr}")
    report = env.work / "batch.json"
    template = str(env.work / "ray/{{ id }}.mp4")
    done = env.run(env.reel_ray("batch", str(project), "--data", str(rows), "--output", template, "--report", str(report)))
    show(done)
    check(done.returncode == 65, "reel_ray batch exits 65", f"exit {done.returncode}")
    hashes = {n: (sha256(env.work / "ray" / f"{n}.mp4"), sha256(env.work / "local" / f"{n}.mp4"))
              for n in ("alpha", "gamma", "delta")}
    check(all(ray is not None and ray == local for ray, local in hashes.values()),
          "rows 1, 3 and 4 are rendered, byte-identical to reel batch's", str(hashes))
    check(not (env.work / "ray" / "beta.mp4").exists(), "the bad row has no output")
    check("row 2: var 'colour' expects a colour" in done.stderr and "blurple" in done.stderr,
          "the bad row is reported with reel's error", done.stderr[:400])
    check("batch: 3 rendered, 0 up to date, 0 failed, 1 invalid (row 2)" in done.stdout, "the summary line is reel batch's")
    units = {u["row"]: u for u in json.loads(report.read_text())["units"]} if report.is_file() else {}
    check([units.get(r, {}).get("status") for r in (1, 2, 3, 4)] == ["rendered", "invalid", "rendered", "rendered"]
          and "blurple" in (units.get(2, {}).get("error") or ""), "the report lists each row's status and the bad row's error")
    again = env.run(env.reel_ray("batch", str(project), "--data", str(rows), "--output", template))
    check(again.returncode == 65 and "batch: 0 rendered, 3 up to date, 0 failed, 1 invalid (row 2)" in again.stdout,
          "a second run finds the good rows up to date", again.stdout + again.stderr)


def test_permanent(env: Env, project: Path, expected: str | None) -> None:
    print("== test 4: a permanent failure is not retried, a retryable one is, and nothing is joined;\n"
          "   with --parts, a second run renders only the missing segments", flush=True)
    parts = env.work / "parts"
    wrapper = env.work / "failing-reel"
    wrapper.write_text(f"""#!/bin/sh
case " $* " in
  *" --segment 1 "*) echo "error: segment 1 cannot be rendered (test)" >&2; exit 65 ;;
  *" --segment 2 "*) echo "error: segment 2 failed while rendering (test)" >&2; exit 1 ;;
esac
exec {env.reel} "$@"
""")
    wrapper.chmod(0o755)
    output, report = env.work / "failing.mp4", env.work / "failing.json"
    command = env.reel_ray("render", str(project), "-o", str(output), "--report", str(report), "--max-retries", "1",
                           "--parts", str(parts))
    command[command.index("--reel") + 1] = str(wrapper)
    done = env.run(command)
    show(done)
    check(done.returncode == 1, "reel_ray render exits 1", f"exit {done.returncode}")
    check(not output.exists(), "no output is written")
    units = {u["segment"]: u for u in json.loads(report.read_text())["units"]} if report.is_file() else {}
    check(units.get(1, {}).get("attempts") == 1 and "cannot be rendered" in (units.get(1, {}).get("error") or ""),
          "segment 1 (exit 65) was tried once, its error reported", json.dumps(units.get(1))[:400])
    check(units.get(2, {}).get("attempts") == 2 and "failed while rendering" in (units.get(2, {}).get("error") or ""),
          "segment 2 (exit 1) was tried 1 + --max-retries times, its last error reported", json.dumps(units.get(2))[:400])
    check("segments 1, 2" in done.stdout and "not joined" in done.stdout, "the failed segments are named, nothing joined")
    again = env.run(env.reel_ray("render", str(project), "-o", str(output), "--report", str(report), "--parts", str(parts)))
    show(again)
    statuses = [u["status"] for u in json.loads(report.read_text())["units"]] if report.is_file() else []
    check(again.returncode == 0 and statuses == ["reused", "rendered", "rendered", "reused", "reused", "reused"],
          "a second run with --parts renders segments 1 and 2 only", f"exit {again.returncode}, {statuses}")
    check(expected is not None and sha256(output) == expected, "its output is byte-identical to reel render's",
          f"{sha256(output)} != {expected}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reel", required=True)
    parser.add_argument("--address", required=True)
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--python", required=True)
    args = parser.parse_args()
    env = Env(args.reel, args.address, args.work, args.python)
    started = time.monotonic()
    print("== setup: media (ffmpeg lavfi), projects, reel's own renders to compare with", flush=True)
    make_media(env.work, 6)
    make_media(env.work, 12)
    short, long = env.work / "short.yaml", env.work / "long.yaml"
    write_project(short, (320, 240), 4, 3, 6)  # 6 segments
    write_project(long, (640, 480), 8, 7, 12)  # 14 segments, each about twice as long to render
    short_expected = reference(env, short, env.work / "short-ref.mp4")
    long_expected = reference(env, long, env.work / "long-ref.mp4")
    tests: list[Callable[[], None]] = [
        lambda: test_render(env, short, short_expected),
        lambda: test_kill(env, long, long_expected, "worker"),
        lambda: test_kill(env, long, long_expected, "reel"),
        lambda: test_batch(env),
        lambda: test_permanent(env, short, short_expected),
    ]
    for test in tests:
        try:
            test()
        except Exception as error:  # a test that broke is a failure; the others still run
            check(False, "the test ran to its end", f"{type(error).__name__}: {error}")
    print(f"tests: {time.monotonic() - started:.0f}s")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
