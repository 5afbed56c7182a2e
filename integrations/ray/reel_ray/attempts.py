"""Which worker tried each unit, and how each try ended.

Ray retries a task without telling the driver, so each try records itself in a small actor
that the driver reads at the end. The log is best effort: if its actor is lost, the run goes
on and the attempts are reported as unknown.
"""

from __future__ import annotations

import contextlib
import os
import socket
from dataclasses import dataclass

import ray
from ray.exceptions import RayError


@dataclass(frozen=True)
class Worker:
    """Where a try ran: the Ray node, its host name and the worker's process id."""

    node_id: str
    hostname: str
    pid: int

    @staticmethod
    def here() -> Worker:
        return Worker(ray.get_runtime_context().get_node_id(), socket.gethostname(), os.getpid())

    @property
    def short_node(self) -> str:
        return self.node_id[:8]


@ray.remote(num_cpus=0)
class AttemptLog:
    """Every try at every unit of one run: the worker and, for a try that failed in reel, the
    error (a try without an error and without a result is one whose worker died)."""

    def __init__(self) -> None:
        self._tries: dict[int, list[dict]] = {}

    def begin(self, unit: int, worker: Worker) -> int:
        tries = self._tries.setdefault(unit, [])
        tries.append({"attempt": len(tries) + 1, "nodeId": worker.node_id, "hostname": worker.hostname,
                      "pid": worker.pid, "error": None})
        return len(tries)

    def fail(self, unit: int, attempt: int, error: str) -> None:
        self._tries[unit][attempt - 1]["error"] = error

    def tries(self) -> dict[int, list[dict]]:
        return self._tries


def begin(log: ray.actor.ActorHandle, unit: int, worker: Worker) -> int | None:
    """Records the start of a try (in the task); its number, or None if the log is lost."""
    try:
        return ray.get(log.begin.remote(unit, worker))
    except RayError:
        return None


def fail(log: ray.actor.ActorHandle, unit: int, attempt: int | None, error: str) -> None:
    """Records why a try failed (in the task), if its start was recorded."""
    if attempt is None:
        return
    with contextlib.suppress(RayError):
        ray.get(log.fail.remote(unit, attempt, error))


def read(log: ray.actor.ActorHandle) -> dict[int, list[dict]] | None:
    """Every unit's tries (on the driver), or None if the log is lost."""
    try:
        return ray.get(log.tries.remote(), timeout=30)
    except RayError:
        return None
