"""`reel render` on a Ray cluster: the plan on the driver, one task per segment on the
workers, the parts back through the object store, the join on the driver."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import ray

from . import attempts
from .attempts import Worker
from .cluster import Cluster, Outcome, Run
from .files import write_atomically
from .report import UnitReport, attach_tries, retry_lines, write_report
from .units import PermanentReelError, Reel, ReelError, exit_status


@dataclass(frozen=True)
class Project:
    """The project and the options every reel command of one render takes (absolute paths:
    workers see them at the same place)."""

    path: str
    sets: tuple[str, ...] = ()
    vars_file: str | None = None
    preset: str | None = None

    def args(self) -> list[str]:
        args = [self.path]
        for assignment in self.sets:
            args += ["--set", assignment]
        if self.vars_file:
            args += ["--vars", self.vars_file]
        if self.preset:
            args += ["--preset", self.preset]
        return args


@dataclass(frozen=True)
class Segment:
    """A segment of `reel plan --json`."""

    index: int
    key: str
    start_clock: str
    end_clock: str

    @property
    def part_name(self) -> str:
        return f"{self.key}.reelpart"


@dataclass(frozen=True)
class RenderedPart:
    """What a task sends back: the part's file name and bytes, and where it was made."""

    name: str
    data: bytes
    worker: Worker
    seconds: float


def plan(reel: Reel, project: Project) -> list[Segment]:
    """The segments of the render (`reel plan --json`, on the driver)."""
    listing = json.loads(reel.run(["plan", *project.args(), "--json"]).stdout)
    return [Segment(s["index"], s["key"], s["startClock"], s["endClock"]) for s in listing["segments"]]


@ray.remote
def render_segment(reel: Reel, project: Project, segment: int, log: ray.actor.ActorHandle) -> RenderedPart:
    """Renders one segment into a temporary folder on this node and returns its part."""
    worker = Worker.here()
    attempt = attempts.begin(log, segment, worker)
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="reel-ray-segment-") as folder:
            digests, node_digests = Path(folder) / "digests.json", _node_digests()
            _copy(node_digests, digests)
            done = reel.run(["render", *project.args(), "--segment", str(segment), "--parts", folder,
                             "--progress", "none"], die_with_parent=True)
            _copy(digests, node_digests)
            path = _part_path(done.stdout, segment, folder)
            return RenderedPart(path.name, path.read_bytes(), worker, time.monotonic() - started)
    except ReelError as error:
        attempts.fail(log, segment, attempt, str(error))
        raise


def _node_digests() -> Path:
    """This node's copy of reel's digests.json. reel names the files a part is made from by the
    SHA-256 of their bytes and remembers those digests in its parts folder (by path, device,
    inode, size and modification time); each task renders into a folder of its own, so the
    tasks on a node share this copy: a media file is read whole once per node, not once per
    segment. (Computed in the task: the task function is shipped by value, with its globals.)"""
    return Path(tempfile.gettempdir()) / f"reel-ray-{os.getuid()}" / "digests.json"


def _copy(source: Path, target: Path) -> None:
    """Copies a digests file atomically, if there is one; a copy that fails costs only hashing."""
    with contextlib.suppress(OSError):
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, source.read_bytes())


def _part_path(stdout: str, segment: int, folder: str) -> Path:
    """The part named by reel's `segment K: PATH` line, which must be in the folder."""
    prefix = f"segment {segment}: "
    for line in stdout.splitlines():
        if line.startswith(prefix):
            path = Path(line[len(prefix):])
            if path.parent.resolve() == Path(folder).resolve() and path.is_file():
                return path
    raise PermanentReelError(f"reel render --segment {segment} exited 0 without naming its part in {folder}: {stdout.strip()!r}")


def _received(segment: Segment, outcome: Outcome, folder: Path) -> UnitReport:
    """Checks and saves a segment's part (or records why there is none)."""
    if not outcome.ok:
        return UnitReport(segment.index, "failed", error=outcome.error)
    part: RenderedPart = outcome.result
    report = UnitReport(segment.index, "rendered", worker=part.worker, seconds=part.seconds)
    if part.name != segment.part_name:
        report.status = "failed"
        report.error = (f"node {part.worker.short_node} ({part.worker.hostname}) made {part.name}, but the plan's part is "
                        f"{segment.part_name}: the project, its media, its fonts or reel differ on that node")
        return report
    write_atomically(folder / part.name, part.data)
    return report


