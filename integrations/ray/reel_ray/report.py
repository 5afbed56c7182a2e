"""The per-unit facts of a run, as printed lines and as a JSON report (--report)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .attempts import Worker
from .files import write_atomically


@dataclass
class UnitReport:
    """One unit (a segment or a row): how it ended, where and how long its last try ran, and
    every try when the attempt log knows them."""

    unit: int
    status: str
    output: str | None = None
    worker: Worker | None = None
    seconds: float | None = None
    tries: list[dict] | None = None
    error: str | None = None

    def as_json(self, unit_name: str) -> dict:
        facts = {
            unit_name: self.unit,
            "status": self.status,
            "nodeId": self.worker.node_id if self.worker else None,
            "hostname": self.worker.hostname if self.worker else None,
            "pid": self.worker.pid if self.worker else None,
            "seconds": round(self.seconds, 3) if self.seconds is not None else None,
            "attempts": len(self.tries) if self.tries is not None else None,
            "tries": self.tries,
            "error": self.error,
        }
        if self.output is not None:
            facts["output"] = self.output
        return facts


def attach_tries(units: dict[int, UnitReport], tries: dict[int, list[dict]] | None) -> None:
    """Gives each unit that ran its tries from the attempt log (left unknown without one)."""
    if tries is None:
        return
    for unit, report in units.items():
        if unit in tries:
            report.tries = tries[unit]


def retry_lines(units: dict[int, UnitReport], unit_name: str) -> list[str]:
    """`segment 3: 2 tries: try 1 on node 1a2b3c4d (pid 812): the worker died`, for every unit
    tried more than once."""
    lines = []
    for report in units.values():
        if not report.tries or len(report.tries) < 2:
            continue
        said = []
        for t in report.tries:
            if t["error"]:
                ending = t["error"].splitlines()[0]
            elif t is report.tries[-1] and report.worker is not None:
                ending = "done"
            else:
                ending = "the worker died"
            said.append(f"try {t['attempt']} on node {t['nodeId'][:8]} (pid {t['pid']}): {ending}")
        lines.append(f"{unit_name} {report.unit}: {len(report.tries)} tries: " + "; ".join(said))
    return lines


def write_report(path: str, command: str, exit_status: int, seconds: float,
                 unit_name: str, units: dict[int, UnitReport]) -> None:
    """Writes the JSON report atomically."""
    document = {
        "command": command,
        "exitStatus": exit_status,
        "seconds": round(seconds, 3),
        "units": [units[u].as_json(unit_name) for u in sorted(units)],
    }
    write_atomically(Path(path).absolute(), (json.dumps(document, indent=2) + "\n").encode())
