#!/usr/bin/env python3
"""Load figures for `reel serve` (docs/service.md): renders accepted a second, and the latency of
GET /v1/renders/{id} under many concurrent clients.

    bench/service-load.py URL TOKEN [--clients 200] [--seconds 10] [--posts 100]

URL is a running service whose first media root holds clip.mp4 (any short video). Renders are
posted by 20 clients at once up to --posts (keep it at or under the token's queue limit, 100);
then --clients threads GET one of them, each over its own keep-alive connection, for --seconds.
"""
import argparse, http.client, json, statistics, threading, time, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("url"); parser.add_argument("token")
parser.add_argument("--clients", type=int, default=200); parser.add_argument("--seconds", type=float, default=10)
parser.add_argument("--posts", type=int, default=100)
args = parser.parse_args()
target = urllib.parse.urlparse(args.url)
headers = {"Authorization": "Bearer " + args.token, "Content-Type": "application/json"}
body = json.dumps({"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25}, "media": {"clip": "clip.mp4"},
                               "video": [{"clips": [{"media": "clip", "duration": "1s"}]}]}})

def connection():
    return http.client.HTTPConnection(target.hostname, target.port, timeout=60)

ids, lock = [], threading.Lock()
def post(count):
    c = connection()
    for _ in range(count):
        c.request("POST", "/v1/renders", body=body, headers=headers)
        answer = c.getresponse(); data = answer.read()
        assert answer.status == 202, (answer.status, data[:300])
        with lock: ids.append(json.loads(data)["id"])

start = time.monotonic()
posters = [threading.Thread(target=post, args=(args.posts // 20,)) for _ in range(20)]
for t in posters: t.start()
for t in posters: t.join()
posting = time.monotonic() - start
print(f"accepted {len(ids)} renders in {posting:.2f} s: {len(ids) / posting:.1f} renders/s (20 clients)")

latencies, stop = [], time.monotonic() + args.seconds
def get():
    c, mine = connection(), []
    while time.monotonic() < stop:
        t = time.monotonic()
        c.request("GET", "/v1/renders/" + ids[0], headers=headers)
        answer = c.getresponse(); answer.read()
        assert answer.status == 200, answer.status
        mine.append(time.monotonic() - t)
    with lock: latencies.extend(mine)

getters = [threading.Thread(target=get) for _ in range(args.clients)]
for t in getters: t.start()
for t in getters: t.join()
latencies.sort()
p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
print(f"GET /v1/renders/{{id}}: {len(latencies)} requests by {args.clients} clients in {args.seconds:.0f} s "
      f"({len(latencies) / args.seconds:.0f}/s); median {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {latencies[-1] * 1000:.1f} ms")
