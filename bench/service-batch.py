#!/usr/bin/env python3
"""The service's batch figure (docs/service.md): a 22 s template whose name shows for its first
3 s, rendered for 10 rows as one batch, against one render of it alone, on a fresh service.

    bench/service-batch.py URL TOKEN

URL is a running `reel serve` whose first media root holds clip.mp4 (a video of 22 s or more).
"""
import json, sys, time, urllib.request

url, token = sys.argv[1], sys.argv[2]
headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
project = {"reel": 1, "output": {"size": [1280, 720], "fps": 25}, "media": {"clip": "clip.mp4"},
           "video": [{"clips": [{"media": "clip", "duration": "22s"}]}],
           "vars": {"name": {"type": "string", "default": "Name"}},
           "overlays": [{"text": "{{ name }}", "duration": "3s"}]}

def call(method, path, body=None):
    request = urllib.request.Request(url + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())

def wait(ids):
    while True:
        states = [call("GET", "/v1/renders/" + i)["status"] for i in ids]
        if all(s in ("done", "failed", "cancelled") for s in states):
            assert all(s == "done" for s in states), states
            return
        time.sleep(0.1)

call("PUT", "/v1/templates/bench", {"project": project})
start = time.monotonic()
one = call("POST", "/v1/templates/bench/renders", {"vars": {"name": "Solo"}})
wait([one["id"]])
single = time.monotonic() - start
start = time.monotonic()
batch = call("POST", "/v1/templates/bench/batches", {"rows": [{"name": f"Row {n}"} for n in range(1, 11)]})
ids = [row["render"] for row in batch["rows"]]
wait(ids)
rows = time.monotonic() - start
segments = [call("GET", "/v1/renders/" + i)["segments"] for i in ids]
print(f"one render: {single:.1f} s; 10 rows as one batch: {rows:.1f} s = {rows / single:.2f}x one render")
print("segments per row (rendered/reused):", " ".join(f"{s['rendered']}/{s['reused']}" for s in segments))
