#!/usr/bin/env python3
"""The service's memory over many renders posted (docs/service.md): starts `reel serve` on a fresh
data folder (SQLite, or PostgreSQL with --database), posts --renders renders (each other vars, so
none is a repeat) from 20 clients through a token per 100 renders (a token may have 100 waiting), while
one worker renders them, and prints the service's resident memory after every tenth of them. With
--rendered, each tenth is also rendered (every render done, each in a child `reel render`) before
the memory is read.

    bench/service-memory.py path/to/reel [--renders 10000] [--database postgres://…] [--rendered]
"""
import argparse, http.client, json, os, subprocess, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("reel"); parser.add_argument("--renders", type=int, default=10000)
parser.add_argument("--database")
parser.add_argument("--rendered", action="store_true")
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="reel-memory-")
media, data = os.path.join(work, "media"), os.path.join(work, "data")
os.makedirs(media)
subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=1",
                os.path.join(media, "clip.mp4")], check=True)
database = ["--database", args.database] if args.database else []
tokens = [subprocess.run([args.reel, "serve", "token", "create", f"t{n}", "--data", data, *database], capture_output=True,
                         text=True, check=True).stdout.strip().splitlines()[-1] for n in range((args.renders + 99) // 100)]
service = subprocess.Popen([args.reel, "serve", "--data", data, *database, "--listen", "127.0.0.1:0", "--media-root", media,
                            "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
port = int(service.stdout.readline().split("http://127.0.0.1:")[1].split()[0])

def rss_mib():
    with open(f"/proc/{service.pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024

def body(n):
    return json.dumps({"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25}, "media": {"clip": "clip.mp4"},
                                   "vars": {"n": "0"}, "video": [{"clips": [{"media": "clip", "duration": "1s"}]}],
                                   "overlays": [{"text": "{{ n }}", "duration": "1s"}]},
                       "vars": {"n": str(n)}, "metadata": {"order": n}})

counter, lock = iter(range(args.renders)), threading.Lock()
def post(client):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while True:
        with lock:
            n = next(counter, None)
        if n is None:
            return
        c.request("POST", "/v1/renders", body=body(n), headers={"Authorization": "Bearer " + tokens[n % len(tokens)],
                                                               "Content-Type": "application/json"})
        answer = c.getresponse(); text = answer.read()
        assert answer.status == 202, (answer.status, text[:300])

def done():
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", "/metrics")
    text = c.getresponse().read().decode()
    return int(next(line.split()[1] for line in text.splitlines() if line.startswith('reel_renders{status="done"}')))

print(f"{'posted':>8} {'RSS MiB':>8} {'seconds':>8}")
print(f"{0:>8} {rss_mib():>8.1f} {0:>8.1f}")
start, step = time.monotonic(), args.renders // 10
for tenth in range(10):
    counter = iter(range(tenth * step, (tenth + 1) * step))
    clients = [threading.Thread(target=post, args=(c,)) for c in range(20)]
    for t in clients: t.start()
    for t in clients: t.join()
    while args.rendered and done() < (tenth + 1) * step:
        time.sleep(0.2)
    print(f"{(tenth + 1) * step:>8} {rss_mib():>8.1f} {time.monotonic() - start:>8.1f}", flush=True)
service.terminate(); service.wait()
subprocess.run(["rm", "-rf", work])
