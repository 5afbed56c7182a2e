"""`reel batch` on a Ray cluster: the plan on the driver, one task per row on the workers
(`reel batch --shard ROW-1/ROWS`), which write the outputs to shared storage."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass

import ray

from . import attempts
from .attempts import Worker
from .cluster import Cluster, Run
from .report import UnitReport, attach_tries, retry_lines, write_report
from .units import Reel, ReelError


@dataclass(frozen=True)
class Batch:
    """The template project, its rows and the output template (absolute paths: workers see
    them at the same place), with the options every reel batch of the run takes."""

    project: str
    data: str
    template: str
    force: bool = False
    preset: str | None = None

    def args(self) -> list[str]:
        args = [self.project, "--data", self.data, f"--output={self.template}"]
        if self.force:
            args.append("--force")
        if self.preset:
            args += ["--preset", self.preset]
        return args


@dataclass(frozen=True)
class RenderedRow:
    """What a task sends back: the row's status as reel batch printed it, and where it ran."""

    status: str
    worker: Worker
    seconds: float


@ray.remote
def render_row(reel: Reel, batch: Batch, rows: int, row: int, log: ray.actor.ActorHandle) -> RenderedRow:
    """Renders one row (shard row-1 of rows) on this node, writing its output where the
    template says."""
    worker = Worker.here()
    attempt = attempts.begin(log, row, worker)
    started = time.monotonic()
    try:
        done = reel.run(["batch", *batch.args(), "--shard", f"{row - 1}/{rows}", "--jobs", "1"], die_with_parent=True)
    except ReelError as error:
        attempts.fail(log, row, attempt, str(error))
        raise
    status = "up to date" if f"row {row}: up to date" in done.stdout else "rendered"
    return RenderedRow(status, worker, time.monotonic() - started)


def _row_list(rows: list[int]) -> str:
    """`row 4`, `rows 4, 5`, or the first 20 and `and 980 more` (as reel batch says it)."""
    shown = ", ".join(map(str, rows[:20]))
    return ("row " if len(rows) == 1 else "rows ") + shown + (f" and {len(rows) - 20} more" if len(rows) > 20 else "")


def batch(reel: Reel, job: Batch, cluster: Cluster, report_path: str | None = None) -> int:
    """Renders every valid row that is not up to date on the cluster; returns the exit status
    reel batch would: 0 all rendered or up to date, 1 a row failed, else the worst invalid row's."""
    started = time.monotonic()
    listing = json.loads(reel.run(["batch", *job.args(), "--plan", "--json"]).stdout)
    units: dict[int, UnitReport] = {}
    invalid = [r for r in listing["rows"] if r["status"] == "invalid"]
    for row in invalid:
        units[row["row"]] = UnitReport(row["row"], "invalid", error="\n".join(row["errors"]))
        print("\n".join(row["errors"]), file=sys.stderr)
    if invalid:
        print(f"\n{len(invalid)} row{'s' if len(invalid) > 1 else ''} skipped because of the errors above: "
              f"{_row_list([r['row'] for r in invalid])}", file=sys.stderr, flush=True)
    for row in listing["rows"]:
        if row["status"] == "up to date":
            units[row["row"]] = UnitReport(row["row"], "up to date", output=row["output"])
            print(f"row {row['row']}: up to date {row['output']}", flush=True)
    todo = {r["row"]: r["output"] for r in listing["rows"] if r["status"] == "render"}
    if todo:
        units.update(_render_rows(reel, job, listing["rowCount"], todo, cluster))

    def rows(status: str) -> list[int]:
        return sorted(u for u, r in units.items() if r.status == status)

    failed, bad = rows("failed"), rows("invalid")
    print(f"batch: {len(rows('rendered'))} rendered, {len(rows('up to date'))} up to date, "
          f"{len(failed)} failed{f' ({_row_list(failed)})' if failed else ''}, "
          f"{len(bad)} invalid{f' ({_row_list(bad)})' if bad else ''}, {time.monotonic() - started:.1f}s", flush=True)
    status = 1 if failed else max((r["exitStatus"] for r in invalid), default=0)
    if report_path:
        write_report(report_path, "batch", status, time.monotonic() - started, "row", units)
    return status


def _render_rows(reel: Reel, job: Batch, row_count: int, todo: dict[int, str],
                 cluster: Cluster) -> dict[int, UnitReport]:
    """Renders the rows (number: output) as tasks."""
    run = Run(cluster)
    for row in todo:
        run.submit(render_row, row, reel, job, row_count)
    units = {}
    for outcome in run.outcomes():
        row, output = outcome.unit, todo[outcome.unit]
        if outcome.ok:
            done: RenderedRow = outcome.result
            units[row] = UnitReport(row, done.status, output, done.worker, done.seconds)
            print(f"row {row}: {done.status} {output} on node {done.worker.short_node} ({done.seconds:.1f}s)", flush=True)
        else:
            units[row] = UnitReport(row, "failed", output, error=outcome.error)
            print(f"row {row}: FAILED {output}\n{outcome.error}", flush=True)
    attach_tries(units, run.tries())
    for line in retry_lines(units, "row"):
        print(line, flush=True)
    return units
