"""Cross-checks Reel's EDL and OpenTimelineIO import and export with OpenTimelineIO itself.

Usage: crosscheck.py REEL_BINARY TESTDATA_DIR WORK_DIR
For every fixture:
  1. the clip list Reel reads (reel import --list-json) equals what OpenTimelineIO's reader
     (.otio) or CMX 3600 adapter (.edl) gives: per track, each clip's name, source range and
     record range in frames;
  2. reel import, then reel export to .otio and .edl: OpenTimelineIO reads each exported file
     and gives the clip list Reel reads from it, and importing the exported file gives the same
     project as the first import (comments aside).
Exits 1 on any difference. A fixture OpenTimelineIO itself cannot read is reported, not compared.
"""
import json
import pathlib
import subprocess
import sys
from fractions import Fraction

import otio_clips
import opentimelineio as otio

# The rate each EDL was made at (an EDL does not say); 24 otherwise, as the adapter's default.
EDL_RATES = {"25fps.edl": 25, "timecode_mismatch.edl": 25}


def reel(binary, *args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"reel {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def reel_listing(binary, path, rate):
    args = ["import", str(path), "--list-json"] + (["--fps", str(rate)] if str(path).endswith(".edl") else [])
    return json.loads(reel(binary, *args))


def otio_listing(path, rate):
    if str(path).endswith(".edl"):
        timeline = otio.adapters.read_from_file(str(path), adapter_name="cmx_3600", rate=rate)
    else:
        timeline = otio.adapters.read_from_file(str(path))
    return otio_clips.listing(timeline, rate)


def clip_name(name):
    # The CMX 3600 adapter drops a trailing " FF" (freeze frame) from the names of freeze-frame
    # events it turns into FreezeFrame effects; Reel keeps the name as written.
    return name[:-3] if name.endswith(" FF") else name


def clips(listing):
    return [(t["kind"], [(clip_name(c["name"]), c["source"], c["record"]) for c in t["clips"]]) for t in listing["tracks"]]


# Where OpenTimelineIO's CMX 3600 adapter reads less than the EDL says.
KNOWN = {"multi_audio.edl": "the adapter ignores the AUD line (audio channel 3): only the tracks it reads are compared"}


def from_track_start(tracks):
    """Record ranges counted from each track's first clip: the CMX 3600 adapter starts every
    track at its first event, dropping the leading gap of a track that starts later."""
    result = []
    for kind, items in tracks:
        first = Fraction(items[0][2][0]) if items else 0
        result.append((kind, [(n, s, [str(Fraction(r[0]) - first), r[1]]) for n, s, r in items]))
    return result


def compare(what, ours, theirs, edl=False):
    """Differences between Reel's and OpenTimelineIO's clip lists, as lines."""
    a, b = clips(ours), clips(theirs)
    if edl:
        a, b = from_track_start(a), from_track_start(b)
    if len(a) > len(b) and what in KNOWN:
        print(f"notice: {what}: {KNOWN[what]}")
        a = a[:len(b)]
    problems = []
    if len(a) != len(b):
        problems.append(f"{what}: Reel reads {len(a)} tracks, OpenTimelineIO {len(b)}")
    for i, ((kind_a, list_a), (kind_b, list_b)) in enumerate(zip(a, b)):
        if kind_a != kind_b:
            problems.append(f"{what}: track {i}: Reel {kind_a}, OpenTimelineIO {kind_b}")
        if len(list_a) != len(list_b):
            problems.append(f"{what}: track {i}: Reel reads {len(list_a)} clips, OpenTimelineIO {len(list_b)}")
        for j, (x, y) in enumerate(zip(list_a, list_b)):
            if x != y:
                problems.append(f"{what}: track {i} clip {j}: Reel {x} != OpenTimelineIO {y}")
    return problems


def without_markers(value):
    if isinstance(value, dict):
        return {k: ([] if k == "markers" else without_markers(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [without_markers(v) for v in value]
    return value


def project_body(path):
    """The project without comments: what two imports must agree on."""
    lines = []
    for line in pathlib.Path(path).read_text().splitlines():
        if line.lstrip().startswith("#"):
            continue
        lines.append(line.split("  # ")[0].rstrip())
    return "\n".join(lines)


def main():
    binary, testdata, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    fixtures = sorted((testdata / "otio/tests/sample_data").glob("*.otio")) + sorted((testdata / "cmx3600-edl/tests/sample_data").glob("*"))
    fixtures = [f for f in fixtures if f.suffix in (".otio", ".edl")]
    failures, compared, notices = [], 0, []
    for fixture in fixtures:
        rate = EDL_RATES.get(fixture.name, 24)
        name = fixture.name
        ours = reel_listing(binary, fixture, rate)
        rate = float(ours["rate"].split("/")[0]) / float(ours["rate"].split("/")[1]) if "/" in ours["rate"] else float(ours["rate"])
        try:
            if "Marker.3" in fixture.read_text(errors="replace"):
                # Marker.3 is newer than any OpenTimelineIO release (0.18.1 refuses it); markers are
                # not part of the clip list, so the reference reads a copy without them.
                copy = work / ("no-markers-" + fixture.name)
                copy.write_text(json.dumps(without_markers(json.loads(fixture.read_text()))))
                notices.append(f"{name}: OpenTimelineIO reads it without its Marker.3 markers")
                theirs = otio_listing(copy, rate)
            else:
                theirs = otio_listing(fixture, rate)
        except Exception as error:  # the reference refuses the file: nothing to compare with
            notices.append(f"{name}: OpenTimelineIO cannot read it ({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); Reel: {len(ours['warnings'])} warnings")
            theirs = None
        if theirs is not None:
            failures += compare(name, ours, theirs, edl=fixture.suffix == ".edl")
            compared += 1
        # Round trip through Reel's own export, read back by OpenTimelineIO and by Reel.
        project = work / (fixture.stem + ".yaml")
        extra = ["--fps", str(EDL_RATES.get(fixture.name, 24))] if fixture.suffix == ".edl" else []
        reel(binary, "import", str(fixture), "-o", str(project), *extra)
        for ext in ("otio", "edl"):
            exported = work / f"{fixture.stem}.exported.{ext}"
            reel(binary, "export", str(project), "-o", str(exported))
            fps = ours["rate"]
            back = reel_listing(binary, exported, fps) if ext == "edl" else reel_listing(binary, exported, None)
            r = float(back["rate"].split("/")[0]) / float(back["rate"].split("/")[1]) if "/" in back["rate"] else float(back["rate"])
            failures += compare(f"{name} exported as .{ext}", back, otio_listing(exported, r), edl=ext == "edl")
            again = work / f"{fixture.stem}.again.{ext}.yaml"
            reel(binary, "import", str(exported), "-o", str(again), *(["--fps", fps] if ext == "edl" else []))
            # The round trip in the fixture's own format must give the same project.
            if fixture.suffix == "." + ext and project_body(again) != project_body(project):
                failures.append(f"{name}: import → export .{ext} → import changed the project ({again})")
    for notice in notices:
        print("notice:", notice)
    for failure in failures:
        print("FAIL:", failure)
    print(f"cross-check: {len(fixtures)} fixtures, {compared} compared with OpenTimelineIO's readers, each exported as .otio and .edl and read back; {len(failures)} differences")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
