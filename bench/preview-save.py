#!/usr/bin/env python3
"""Save → new picture in `reel preview`: starts the preview of PROJECT (a YAML file whose
overlay says `text: Title`), then EDITS times changes that text, saves the file (write and
rename, as editors do) and times until the page's state has the new generation and its still
at 2 s (inside the overlay) has arrived. Prints the first load's seconds, then the best and
the worst save → picture seconds. The file is left as it was.

    bench/preview-save.py REEL PROJECT [EDITS]      (3 by default)
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

reel, project = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
edits = int(sys.argv[3]) if len(sys.argv) > 3 else 3
original = open(project).read()
assert "text: Title," in original, "the project's overlay must say `text: Title`"
cache = tempfile.mkdtemp(prefix="reel-preview-save-")
started = time.perf_counter()
server = subprocess.Popen([reel, "preview", project, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          env=dict(os.environ, REEL_CACHE_DIR=cache))
url = re.search(r"http://[^ ]+/", server.stdout.readline()).group(0)


def get(path, timeout=120):
    return urllib.request.urlopen(url + path.lstrip("/"), timeout=timeout).read()


def picture(state):
    """The still at 2 s of the state's generation."""
    frame = round(2 * state["frameDuration"][1] / state["frameDuration"][0])
    return get(f"frame/{state['generation']}/{frame}.png")


def next_generation(state):
    while True:
        state = json.loads(get(f"api/state?after={state['version']}"))
        if state.get("diagnostics"):
            sys.exit("the preview shows problems:\n" + state["diagnostics"])
        if state.get("generation"):
            return state


try:
    state = next_generation({"version": -1, "generation": None})
    picture(state)
    print(f"first picture: {time.perf_counter() - started:.2f} s", flush=True)
    times = []
    for i in range(1, edits + 1):
        before = state["generation"]
        start = time.perf_counter()
        with open(project + ".saving", "w") as f:
            f.write(original.replace("text: Title,", f"text: Title {i},", 1))
        os.replace(project + ".saving", project)
        while state["generation"] == before:
            state = next_generation(state)
        picture(state)
        times.append(time.perf_counter() - start)
        print(f"save {i}: {times[-1]:.2f} s", flush=True)
    print(f"save → picture: best {min(times):.2f} s, worst {max(times):.2f} s")
finally:
    server.send_signal(signal.SIGINT)
    server.wait(30)
    with open(project + ".saving", "w") as f:
        f.write(original)
    os.replace(project + ".saving", project)
    subprocess.run(["rm", "-rf", cache])
