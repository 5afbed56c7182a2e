"""`python -m reel_ray render|batch`: the command line."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from .batch import Batch, batch
from .cluster import Cluster, ClusterUnavailable
from .render import Project, render
from .units import Reel, ReelError, exit_status

BAD_USAGE = 64
CLUSTER_UNAVAILABLE = 69
PRESETS = ["1080p", "720p", "480p", "highest", "medium", "low", "preview"]


class _Parser(argparse.ArgumentParser):
    """Bad usage exits 64, as reel's does."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(BAD_USAGE, f"{self.prog}: error: {message}\n")


def _absolute(path: str) -> str:
    """The path as workers must see it: absolute, and otherwise as written (no `..` folded)."""
    return path if os.path.isabs(path) else os.path.join(os.getcwd(), path)


def _reel(executable: str) -> Reel:
    """A path (with a slash) is made absolute; a bare name is looked up on each node's PATH."""
    return Reel(_absolute(executable) if os.sep in executable else executable)


def _parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--address", default="auto",
                        help="Ray cluster address (default: auto, the cluster of `ray start` here or $RAY_ADDRESS)")
    common.add_argument("--reel", default="reel",
                        help="the reel executable: a path (the same on every node) or a name on each node's PATH")
    common.add_argument("--preset", choices=PRESETS, help="replace the output settings by a preset")
    common.add_argument("--max-retries", type=int, default=3,
                        help="tries after the first for a unit that fails retryably or whose worker dies (default 3)")
    common.add_argument("--num-cpus", type=float, default=1, help="CPUs each task reserves (default 1)")
    common.add_argument("--report", metavar="FILE.json", help="write the per-unit facts of the run as JSON")

    parser = _Parser(prog="python -m reel_ray", description="Run Reel's units of work on a Ray cluster.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    r = commands.add_parser("render", parents=[common], help="render a project, one task per segment",
                            description="Plan here, render each segment as a Ray task, join here.")
    r.add_argument("project")
    r.add_argument("-o", "--output", required=True, help="the output file (written here, by reel join)")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="override a var")
    r.add_argument("--vars", metavar="FILE", help="var values from a JSON or YAML file")
    r.add_argument("--parts", metavar="DIR",
                   help="keep the parts in this folder (default: a temporary folder, removed after the join); "
                        "parts already there are not rendered again")

    b = commands.add_parser("batch", parents=[common], help="render a template once per row, one task per row",
                            description="Plan here, render each valid row as a Ray task (reel batch --shard).")
    b.add_argument("project")
    b.add_argument("--data", required=True, metavar="ROWS", help="the rows: .csv, .json, .yaml or .jsonl")
    b.add_argument("-o", "--output", required=True, metavar="TEMPLATE",
                   help='output path template, e.g. "out/{{ id }}.mp4": written by the workers, so on shared storage')
    b.add_argument("--force", action="store_true", help="render every row, even when its output is up to date")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.max_retries < 0 or args.num_cpus < 0:
        print("error: --max-retries and --num-cpus may not be negative", file=sys.stderr)
        return BAD_USAGE
    reel = _reel(args.reel)
    cluster = Cluster(args.address, args.num_cpus, args.max_retries)
    try:
        if args.command == "render":
            project = Project(_absolute(args.project), tuple(args.set),
                              _absolute(args.vars) if args.vars else None, args.preset)
            return render(reel, project, args.output, cluster, args.parts, args.report)
        job = Batch(_absolute(args.project), _absolute(args.data), _absolute(args.output), args.force, args.preset)
        return batch(reel, job, cluster, args.report)
    except ReelError as error:
        print(error, file=sys.stderr)
        return exit_status(error)
    except ClusterUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return CLUSTER_UNAVAILABLE
    except KeyboardInterrupt:
        return 130
