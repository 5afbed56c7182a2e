"""Two `reel serve` nodes on one PostgreSQL queue (issue 30's proof), with the real binary.

  python3 Tests/service/multinode_test.py path/to/reel

Needs REEL_TEST_POSTGRES_URL (Tests/service/postgres.sh start prints it) and the ffmpeg CLI.
Both nodes share one data folder (outputs and segment cache) and one database (in a schema of
its own). 50 renders, each with other vars (so none is reused whole from the cache), are posted
across both nodes with a webhook each; node A is killed with SIGKILL while it renders. Then:

- every render is done, and was rendered to the end exactly once: one "done" per render in the
  two logs together, one "rendering on" per render, except the render A was killed in, which B
  took after A's lease ran out (never while A lived: B's log had not taken it when A died);
- every render's `render.done` webhook arrived, correctly signed (a repeat keeps its
  Reel-Delivery id);
- the render A was killed in has the bytes `reel render` gives for the same project and vars;
- node B stops cleanly on SIGTERM (exit 0).
"""
import atexit
import hashlib
import hmac
import http.server
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

LEASE = 3
RENDERS = 50


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver(http.server.BaseHTTPRequestHandler):
    """Records each webhook delivery: (Reel-Delivery, type, render id, signature valid)."""
    secret = "multinode-secret-0123456789"
    deliveries = []
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        stamp = dict(part.split("=", 1) for part in self.headers["Reel-Signature"].split(","))
        expected = hmac.new(self.secret.encode(), stamp["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
        message = json.loads(body)
        with Receiver.lock:
            Receiver.deliveries.append((self.headers["Reel-Delivery"], message["type"], message["render"]["id"],
                                        hmac.compare_digest(expected, stamp["v1"])))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def call(method, url, token, body=None, headers=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=30) as answer:
        data = answer.read()
        return answer.status, (json.loads(data) if answer.headers.get_content_type() == "application/json" else data)


def project():
    return {"reel": 1, "output": {"size": [160, 90], "fps": 25},
            "media": {"clip": "clip.mp4"},
            "vars": {"headline": "x"},
            "video": [{"clips": [{"media": "clip", "duration": "2s"}]}],
            "overlays": [{"text": "{{ headline }}", "duration": "2s"}]}


def main():
    reel = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/reel")
    base = os.environ.get("REEL_TEST_POSTGRES_URL")
    if not base:
        sys.exit("multinode_test.py: REEL_TEST_POSTGRES_URL is not set (eval \"$(Tests/service/postgres.sh start)\")")
    work = tempfile.mkdtemp(prefix="reel-multinode-")
    media, data = os.path.join(work, "media"), os.path.join(work, "data")
    os.makedirs(media)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2",
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-shortest", os.path.join(media, "clip.mp4")], check=True)
    schema = "multinode_" + uuid.uuid4().hex[:10]
    subprocess.run(["psql", base, "-q", "-c", f"CREATE SCHEMA {schema}"], check=True)
    database = f"{base}?options=-c%20search_path%3D{schema}"

    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook = f"http://127.0.0.1:{receiver.server_address[1]}/hook"

    created = subprocess.run([reel, "serve", "token", "create", "alice", "--data", data, "--database", database],
                             capture_output=True, text=True, check=True)
    token = created.stdout.strip().splitlines()[-1]

    nodes = {}
    for name in ("a", "b"):
        port = free_port()
        log = open(os.path.join(work, f"{name}.log"), "w+")
        process = subprocess.Popen([reel, "serve", "--data", data, "--database", database, "--listen", f"127.0.0.1:{port}",
                                    "--media-root", media, "--lease", f"{LEASE}s", "--allow-private-network"],
                                   stdout=subprocess.DEVNULL, stderr=log)
        # A failed check leaves no node running.
        atexit.register(lambda process=process: process.poll() is None and process.kill())
        nodes[name] = {"url": f"http://127.0.0.1:{port}", "process": process, "log": log.name, "port": port}
    for node in nodes.values():
        for _ in range(200):
            try:
                urllib.request.urlopen(node["url"] + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit(f"a node did not start: {open(node['log']).read()}")

    ids = []
    for n in range(RENDERS):
        node = nodes["ab"[n % 2]]
        status, render = call("POST", node["url"] + "/v1/renders", token,
                              {"project": project(), "vars": {"headline": f"Render {n}"}, "webhook": {"url": hook, "secret": Receiver.secret}},
                              {"Idempotency-Key": f"render-{n}"})
        assert status == 202, (status, render)
        ids.append(render["id"])

    def log_lines(name):
        with open(nodes[name]["log"]) as f:
            return f.read().splitlines()

    # Kill A while it renders, after it has finished a few renders.
    killed_in = None
    deadline = time.time() + 300
    while killed_in is None:
        assert time.time() < deadline, "node A never rendered"
        lines = log_lines("a")
        done = sum(1 for line in lines if line.endswith(": done"))
        last = lines[-1] if lines else ""
        match = re.search(r"(r_[0-9a-f]+): rendering on ", last)
        if done >= 5 and match:
            nodes["a"]["process"].send_signal(signal.SIGKILL)
            nodes["a"]["process"].wait()
            killed_in = match.group(1)
        time.sleep(0.02)
    b_at_kill = log_lines("b")
    print(f"node A killed while rendering {killed_in}, after {done} renders")

    b = nodes["b"]["url"]
    deadline = time.time() + 600
    while True:
        statuses = [call("GET", f"{b}/v1/renders/{id}", token)[1]["status"] for id in ids]
        if all(s in ("done", "failed", "cancelled") for s in statuses):
            break
        assert time.time() < deadline, f"renders not finished: {statuses}"
        time.sleep(0.5)
    if statuses != ["done"] * RENDERS:
        ended = [(id, status, call("GET", f"{b}/v1/renders/{id}", token)[1].get("error")) for id, status in zip(ids, statuses) if status != "done"]
        sys.exit(f"renders not done (A was killed in {killed_in}): {ended}")

    a_lines, b_lines = log_lines("a"), log_lines("b")
    both = a_lines + b_lines
    for id in ids:
        finished = sum(1 for line in both if line.endswith(f"{id}: done"))
        started = sum(1 for line in both if f"{id}: rendering on " in line)
        assert finished == 1, f"{id} ended done {finished} times"
        assert started == (2 if id == killed_in else 1), f"{id} started {started} times"
    assert not any(f"{killed_in}: rendering on " in line for line in b_at_kill), "B took the render while A held it"
    assert any(f"{killed_in}: rendering on " in line for line in b_lines), "B never took A's render"
    by_a = sum(1 for line in a_lines if line.endswith(": done"))
    print(f"{by_a} renders done by A before it was killed, {RENDERS - by_a} by B")

    # A delivery node A held when it died is due again once its hold (an attempt's timeouts,
    # 50 s) has passed.
    deadline = time.time() + 120
    while len({d[0] for d in Receiver.deliveries}) < RENDERS:
        missing = set(ids) - {d[2] for d in Receiver.deliveries}
        assert time.time() < deadline, f"{len(Receiver.deliveries)} webhooks of {RENDERS}; none for {sorted(missing)}"
        time.sleep(0.2)
    with Receiver.lock:
        deliveries = list(Receiver.deliveries)
    assert all(valid for *_, valid in deliveries), "a webhook's signature does not verify"
    assert {(d[2], d[1]) for d in deliveries} == {(id, "render.done") for id in ids}, "not one render.done per render"
    print(f"{len(deliveries)} webhook deliveries, {len({d[0] for d in deliveries})} distinct, all signed")

    status, served = call("GET", f"{b}/v1/renders/{killed_in}/output", token)
    index = ids.index(killed_in)
    with open(os.path.join(media, "project.json"), "w") as f:
        json.dump(project(), f)
    subprocess.run([reel, "render", "project.json", "--set", f"headline=Render {index}", "-o", "cli.mp4", "--no-cache"],
                   cwd=media, check=True, capture_output=True)
    with open(os.path.join(media, "cli.mp4"), "rb") as f:
        assert f.read() == served, "the taken-over render's bytes differ from reel render's"
    print(f"{killed_in}: {len(served)} bytes, the same as reel render's")

    nodes["b"]["process"].send_signal(signal.SIGTERM)
    assert nodes["b"]["process"].wait(timeout=60) == 0, "node B did not stop cleanly"
    receiver.shutdown()
    subprocess.run(["psql", base, "-q", "-c", "SET client_min_messages = warning", "-c", f"DROP SCHEMA {schema} CASCADE"], check=True)
    subprocess.run(["rm", "-rf", work], check=True)
    print("multinode: passed")


if __name__ == "__main__":
    main()
