#!/usr/bin/env python3
"""Status requests while reel serve checks large projects.

Usage: bench/service-responsiveness.py REEL [--clips 50000] [--checks 2] [--database URL]

Starts `reel serve` on a fresh data folder (a 2 s lavfi clip in its media root), posts one render,
then posts CHECKS validations of a project with CLIPS clips at once and, while they run, asks for
`GET /healthz` and `GET /v1/renders/{id}` in turn on new connections. Prints the latency
percentiles of those status requests and how long the checks took. Before the check pool
(issue 39), `/healthz` waited 10.9 s behind two 50,000-clip validations.
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time


def request(port, method, path, token, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    headers = {"Authorization": f"Bearer {token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reel")
    parser.add_argument("--clips", type=int, default=50_000)
    parser.add_argument("--checks", type=int, default=2)
    parser.add_argument("--database")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="reel-responsiveness-")
    server = None
    try:
        media = os.path.join(folder, "media")
        os.makedirs(media)
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2",
                        "-f", "lavfi", "-i", "sine=duration=2", "-shortest", os.path.join(media, "clip.mp4")], check=True)
        data = os.path.join(folder, "data")
        database = ["--database", args.database] if args.database else []
        created = subprocess.run([args.reel, "serve", "token", "create", "bench", "--data", data] + database,
                                 check=True, capture_output=True, text=True)
        token = created.stdout.strip().splitlines()[-1]
        server = subprocess.Popen([args.reel, "serve", "--data", data, "--media-root", media, "--listen", "127.0.0.1:0"] + database,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = server.stdout.readline()
        port = int(line.rsplit(":", 1)[1].split()[0])
        small = {"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25}, "media": {"clip": "clip.mp4"},
                             "video": [{"clips": [{"media": "clip", "duration": "2s"}]}]}}
        status, body = request(port, "POST", "/v1/renders", token, json.dumps(small))
        assert status == 202, body
        render = json.loads(body)["id"]
        heavy = dict(small)
        heavy["project"] = dict(small["project"], video=[{"clips": [{"media": "clip", "duration": "1s"}] * args.clips}])
        heavy_body = json.dumps(heavy, separators=(",", ":"))
        running = [args.checks]
        lock = threading.Lock()
        check_seconds = []

        def check():
            started = time.monotonic()
            status, body = request(port, "POST", "/v1/validate", token, heavy_body)
            check_seconds.append(time.monotonic() - started)
            assert status == 200, body[:300]
            with lock:
                running[0] -= 1

        threads = [threading.Thread(target=check) for _ in range(args.checks)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        latencies = {"/healthz": [], f"/v1/renders/{render}": []}
        while True:
            with lock:
                if running[0] < args.checks:
                    break
            for path, samples in latencies.items():
                started = time.monotonic()
                status, _ = request(port, "GET", path, token)
                assert status == 200
                samples.append(time.monotonic() - started)
        for thread in threads:
            thread.join()
        print(f"{args.checks} checks of {args.clips} clips ({len(heavy_body) / 1e6:.2f} MB each) took "
              + ", ".join(f"{s:.1f} s" for s in check_seconds))
        for path, samples in latencies.items():
            ms = [s * 1000 for s in samples]
            print(f"GET {path.split('/r_')[0] + ('/{id}' if '/r_' in path else '')}: {len(ms)} requests while the checks ran, "
                  f"p50 {percentile(ms, 50):.1f} ms, p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms")
    finally:
        if server:
            server.terminate()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