def render(reel: Reel, project: Project, output: str, cluster: Cluster,
           parts: str | None = None, report_path: str | None = None) -> int:
    """Renders the project into output on the cluster; returns the exit status. Parts already
    in the parts folder (same key, so same content) are not rendered again."""
    started = time.monotonic()
    segments = plan(reel, project)
    units = {s.index: UnitReport(s.index, "reused") for s in segments if parts and (Path(parts) / s.part_name).is_file()}
    todo = [s for s in segments if s.index not in units]
    print(f"render: {len(segments)} segments, {len(todo)} to render on the cluster"
          + (f", {len(units)} already in {parts}" if parts else ""), flush=True)
    run = Run(cluster) if todo else None
    folder = Path(parts) if parts else Path(tempfile.mkdtemp(prefix="reel-ray-parts-"))
    folder.mkdir(parents=True, exist_ok=True)
    kept = f"the parts made are in {folder} (--parts {folder} renders only the others)"
    try:
        if run is not None:
            units.update(_render_segments(run, reel, project, todo, len(segments), folder))
    except KeyboardInterrupt:
        print(f"render: interrupted; {kept}", file=sys.stderr, flush=True)
        raise
    failed = sorted(u for u, r in units.items() if r.status == "failed")
    if failed:
        status = 1
        print(f"render: {len(failed)} of {len(segments)} segments failed ({_segment_list(failed)}); not joined; {kept}",
              flush=True)
    else:
        status = _join(reel, project, output, folder, units, started)
        if status == 0 and not parts:
            shutil.rmtree(folder, ignore_errors=True)
        elif status != 0:
            print(f"render: the join failed; {kept}", file=sys.stderr, flush=True)
    if report_path:
        write_report(report_path, "render", status, time.monotonic() - started, "segment", units)
    return status


def _segment_list(indexes: list[int]) -> str:
    return ("segment " if len(indexes) == 1 else "segments ") + ", ".join(map(str, indexes))


def _render_segments(run: Run, reel: Reel, project: Project, todo: list[Segment], count: int,
                     folder: Path) -> dict[int, UnitReport]:
    """Renders the segments as tasks, saving each part as it arrives."""
    by_index = {s.index: s for s in todo}
    for segment in todo:
        run.submit(render_segment, segment.index, reel, project)
    units = {}
    for outcome in run.outcomes():
        segment = by_index[outcome.unit]
        report = units[segment.index] = _received(segment, outcome, folder)
        if report.worker is not None and report.status == "rendered":
            print(f"segment {segment.index}/{count} rendered on node {report.worker.short_node} "
                  f"({report.seconds or 0:.1f}s)", flush=True)
        else:
            why = "; permanent, not retried" if outcome.permanent else ""
            print(f"segment {segment.index}/{count} FAILED ({segment.start_clock}–{segment.end_clock}{why}):\n"
                  f"{report.error}", flush=True)
    attach_tries(units, run.tries())
    for line in retry_lines(units, "segment"):
        print(line, flush=True)
    return units


def _join(reel: Reel, project: Project, output: str, folder: Path,
          units: dict[int, UnitReport], started: float) -> int:
    """Joins the parts into the output (on the driver); returns reel join's exit status."""
    try:
        reel.run(["join", *project.args(), "--parts", str(folder), f"--output={output}"])
    except ReelError as error:
        print(error, file=sys.stderr, flush=True)
        return exit_status(error)
    count = len(units)
    nodes = {r.worker.node_id for r in units.values() if r.worker}
    retried = sum(1 for r in units.values() if r.tries and len(r.tries) > 1)
    rendered = sum(1 for r in units.values() if r.status == "rendered")
    print(f"render: {rendered} of {count} segments rendered on {len(nodes)} node{'s' if len(nodes) != 1 else ''}, "
          f"{count - rendered} reused, {retried} retried; joined into {output} in {time.monotonic() - started:.1f}s",
          flush=True)
    return 0
