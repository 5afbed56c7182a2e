"""Lists the clips of an OTIO timeline or a CMX 3600 EDL as OpenTimelineIO reads them.

Usage: otio_clips.py FILE [--rate R]  -> JSON on stdout:
  {"tracks": [{"kind": "Video", "clips": [{"name", "source": [start, duration], "record": [start, duration]}]}]}
Times are frames at the clip's own rate (source) and the track's rate (record), exact as fractions "n/d" when not whole.
"""
import json
import sys
from fractions import Fraction

import opentimelineio as otio


def frames(t, rate):
    """A RationalTime as an exact frame count at `rate` (a string 'n/d' when not whole)."""
    v = Fraction(t.value).limit_denominator(1_000_000) * Fraction(rate).limit_denominator(1001) / Fraction(t.rate).limit_denominator(1001)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def listing(timeline, rate):
    tracks = []
    for track in timeline.tracks:
        if not isinstance(track, otio.schema.Track):
            continue
        clips = []
        for child in track:
            # A disabled clip is not played: Reel imports it as a gap.
            if not isinstance(child, otio.schema.Clip) or not child.enabled:
                continue
            sr = child.source_range if child.source_range is not None else child.available_range()
            rr = child.range_in_parent()
            clips.append({"name": child.name,
                          "source": [frames(sr.start_time, rate), frames(sr.duration, rate)],
                          "record": [frames(rr.start_time, rate), frames(rr.duration, rate)]})
        tracks.append({"kind": str(track.kind), "clips": clips})
    return {"tracks": tracks}


def main():
    path = sys.argv[1]
    rate = float(sys.argv[sys.argv.index("--rate") + 1]) if "--rate" in sys.argv else 24
    if path.endswith(".edl"):
        timeline = otio.adapters.read_from_file(path, adapter_name="cmx_3600", rate=rate)
    else:
        timeline = otio.adapters.read_from_file(path)
    json.dump(listing(timeline, rate), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
