#!/usr/bin/env python3
"""An hour of editing in a few minutes: `reel preview` on a copy of the promo takes N saved
edits of the title (each waited for, its still fetched, every 25th edit a playback piece
too) and prints the server's resident memory as it goes.

    bench/preview-edits.py [REEL] [EDITS]      (default .build/release/reel, 500)
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
reel = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/reel"))
edits = int(sys.argv[2]) if len(sys.argv) > 2 else 500
work = tempfile.mkdtemp(prefix="reel-preview-edits-")
project = os.path.join(work, "project.yaml")
original = open(os.path.join(root, "Examples/promo/project.yaml")).read()
shutil.copy(os.path.join(root, "Examples/promo/project.yaml"), project)
os.symlink(os.path.join(root, "Examples/promo/media"), os.path.join(work, "media"))
server = subprocess.Popen([reel, "preview", project, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          env=dict(os.environ, REEL_CACHE_DIR=os.path.join(work, "cache")))
url = re.search(r"http://[^ ]+/", server.stdout.readline()).group(0)


def get(path, timeout=60):
    return urllib.request.urlopen(url + path.lstrip("/"), timeout=timeout).read()


def rss_mib():
    status = open(f"/proc/{server.pid}/status").read()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024


try:
    state = json.loads(get("api/state"))
    print(f"edit    0: {rss_mib():6.1f} MiB", flush=True)
    start = time.time()
    for i in range(1, edits + 1):
        text = original.replace("headline: Spring Sale", f"headline: Edit {i}")
        with open(project + ".saving", "w") as f:
            f.write(text)
        os.replace(project + ".saving", project)
        while True:  # the state that shows this edit
            state = json.loads(get(f"api/state?after={state['version']}"))
            if any(v["value"] == f"Edit {i}" for v in state["vars"]):
                break
        get(f"frame/{state['generation']}/60.png")
        if i % 25 == 0:
            get(f"piece/{state['segments'][0]['key']}.mp4", timeout=120)
        if i % 50 == 0:
            print(f"edit {i:4d}: {rss_mib():6.1f} MiB ({time.time() - start:.0f} s)", flush=True)
finally:
    server.send_signal(signal.SIGINT)
    server.wait(30)
    shutil.rmtree(work, ignore_errors=True)
