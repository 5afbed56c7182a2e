#!/usr/bin/env python3
"""Local test of deploy/kubernetes: the manifests against the Kubernetes schemas, and the Jobs
they describe simulated on this machine with the real reel binary.

Run by test.sh (which makes the venv with kubernetes-validate and PyYAML). Nothing here
repeats a manifest's command: every pod's argv is derived from the manifest's container
(command/args, env) and the Containerfile's ENTRYPOINT, with $(VAR) expanded as the kubelet
does, JOB_COMPLETION_INDEX set as the Job controller sets it, and the volume's mountPath
mapped to a temporary folder.

Steps (all by default; --only STEP,...): schema, rules, layout, segments, batch.
"""

import argparse
import copy
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
# backoffLimitPerIndex and podFailurePolicy are on by default from 1.29 (beta), GA in 1.33
# and 1.31; 1.37 is the newest schema kubernetes-validate 1.37.0 ships.
K8S_VERSIONS = ["1.29", "1.37"]
PERMANENT = [64, 65, 66, 73]       # Reel's exit statuses that are the same on every retry
RETRYABLE = [1, 130, 137, 139]     # a failed render, SIGINT, SIGKILL (OOM kill), SIGSEGV
PARALLEL = 2                       # pods at once here (2 cores), whatever the manifest says
POD_TIMEOUT = 120
# Memory per segment rendered at once (1080p) and for the rest of the process, in bytes.
SEGMENT_MEMORY, BASE_MEMORY = 300_000_000, 150_000_000



def hash_file(output):
    """Where reel batch records the content hash an output was rendered from."""
    return os.path.join(os.path.dirname(output), ".reel", os.path.basename(output) + ".reel-hash")

def permanent_actions(job_name):
    """What a Job's podFailurePolicy must do with each of Reel's permanent statuses: fail the
    Job at once, except in batch-shards, where a bad row (65, 66, 73: the shard has rendered
    all its good rows) fails only its index so that the other shards go on, and only a usage
    error (64: the Job itself is misconfigured) fails the Job."""
    if job_name == "reel-batch-shards":
        return {64: "FailJob", 65: "FailIndex", 66: "FailIndex", 73: "FailIndex"}
    return {code: "FailJob" for code in PERMANENT}


def cpu_quantity(q):
    """A Kubernetes CPU quantity ("2", "1.5", "500m") in cores."""
    q = str(q)
    return int(q[:-1]) / 1000 if q.endswith("m") else float(q)


def memory_quantity(q):
    """A Kubernetes memory quantity ("1Gi", "512Mi", "1G", "1500M", "1073741824") in bytes."""
    q = str(q)
    for suffix, factor in [("Ki", 1 << 10), ("Mi", 1 << 20), ("Gi", 1 << 30), ("Ti", 1 << 40),
                           ("k", 10 ** 3), ("M", 10 ** 6), ("G", 10 ** 9), ("T", 10 ** 12)]:
        if q.endswith(suffix):
            return float(q[:-len(suffix)]) * factor
    return float(q)


def kubelet_cpu_max(limit):
    """The cgroup v2 cpu.max the kubelet gives a container for its limits.cpu: quota = milli-CPU
    × period / 1000 (at least 1000), period 100000 µs; no limit is "max"."""
    if limit is None:
        return "max 100000"
    return f"{max(round(cpu_quantity(limit) * 1000) * 100, 1000)} 100000"


# ---------------------------------------------------------------------------------------------
# Reporting

class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.lock = threading.Lock()

    def check(self, ok, what, detail=""):
        with self.lock:
            if ok:
                self.passed += 1
            else:
                self.failed += 1
        line = ("PASS " if ok else "FAIL ") + what
        if detail and not ok:
            line += "\n       " + detail.replace("\n", "\n       ")
        print(line, flush=True)
        return ok

    def info(self, text):
        print("     " + text, flush=True)


R = Report()


class StepFailed(Exception):
    pass


def require(ok, what, detail=""):
    """A checked step whose PASS is worth a line; the step stops when it fails."""
    if not R.check(ok, what, detail):
        raise StepFailed(what)


def ensure(ok, what, detail=""):
    """An invariant of the simulation: silent when it holds."""
    if not ok:
        R.check(False, what, detail)
        raise StepFailed(what)


# ---------------------------------------------------------------------------------------------
# Manifests

def manifest_files():
    """Every *.yaml here is a Kubernetes manifest (apiVersion + kind) or a Reel project."""
    manifests, projects, unknown = {}, [], []
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            docs = [d for d in yaml.safe_load_all(f) if d is not None]
        if docs and all(isinstance(d, dict) and "apiVersion" in d and "kind" in d for d in docs):
            manifests[name] = docs
        elif len(docs) == 1 and isinstance(docs[0], dict) and "reel" in docs[0]:
            projects.append(name)
        else:
            unknown.append(name)
    return manifests, projects, unknown


def load_job(name, text=None):
    if text is None:
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            text = f.read()
    docs = [d for d in yaml.safe_load_all(text) if d is not None]
    jobs = [d for d in docs if d.get("kind") == "Job"]
    ensure(len(jobs) == 1, f"{name}: holds one Job", f"found {len(jobs)}")
    return jobs[0]


def containerfile_stages():
    """The Containerfile's stages, each as its text with continuation lines joined."""
    with open(os.path.join(HERE, "Containerfile"), encoding="utf-8") as f:
        return re.split(r"(?im)^FROM\s", re.sub(r"\\\n", " ", f.read()))[1:]


def containerfile_image_config():
    """ENTRYPOINT, CMD and WORKDIR of the Containerfile's last stage (exec form only)."""
    last = containerfile_stages()[-1]
    config = {"entrypoint": None, "cmd": None, "workdir": "/"}
    for line in last.splitlines():
        line = line.strip()
        m = re.match(r"(?i)^(ENTRYPOINT|CMD)\s+(\[.*\])\s*$", line)
        if m:
            config[m.group(1).lower()] = json.loads(m.group(2))
        m = re.match(r"(?i)^WORKDIR\s+(\S+)", line)
        if m:
            config["workdir"] = m.group(1)
    return config


# ---------------------------------------------------------------------------------------------
# Kubernetes' $(VAR) expansion: a port of k8s.io/kubernetes third_party/forked/golang/expansion
# (Expand, tryReadVariableName, MappingFuncFor). $$ is an escaped $, $(NAME) is replaced when
# NAME is defined and left as written when not, any other $ is kept.

def _try_read_variable_name(s):
    c = s[0]
    if c == "$":
        return s[0], False, 1
    if c == "(":
        for i in range(1, len(s)):
            if s[i] == ")":
                return s[1:i], True, i + 1
        return "$(", False, 1
    return "$" + c, False, 1


def k8s_expand(s, mapping):
    out, checkpoint, cursor = [], 0, 0
    while cursor < len(s):
        if s[cursor] == "$" and cursor + 1 < len(s):
            out.append(s[checkpoint:cursor])
            read, is_var, advance = _try_read_variable_name(s[cursor + 1:])
            out.append(mapping(read) if is_var else read)
            cursor += advance
            checkpoint = cursor + 1
        cursor += 1
    return "".join(out) + s[checkpoint:]


def mapping_for(*contexts):
    def mapping(name):
        for ctx in contexts:
            if name in ctx:
                return ctx[name]
        return "$(" + name + ")"
    return mapping


# ---------------------------------------------------------------------------------------------
# A pod of a Job, as the kubelet would start it, on this machine

class Volumes:
    """The volume's mountPath → the simulated volume folder (a temporary folder)."""

    def __init__(self, mounts):
        self.mounts = sorted(mounts.items(), key=lambda kv: -len(kv[0]))

    def local(self, path):
        for mount, local in self.mounts:
            if path == mount or path.startswith(mount.rstrip("/") + "/"):
                return local + path[len(mount.rstrip("/")):]
        return path


class PodSpec:
    def __init__(self, job, image, reel, work_dir, index=None):
        self.job = job
        spec = job["spec"]["template"]["spec"]
        containers = spec["containers"]
        ensure(len(containers) == 1, f"{job['metadata']['name']}: one container", str(len(containers)))
        self.container = containers[0]
        self.name = self.container["name"]
        self.indexed = job["spec"].get("completionMode") == "Indexed"
        # The volume: the PVC's mountPath is the simulated volume; emptyDir /tmp is a fresh
        # folder per pod (TMPDIR).
        pvc_volumes = {v["name"] for v in spec.get("volumes", []) if "persistentVolumeClaim" in v}
        empty_dirs = {v["name"] for v in spec.get("volumes", []) if "emptyDir" in v}
        self.mount_path = None
        self.tmp_mount = None
        for m in self.container.get("volumeMounts", []):
            if m["name"] in pvc_volumes:
                self.mount_path = m["mountPath"]
            elif m["name"] in empty_dirs and m["mountPath"] == "/tmp":
                self.tmp_mount = True
        ensure(self.mount_path is not None, f"{job['metadata']['name']}: mounts the shared volume")
        self.volumes = Volumes({self.mount_path: work_dir})
        self.image = image
        self.reel = reel
        self.index = index

    def env(self):
        """The container's environment as the kubelet makes it: in order, each value expanded
        with the variables defined before it; the Job controller appends JOB_COMPLETION_INDEX
        (from the pod's completion-index annotation) to an Indexed Job's containers."""
        entries = list(self.container.get("env", []))
        if self.indexed and not any(e["name"] == "JOB_COMPLETION_INDEX" for e in entries):
            entries.append({"name": "JOB_COMPLETION_INDEX", "valueFrom": {"fieldRef": {
                "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}})
        ensure(not self.container.get("envFrom"), "no envFrom (not simulated)")
        env = {}
        for e in entries:
            name = e["name"]
            if e.get("value", "") != "":
                env[name] = k8s_expand(e["value"], mapping_for(env))
            elif "valueFrom" in e:
                path = e["valueFrom"].get("fieldRef", {}).get("fieldPath", "")
                if "batch.kubernetes.io/job-completion-index" in path and self.index is not None:
                    env[name] = str(self.index)
                else:
                    raise StepFailed(f"env {name}: valueFrom {e['valueFrom']} is not simulated")
            else:
                env[name] = ""
        return env

    def argv(self, env=None):
        """command/args against the image's ENTRYPOINT/CMD (Kubernetes' rules), expanded."""
        env = self.env() if env is None else env
        command = self.container.get("command")
        args = self.container.get("args")
        if command is None:
            command = list(self.image["entrypoint"] or [])
            if args is None:
                args = list(self.image["cmd"] or [])
        elif args is None:
            args = []
        m = mapping_for(env)
        return [k8s_expand(a, m) for a in command] + [k8s_expand(a, m) for a in args]

    def process(self, extra_args=()):
        env = self.env()
        argv = self.argv(env) + list(extra_args)
        # The image's reel is on PATH (/usr/bin); here it is the binary under test.
        ensure(argv and argv[0] in ("reel", "/usr/bin/reel"),
               "the container runs reel", f"argv[0] is {argv[:1]}")
        local_argv = [self.reel] + [self.volumes.local(a) for a in argv[1:]]
        local_env = {k: self.volumes.local(v) for k, v in env.items()}
        cwd = self.volumes.local(self.container.get("workingDir") or self.image["workdir"])
        return argv, local_argv, local_env, cwd


class PodResult:
    def __init__(self, index, attempt, code, stdout, stderr, killed, seconds):
        self.index, self.attempt, self.code = index, attempt, code
        self.stdout, self.stderr, self.killed, self.seconds = stdout, stderr, killed, seconds


SCRATCH = None   # the test's temporary folder (main)


def _children():
    """ppid → [pid] of every process now (from /proc)."""
    tree = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        tree.setdefault(int(fields[1]), []).append(int(name))
    return tree


def kill_container(pid):
    """SIGKILL a pod's process and everything it started, as the end of a container does
    (its processes are all in the container's cgroup). Children in other process groups
    count too: Foundation's Process puts each child `reel render` of `reel batch` in its own.
    Each process is stopped first, so none can start another while the tree is gathered."""
    seen = set()
    while True:
        tree = _children()
        found, todo = set(), [pid]
        while todo:
            q = todo.pop()
            if q in found:
                continue
            found.add(q)
            todo.extend(tree.get(q, []))
        new = found - seen
        if not new:
            break
        for q in new:
            try:
                os.kill(q, signal.SIGSTOP)
            except ProcessLookupError:
                pass
        seen |= new
    for q in seen:
        try:
            os.kill(q, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return len(seen)


def run_pod(pod, base_env, attempt=0, kill_when=None, extra_args=()):
    """Runs one pod's container process. kill_when: a function polled while it runs; when it
    returns true, the process and all its descendants get SIGKILL (the container killed: an
    OOM kill, a node lost). The exit code is reported as the kubelet does: 128 + signal."""
    argv, local_argv, local_env, cwd = pod.process(extra_args)
    env = dict(base_env)
    env.update(local_env)
    tmp = None
    if pod.tmp_mount:
        tmp = tempfile.mkdtemp(prefix="pod-tmp-", dir=SCRATCH)
        env["TMPDIR"] = tmp
    os.makedirs(cwd, exist_ok=True)
    started = time.monotonic()
    out_file, err_file = tempfile.TemporaryFile(dir=SCRATCH), tempfile.TemporaryFile(dir=SCRATCH)
    p = subprocess.Popen(local_argv, env=env, cwd=cwd, stdout=out_file, stderr=err_file, start_new_session=True)
    killed = False
    if kill_when is not None:
        while p.poll() is None:
            if kill_when():
                killed = kill_container(p.pid) > 0
                break
            time.sleep(0.002)
    try:
        p.wait(timeout=POD_TIMEOUT)
    except subprocess.TimeoutExpired:
        kill_container(p.pid)
        p.wait()
        raise StepFailed(f"pod {argv} ran over {POD_TIMEOUT}s")
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    code = p.returncode if p.returncode >= 0 else 128 - p.returncode
    texts = []
    for f in (out_file, err_file):
        f.seek(0)
        texts.append(f.read().decode(errors="replace"))
        f.close()
    return PodResult(pod.index, attempt, code, texts[0], texts[1], killed, time.monotonic() - started)


def failure_action(job, container_name, exit_code):
    """The Job controller's podFailurePolicy decision for a failed pod (no pod conditions
    here: nothing is evicted): the first rule that matches, else Count."""
    for rule in job["spec"].get("podFailurePolicy", {}).get("rules", []):
        req = rule.get("onExitCodes")
        if not req:
            continue
        if req.get("containerName") not in (None, container_name):
            continue
        values = req["values"]
        if (exit_code in values) if req["operator"] == "In" else (exit_code not in values):
            return rule["action"]
    return "Count"


class JobRun:
    def __init__(self):
        self.pods = []
        self.succeeded = set()
        self.failed_indexes = set()
        self.failed_job = None     # the pod whose failure ended the Job (FailJob, backoffLimit)
        self.reason = None         # the Failed condition's reason
        self.condition = None      # the terminal condition: "Complete" or "Failed"


def run_indexed_job(job, make_pod, base_env, completions, seed, kill=None, log=None, on_result=None, first=None,
                    parallel=PARALLEL):
    """The Job controller, in small (Kubernetes' documented semantics): indexes in a shuffled
    order, PARALLEL pods at once; each failed pod goes through podFailurePolicy (first rule
    that matches, else Count).
      FailJob: the Job fails at once (reason PodFailurePolicy), no more pods start.
      FailIndex: that index fails, no retry; the other indexes go on.
      Ignore: a replacement pod, not counted.
      Count: with backoffLimitPerIndex, that index is retried until it has failed more than
        backoffLimitPerIndex times, then it fails and the others go on; without it, the
        Job's failures are counted together and more than backoffLimit fail the Job.
    With failed indexes, the Job ends Failed (reason FailedIndexes) once every index has
    finished, or at once when there are more than maxFailedIndexes; else Complete.
    kill: (index, predicate) — the first pod of that index is SIGKILLed when the predicate
    holds. on_result(res): called as each pod ends, before its index is retried. first: an
    index started first (the rest shuffled). parallel: at most this many pods at once."""
    spec = job["spec"]
    per_index = spec.get("backoffLimitPerIndex")
    # backoffLimit defaults to 6, or to 2147483647 when backoffLimitPerIndex is set.
    backoff_limit = spec.get("backoffLimit", 6 if per_index is None else 2147483647)
    max_failed_indexes = spec.get("maxFailedIndexes")
    parallelism = min(spec.get("parallelism", 1), parallel)
    order = list(range(completions))
    random.Random(seed).shuffle(order)
    if first is not None:
        order.remove(first)
        order.insert(0, first)
    if log:
        log(f"{job['metadata']['name']}: {completions} indexes in the order {order}, {parallelism} at a time")
    pending = deque((i, 0) for i in order)
    failures = {i: 0 for i in order}
    total_failures = 0
    run = JobRun()
    running = {}
    with ThreadPoolExecutor(max_workers=parallelism) as pool:
        while (pending or running) and run.failed_job is None and run.reason is None:
            while pending and len(running) < parallelism:
                index, attempt = pending.popleft()
                predicate = kill[1] if kill and kill[0] == index and attempt == 0 else None
                pod = make_pod(index)
                running[pool.submit(run_pod, pod, base_env, attempt, predicate)] = index
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                res = future.result()
                run.pods.append(res)
                if on_result:
                    on_result(res)
                if res.code == 0:
                    run.succeeded.add(index)
                    continue
                action = failure_action(job, make_pod(index).name, res.code)
                if log:
                    log(f"index {index} attempt {res.attempt}: exit {res.code}{' (SIGKILLed here)' if res.killed else ''}"
                        f" → {action}" + ("" if res.killed else ": " + first_line(res.stderr or res.stdout)))
                if action == "Ignore":
                    pending.append((index, res.attempt + 1))
                    continue
                total_failures += 1
                if action == "FailJob":
                    run.failed_job, run.reason = res, "PodFailurePolicy"
                elif action == "FailIndex":
                    ensure(per_index is not None, "FailIndex only with backoffLimitPerIndex")
                    run.failed_indexes.add(index)
                elif per_index is not None:
                    failures[index] += 1
                    if failures[index] > per_index:
                        run.failed_indexes.add(index)
                    else:
                        pending.append((index, res.attempt + 1))
                elif total_failures > backoff_limit:
                    run.failed_job, run.reason = res, "BackoffLimitExceeded"
                else:
                    pending.append((index, res.attempt + 1))
                if run.reason is None and max_failed_indexes is not None and len(run.failed_indexes) > max_failed_indexes:
                    run.reason = "MaxFailedIndexesExceeded"
        # A Job that failed early: the controller deletes the running pods; here they finish.
        for future in list(running):
            run.pods.append(future.result())
    if run.reason is None and run.failed_indexes:
        run.reason = "FailedIndexes"
    run.condition = "Failed" if run.reason else "Complete" if run.succeeded == set(range(completions)) else None
    return run


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# Step: schema

def step_schema(args):
    import kubernetes_validate
    from kubernetes_validate.utils import ValidationError

    manifests, projects, unknown = manifest_files()
    require(not unknown, "every *.yaml here is a manifest or a Reel project", f"neither: {unknown}")
    require(len(manifests) >= 5, f"found {len(manifests)} manifests: {', '.join(manifests)}")

    def validate(doc, version):
        try:
            kubernetes_validate.validate(doc, version, strict=True)
            return None
        except ValidationError as e:
            return ".".join(str(p) for p in e.path) + ": " + e.message.splitlines()[0]
        except Exception as e:   # SchemaNotFoundError and friends: also a failure here
            return f"{type(e).__name__}: {getattr(e, 'message', e)}"

    for version in K8S_VERSIONS:
        for name, docs in manifests.items():
            for doc in docs:
                problem = validate(doc, version)
                R.check(problem is None,
                        f"schema {version} strict: {name} ({doc['kind']} {doc['metadata']['name']})", problem or "")

    # The check can fail: broken copies made here must be rejected, for the reason planted.
    job = copy.deepcopy(manifests["render-segments.yaml"][0])
    misspelt = copy.deepcopy(job)
    misspelt["spec"]["backoffLimitPerIndx"] = misspelt["spec"].pop("backoffLimitPerIndex")
    wrong_type = copy.deepcopy(job)
    wrong_type["spec"]["completions"] = "four"
    deep = copy.deepcopy(job)
    deep["spec"]["template"]["spec"]["containers"][0]["resources"]["limit"] = {"cpu": "1"}
    exit_code_text = copy.deepcopy(job)
    exit_code_text["spec"]["podFailurePolicy"]["rules"][0]["onExitCodes"]["values"] = ["64"]
    for label, doc, expect in [("a misspelt field (backoffLimitPerIndx)", misspelt, "backoffLimitPerIndx"),
                               ("a string where an integer goes (completions: \"four\")", wrong_type, "four"),
                               ("a misspelt nested field (resources.limit)", deep, "limit"),
                               ("an exit code as a string (values: [\"64\"])", exit_code_text, "64")]:
        for version in K8S_VERSIONS:
            problem = validate(doc, version)
            R.check(problem is not None and expect in problem,
                    f"schema {version} rejects {label}: {problem}", f"got: {problem!r}")


# ---------------------------------------------------------------------------------------------
# Step: rules — what the API server checks beyond the schema (ported from
# pkg/apis/batch/validation), and what the contract with Reel needs.

def manifest_problems(doc, claim):
    """What the API server would reject in a Job or Pod beyond the schema (ported from
    pkg/apis/batch/validation), and what the contract with Reel needs."""
    pod = doc["spec"]["template"]["spec"] if doc["kind"] == "Job" else doc["spec"]
    problems = []
    claims = [v["persistentVolumeClaim"]["claimName"] for v in pod.get("volumes", [])
              if "persistentVolumeClaim" in v]
    if claims != [claim]:
        problems.append(f"volumes claim {claims}, not {claim}")
    sc = pod.get("securityContext", {})
    if not sc.get("runAsNonRoot"):
        problems.append("runAsNonRoot is not set")
    for c in pod["containers"]:
        env = {e["name"]: e.get("value") for e in c.get("env", [])}
        mounts = {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])}
        if "WORK" in env and env["WORK"] not in mounts.values():
            problems.append(f"WORK={env['WORK']} is not a mountPath")
        if c.get("securityContext", {}).get("readOnlyRootFilesystem") and "/tmp" not in mounts.values():
            problems.append("read-only root file system without a /tmp volume")
    if doc["kind"] == "Job":
        spec = doc["spec"]
        names = {c["name"] for c in pod["containers"]} | {c["name"] for c in pod.get("initContainers", [])}
        indexed = spec.get("completionMode") == "Indexed"
        if spec.get("backoffLimitPerIndex") is not None and not indexed:
            problems.append("backoffLimitPerIndex requires indexed completion mode")
        if indexed and spec.get("completions") is None:
            problems.append("an Indexed Job needs completions")
        if spec.get("podFailurePolicy") and pod.get("restartPolicy") != "Never":
            problems.append("podFailurePolicy requires restartPolicy Never")
        if spec.get("podFailurePolicy") and spec.get("podReplacementPolicy", "Failed") != "Failed":
            problems.append("podFailurePolicy allows only podReplacementPolicy Failed")
        by_action = {}
        for i, rule in enumerate(spec.get("podFailurePolicy", {}).get("rules", [])):
            exit_codes, conditions = rule.get("onExitCodes"), rule.get("onPodConditions")
            if (exit_codes is None) == (not conditions):
                problems.append(f"rule {i}: exactly one of onExitCodes and onPodConditions")
            if rule.get("action") not in ("FailJob", "FailIndex", "Ignore", "Count"):
                problems.append(f"rule {i}: action {rule.get('action')}")
            if rule.get("action") == "FailIndex" and spec.get("backoffLimitPerIndex") is None:
                problems.append(f"rule {i}: FailIndex requires backoffLimitPerIndex")
            for cond in conditions or []:
                if cond.get("status") not in ("True", "False", "Unknown"):
                    problems.append(f"rule {i}: pod condition status {cond.get('status')}")
            if exit_codes:
                values = exit_codes.get("values", [])
                if exit_codes.get("operator") not in ("In", "NotIn"):
                    problems.append(f"rule {i}: operator {exit_codes.get('operator')}")
                if exit_codes.get("containerName") not in (None, *names):
                    problems.append(f"rule {i}: containerName {exit_codes.get('containerName')} is no container")
                if not values or len(values) > 255 or values != sorted(set(values)):
                    problems.append(f"rule {i}: values must be 1–255 unique, ordered codes: {values}")
                if exit_codes.get("operator") == "In" and 0 in values:
                    problems.append(f"rule {i}: 0 with In")
                if exit_codes.get("operator") == "In":
                    by_action.setdefault(rule["action"], []).extend(values)
        # The contract: Reel's permanent statuses, and only those, end the Job or the
        # index (FailJob + FailIndex), each as permanent_actions says; the rest retry.
        fail_job, fail_index = by_action.get("FailJob", []), by_action.get("FailIndex", [])
        if sorted(fail_job + fail_index) != PERMANENT:
            problems.append(f"FailJob on {fail_job} and FailIndex on {fail_index}: together not "
                            f"Reel's permanent {PERMANENT} (each once)")
        container = pod["containers"][0]["name"]
        want = {**permanent_actions(doc["metadata"]["name"]), **{c: "Count" for c in RETRYABLE}}
        got = {code: failure_action(doc, container, code) for code in want}
        if got != want:
            problems.append("policy: " + ", ".join(f"exit {c} → {got[c]} (want {want[c]})"
                                                   for c in want if got[c] != want[c]))
        if doc["metadata"]["name"] == "reel-batch-shards":
            env = {e["name"]: e.get("value") for e in pod["containers"][0].get("env", [])}
            if str(spec.get("completions")) != str(env.get("SHARDS")):
                problems.append(f"SHARDS={env.get('SHARDS')} but completions={spec.get('completions')}")
    return problems


def step_rules(args):
    manifests, _, _ = manifest_files()
    pvc = [d for docs in manifests.values() for d in docs if d["kind"] == "PersistentVolumeClaim"]
    require(len(pvc) == 1, "one PersistentVolumeClaim")
    pvc = pvc[0]
    R.check("ReadWriteMany" in pvc["spec"]["accessModes"], f"the claim {pvc['metadata']['name']} is ReadWriteMany")
    image = containerfile_image_config()
    R.check(image["entrypoint"] == ["reel"], f"Containerfile: ENTRYPOINT {image['entrypoint']}")
    # What the Containerfile copies from the context exists and is let through by its ignore file.
    root = os.path.dirname(os.path.dirname(HERE))
    with open(os.path.join(HERE, "Containerfile"), encoding="utf-8") as f:
        sources = [w for line in f if re.match(r"(?i)^COPY\s", line) and "--from=" not in line
                   for w in line.split()[1:-1]]
    with open(os.path.join(HERE, "Containerfile.dockerignore"), encoding="utf-8") as f:
        allowed = {ln.strip()[1:].rstrip("/") for ln in f if ln.strip().startswith("!")}
    missing = [x for x in sources if not os.path.exists(os.path.join(root, x))]
    ignored = [x for x in sources if x.rstrip("/") not in allowed]
    R.check(sources and not missing and not ignored,
            f"Containerfile copies {', '.join(sources)} from the context: there, and not ignored",
            f"missing {missing}, ignored {ignored}")

    for name, docs in manifests.items():
        for doc in docs:
            if doc["kind"] not in ("Job", "Pod"):
                continue
            problems = manifest_problems(doc, pvc["metadata"]["name"])
            R.check(not problems, f"rules: {name} ({doc['kind']} {doc['metadata']['name']})", "; ".join(problems))

    # The check can fail: broken copies must be rejected, for the reason planted.
    claim = pvc["metadata"]["name"]
    old_policy = copy.deepcopy(manifests["batch-shards.yaml"][0])
    old_policy["spec"]["podFailurePolicy"]["rules"][:2] = [{"action": "FailJob", "onExitCodes": {
        "containerName": "reel", "operator": "In", "values": PERMANENT}}]
    no_per_index = copy.deepcopy(manifests["batch-shards.yaml"][0])
    del no_per_index["spec"]["backoffLimitPerIndex"]
    fail_index = copy.deepcopy(manifests["render-segments.yaml"][0])
    fail_index["spec"]["podFailurePolicy"]["rules"][0]["action"] = "FailIndex"
    for label, doc, expect in [("batch-shards with FailJob on 65 (a bad row stops every shard)", old_policy,
                                "exit 65 → FailJob (want FailIndex)"),
                               ("batch-shards' FailIndex without backoffLimitPerIndex", no_per_index,
                                "FailIndex requires backoffLimitPerIndex"),
                               ("render-segments with FailIndex (an invalid project would fail every index "
                                "one by one)", fail_index, "exit 64 → FailIndex (want FailJob)")]:
        problems = manifest_problems(doc, claim)
        R.check(any(expect in p for p in problems), f"rules reject {label}: {'; '.join(problems)[:150]}",
                f"expected {expect!r} among {problems}")

    # The policy in action, per Job: Reel's permanent statuses end the Job (or, in
    # batch-shards, the index), the others retry.
    for name, docs in manifests.items():
        for doc in docs:
            if doc["kind"] != "Job":
                continue
            container = doc["spec"]["template"]["spec"]["containers"][0]["name"]
            want = {**permanent_actions(doc["metadata"]["name"]), **{c: "Count" for c in RETRYABLE}}
            got = {code: failure_action(doc, container, code) for code in want}
            groups = {}
            for code, action in got.items():
                groups.setdefault(action, []).append(str(code))
            R.check(got == want, f"{name} podFailurePolicy: "
                    + "; ".join(f"exit {', '.join(codes)} → {action}" for action, codes in groups.items()),
                    f"expected {want}")

    # batch-shards' memory covers the segments each row's child render runs at once: one per
    # core Reel may use, i.e. limits.cpu rounded up (no limit: the node's cores), at most 8.
    job = load_job("batch-shards.yaml")
    resources = job["spec"]["template"]["spec"]["containers"][0].get("resources", {})
    cpu = resources.get("limits", {}).get("cpu")
    memory = resources.get("limits", {}).get("memory")
    jobs = min(math.ceil(cpu_quantity(cpu)), 8) if cpu is not None else 8
    need = jobs * SEGMENT_MEMORY + BASE_MEMORY
    R.check(memory is not None and memory_quantity(memory) >= need
            and resources.get("requests", {}).get("memory") == memory,
            f"batch-shards.yaml: limits.cpu {cpu} → {jobs} segments at once per row; memory {memory} "
            f"({memory_quantity(memory) / 1e6 if memory else 0:.0f} MB) ≥ {jobs} × {SEGMENT_MEMORY // 10**6} MB + "
            f"{BASE_MEMORY // 10**6} MB", f"resources {resources}")

    # $(VAR) expansion as Kubernetes does it (the cases of its expansion tests).
    m = mapping_for({"VAR_A": "A", "VAR_B": "B", "VAR_EMPTY": "", "VAR_REF": "$(VAR_A)"})
    for given, want in [("$(VAR_A)", "A"), ("___$(VAR_B)___", "___B___"), ("$(VAR_A)-$(VAR_A)", "A-A"),
                        ("$$(VAR_B)", "$(VAR_B)"), ("$$$(VAR_A)", "$A"), ("$(VAR_DNE)", "$(VAR_DNE)"),
                        ("$(VAR_EMPTY)x", "x"), ("$(VAR_A", "$(VAR_A"), ("$VAR_A", "$VAR_A"),
                        ("$(VAR_REF)", "$(VAR_A)"), ("f$o$", "f$o$"), ("$()", "$()"), ("{{ id }}", "{{ id }}")]:
        got = k8s_expand(given, m)
        R.check(got == want, f"$(VAR) expansion: {given!r} → {got!r}", f"expected {want!r}")


# ---------------------------------------------------------------------------------------------
# Step: layout — the image installs Reel's Debian package (scripts/package-deb; its Depends come
# from the binary through dpkg-shlibdeps, and Tests/package/install-test.sh installs it in a clean
# Debian 12 root), so /usr/bin/reel reads its resources from /usr/share/reel/. Here: the binary
# run from a folder laid out as the package installs it (bin/reel, share/reel/ with the files of
# the build folder's Reel_*.resources bundles), with the build folder it was made in (where
# SwiftPM's Bundle.module would look) hidden by an empty tmpfs in a private mount namespace.

def check_image_installs_package():
    """The build stage makes the package with scripts/package-deb; the last stage copies it from
    there and installs it with apt-get, naming no library package of its own (the package's
    Depends name them)."""
    stages = containerfile_stages()
    build, runtime = stages[0], stages[-1]
    makes = re.search(r"(?m)^RUN .*scripts/package-deb", build) is not None
    copies = re.search(r"(?m)^COPY --from=build \S*dist/reel_\*\.deb\s+(\S+)", runtime)
    installs = set()
    for m in re.finditer(r"apt-get install ([^&]*)", runtime):
        installs |= {w for w in m.group(1).split() if not w.startswith("-")}
    debs = {w for w in installs if w.endswith(".deb")}
    libraries = sorted(w for w in installs if w.startswith("lib"))
    R.check(makes and copies and debs and all(copies.group(1).rstrip("/") in d for d in debs) and not libraries,
            f"Containerfile: the build stage runs scripts/package-deb, the runtime stage installs "
            f"{', '.join(sorted(installs))} and names no library package",
            f"package-deb run: {makes}; copied to {copies.group(1) if copies else None}; installs {sorted(installs)}; "
            f"library packages named: {libraries}")


def layout_cpu_limits(args):
    """Reel's default segment jobs (what each row's child render of a batch shard runs at once)
    under each Job's limits.cpu, as the container sees it: the cpu.max the kubelet writes, at
    the root of the container's cgroup (/sys/fs/cgroup; a tmpfs over it in a private mount
    namespace here), and this machine's CPU affinity. Read off `reel render --help`, which
    prints the default of --jobs."""
    manifests, _, _ = manifest_files()
    limits = {}
    for name, docs in manifests.items():
        for doc in docs:
            if doc["kind"] == "Job":
                c = doc["spec"]["template"]["spec"]["containers"][0]
                limits[name] = c.get("resources", {}).get("limits", {}).get("cpu")
    cases = [(f"{name} limits.cpu {limit}", limit, None) for name, limit in limits.items()]
    cases.append(("limits.cpu 1500m (rounded up)", "1500m", None))
    cases.append(("no CPU limit", None, None))
    cores = len(os.sched_getaffinity(0))
    if cores >= 2 and shutil.which("taskset"):
        cases.append(("no CPU limit, affinity (taskset) of 1 core", None, 1))
    script = ('mount -t tmpfs tmpfs /sys/fs/cgroup && printf "%s\\n" "$1" > /sys/fs/cgroup/cpu.max '
              '&& shift && exec "$@"')
    for label, limit, affinity in cases:
        cpu_max = kubelet_cpu_max(limit)
        command = [args.reel, "render", "--help"]
        if affinity:
            command = ["taskset", "-c", ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:affinity])] + command
        p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", cpu_max] + command,
                           capture_output=True, text=True, timeout=POD_TIMEOUT)
        m = re.search(r"--jobs <jobs>.*?\(default:\s*(\d+)\)", p.stdout, re.S)
        got = int(m.group(1)) if m else None
        want = min(affinity or cores, math.ceil(cpu_quantity(limit)) if limit is not None else cores, 8)
        R.check(p.returncode == 0 and got == want,
                f"CPU limit: {label} (cpu.max \"{cpu_max}\", {affinity or cores} of {cores} cores) → "
                f"reel's default --jobs {got}", f"want {want}; exit {p.returncode}: {tail(p.stderr)}")


def step_layout(args):
    check_image_installs_package()
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        R.info("SKIP layout and CPU limits: need root and unshare (a private mount namespace)")
        return
    layout_cpu_limits(args)
    with open(args.reel, "rb") as f:
        data = f.read()
    # SwiftPM bakes each bundle's build path into the binary: .../<config>/Reel_<Target>.resources
    baked = {m.decode() for m in re.findall(rb"/[A-Za-z0-9_.+/-]+/Reel_[A-Za-z0-9_]+\.resources", data)}
    build_dirs = {os.path.dirname(b) for b in baked if os.path.isdir(b)}
    if len(build_dirs) != 1:
        R.info(f"SKIP layout: cannot tell the build folder from the binary ({sorted(baked)[:3]})")
        return
    build_dir = build_dirs.pop()
    prefix = os.path.join(args.scratch, "layout", "usr")
    os.makedirs(os.path.join(prefix, "bin"))
    shutil.copy2(args.reel, os.path.join(prefix, "bin", "reel"))
    share = os.path.join(prefix, "share", "reel")
    for bundle in sorted(baked):
        shutil.copytree(bundle, share, dirs_exist_ok=True)
    smoke = os.path.join(HERE, "image-smoke.yaml")
    out = os.path.join(args.scratch, "layout", "smoke.mp4")
    script = 'mount -t tmpfs tmpfs "$1" && cd "$2" && "$3/bin/reel" render "$4" -o "$5" --no-cache --progress none'
    for keep in (True, False):
        if not keep:
            shutil.rmtree(share)
        p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh",
                            build_dir, args.scratch, prefix, smoke, out],
                           capture_output=True, text=True, timeout=POD_TIMEOUT)
        if keep:
            R.check(p.returncode == 0 and os.path.exists(out),
                    f"layout: bin/reel + share/reel/ ({', '.join(sorted(os.listdir(share)))}) render image-smoke.yaml "
                    f"with {build_dir} hidden", f"exit {p.returncode}: {tail(p.stderr)}")
        else:
            R.check(p.returncode != 0 and "resource bundle" in p.stderr,
                    f"layout: without share/reel/ it fails (exit {p.returncode}, could not load resource bundle): "
                    "the check can fail", f"exit {p.returncode}: {tail(p.stderr)}")


# ---------------------------------------------------------------------------------------------
# Test media and projects (ffmpeg's lavfi sources)

def ffmpeg(*a):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *a], check=True)


def make_clip(path, source, freq, seconds=3):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    ffmpeg("-f", "lavfi", "-i", f"{source}=size=320x240:rate=30:duration={seconds}",
           "-f", "lavfi", "-i", f"sine=frequency={freq}:sample_rate=48000:duration={seconds}",
           "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k",
           "-fflags", "+bitexact", "-shortest", path)


SEGMENTS_PROJECT = """\
reel: 1
output:
  size: [320, 240]
  fps: 30
  segment: 1s
  video: { codec: h264, preset: veryfast, crf: 23 }
  audio: { codec: aac, bitrate: 96k, sample_rate: 48000, channels: 2 }
media:
  a: media/a.mp4
  b: media/b.mp4
video:
  - clips:
      - media: a
      - transition: crossfade
        duration: 0.5s
      - media: b
overlays:
  - text: "Segments"
    at: 0.5s
    duration: 3s
    position: ["50%", "80%"]
    style: { font: DejaVu Sans, weight: bold, size: 32, color: "#ffffff" }
    fade_in: 0.5s
"""

TEMPLATE_PROJECT = """\
reel: 1
vars:
  id: { type: string, default: sample }
  name: { type: string, default: "Widget", max_length: 40 }
  price: { type: number, default: 9.5, minimum: 0 }
  colour: { type: color, default: "#ff3366" }
output:
  size: [320, 240]
  fps: 30
  segment: 1s
  video: { codec: h264, preset: veryfast, crf: 23 }
  audio: { codec: aac, bitrate: 96k, sample_rate: 48000, channels: 2 }
media:
  a: media/a.mp4
video:
  - clips:
      - media: a
        duration: 2s
overlays:
  - rect: true
    position: ["50%", "50%"]
    size: [280, 120]
    corner_radius: 12
    fill: "#000000a0"
    stroke: { color: "{{ colour }}", width: 4 }
  - text: "{{ name }}"
    position: ["50%", "45%"]
    style: { font: DejaVu Sans, weight: bold, size: 28, color: "#ffffff" }
  - text: "€ {{ price }}"
    at: 0.5s
    position: ["50%", "62%"]
    style: { font: DejaVu Sans, size: 22, color: "{{ colour }}" }
"""

ROWS = '''\
id,name,price,colour
alpha,Alpha,1.5,#ff3366
beta,"Beta, the second",20,#3366ff
gamma,Gamma,300,#22aa55
delta,"Delta ""Mini""",7.25,#ffcc00
epsilon,Epsilon,0,white
'''


def first_line(text, n=200):
    lines = text.strip().splitlines()
    return (lines[0][:n] + ("…" if len(lines[0]) > n or len(lines) > 1 else "")) if lines else ""


def tail(text, n=600):
    text = text.strip()
    return text if len(text) <= n else "…" + text[-n:]


# ---------------------------------------------------------------------------------------------
# Step: segments — plan.yaml, render-segments.yaml and join.yaml on a simulated volume

def step_segments(args, base_env):
    work = os.path.join(args.scratch, "segments-volume")
    os.makedirs(work)
    image = containerfile_image_config()
    seed = args.seed
    plan_job = load_job("plan.yaml")
    join_job = load_job("join.yaml")
    with open(os.path.join(HERE, "render-segments.yaml"), encoding="utf-8") as f:
        segments_text = f.read()
    segments_job = load_job("render-segments.yaml", segments_text)

    def pod(job, index=None):
        return PodSpec(job, image, args.reel, work, index)

    # Where the manifests want things on the volume (read off their env, not repeated here).
    env = pod(segments_job, 0).env()
    project = pod(segments_job, 0).volumes.local(env["PROJECT"])
    parts = pod(segments_job, 0).volumes.local(env["PARTS"])
    join_env = pod(join_job).env()
    require(join_env["PROJECT"] == env["PROJECT"] and join_env["PARTS"] == env["PARTS"],
            "join.yaml reads the PROJECT and PARTS render-segments.yaml writes",
            f"{join_env['PROJECT']} {join_env['PARTS']} vs {env['PROJECT']} {env['PARTS']}")
    output = pod(join_job).volumes.local(join_env["OUTPUT"])
    R.info(f"volume {work}: PROJECT={env['PROJECT']} PARTS={env['PARTS']} OUTPUT={join_env['OUTPUT']}")

    # A Job applied before the project is on the volume: exit 66, and the policy ends the Job
    # after that one pod (no retries).
    early = run_indexed_job(segments_job, lambda i: pod(segments_job, i), base_env, 3, seed)
    R.check(early.failed_job is not None and early.failed_job.code == 66 and len(early.pods) <= PARALLEL,
            f"render-segments before the project is there: exit "
            f"{early.failed_job.code if early.failed_job else None}, Job failed at once after {len(early.pods)} pod(s)",
            "; ".join(f"index {p.index}: {p.code} {tail(p.stderr, 200)}" for p in early.pods))

    # The project and its media on the volume: two clips with a crossfade and a title, 1 s segments.
    pdir = os.path.dirname(project)
    make_clip(os.path.join(pdir, "media", "a.mp4"), "testsrc2", 440)
    make_clip(os.path.join(pdir, "media", "b.mp4"), "testsrc", 660)
    with open(project, "w", encoding="utf-8") as f:
        f.write(SEGMENTS_PROJECT)

    # N from plan.yaml's pod (what `kubectl logs job/reel-plan` shows).
    res = run_pod(pod(plan_job), base_env)
    require(res.code == 0, f"plan.yaml: exit {res.code}", tail(res.stderr))
    plan = json.loads(res.stdout)
    n = len(plan["segments"])
    keys = {s["index"]: s["key"] for s in plan["segments"]}
    require(n >= 4 and [s["index"] for s in plan["segments"]] == list(range(n)),
            f"plan.yaml: {n} segments of {plan['framesPerSegment']} frames")

    # completions: N, with the substitution the manifest's comment gives.
    pattern = r"(?m)^  completions: [0-9]*"
    require(len(re.findall(pattern, segments_text)) == 1, "render-segments.yaml: the completions line is unique")
    applied = load_job("render-segments.yaml", re.sub(pattern, f"  completions: {n}", segments_text))
    require(applied["spec"]["completions"] == n, f"render-segments.yaml with completions: {n}")

    # The reference: one plain render, no cache.
    ref = os.path.join(args.scratch, "ref.mp4")
    t = time.monotonic()
    p = subprocess.run([args.reel, "render", project, "-o", ref, "--jobs", "1", "--no-cache", "--progress", "none"],
                       env=base_env, capture_output=True, text=True, timeout=POD_TIMEOUT)
    require(p.returncode == 0, f"reference: reel render -o ref.mp4 --jobs 1 --no-cache ({time.monotonic() - t:.1f}s)",
            tail(p.stderr))

    # The Job: shuffled indexes, 2 at a time, one pod SIGKILLed while its part is being
    # written (its temporary file is there, the part is not) and retried.
    rng = random.Random(seed)
    victim = rng.choice([i for i in range(n) if plan["segments"][i]["frameCount"] == plan["framesPerSegment"]])
    key = keys[victim]
    state = {}

    def mid_render():
        names = os.listdir(parts) if os.path.isdir(parts) else []
        temps = [x for x in names if key in x and x != f"{key}.reelpart"]
        if temps and f"{key}.reelpart" not in names:
            state["temps"] = temps
            return True
        return False

    def after(res):
        if res.index == victim and res.attempt == 0:
            state["part_after_kill"] = os.path.exists(os.path.join(parts, f"{key}.reelpart"))

    run = None
    for arming in range(5):
        t = time.monotonic()
        run = run_indexed_job(applied, lambda i: pod(applied, i), base_env, n, seed + arming,
                              kill=(victim, mid_render), log=R.info, on_result=after)
        elapsed = time.monotonic() - t
        first = [r for r in run.pods if r.index == victim and r.attempt == 0]
        if first and first[0].killed and not state.get("part_after_kill"):
            break
        # It finished before it could be killed: start again with its part removed.
        R.info(f"index {victim} finished before the kill; again with its part removed")
        if os.path.exists(os.path.join(parts, f"{key}.reelpart")):
            os.remove(os.path.join(parts, f"{key}.reelpart"))
    victim_pods = sorted((r for r in run.pods if r.index == victim), key=lambda r: r.attempt)
    R.check(victim_pods and victim_pods[0].killed and victim_pods[0].code == 137 and not state.get("part_after_kill"),
            f"index {victim} SIGKILLed mid-render (temporary {state.get('temps')}, no part after the kill): exit "
            f"{victim_pods[0].code if victim_pods else None} → retried as {failure_action(applied, 'reel', 137)}")
    R.check(len(victim_pods) == 2 and victim_pods[1].code == 0,
            f"index {victim} retried once (backoffLimitPerIndex {applied['spec']['backoffLimitPerIndex']}): "
            f"exit {victim_pods[-1].code if victim_pods else None}",
            tail(victim_pods[-1].stderr) if victim_pods else "")
    R.check(run.failed_job is None and not run.failed_indexes and run.succeeded == set(range(n)),
            f"render-segments: {len(run.succeeded)}/{n} indexes succeeded, {len(run.pods)} pods, {elapsed:.1f}s",
            "; ".join(f"index {r.index}: {r.code} {tail(r.stderr, 200)}" for r in run.pods if r.code))
    got_parts = sorted(x for x in os.listdir(parts) if x.endswith(".reelpart") and not x.startswith("."))
    R.check(got_parts == sorted(f"{k}.reelpart" for k in keys.values()),
            f"{n} parts on the volume, named by their plan keys", f"{got_parts}")
    leftovers = [x for x in os.listdir(parts) if x.startswith(".")]
    R.info(f"temporary files left in PARTS: {leftovers or 'none'}")

    # The join (after the Job is complete), into a folder nobody has made: reel join makes it.
    out_dir = os.path.dirname(join_env["OUTPUT"])
    require(not os.path.exists(os.path.dirname(output)), f"before the join, OUTPUT's folder {out_dir} does not exist")
    res = run_pod(pod(join_job), base_env)
    R.check(res.code == 0 and os.path.isfile(output),
            f"join.yaml: exit {res.code} ({res.seconds:.1f}s), {out_dir} made, {join_env['OUTPUT']} written",
            tail(res.stderr))
    if res.code == 0:
        got, want = sha256(output), sha256(ref)
        R.check(got == want, f"joined output is byte-identical to the reference render (sha256 {got[:16]}…)",
                f"joined {got}\nreference {want}")

    # A part missing: the join fails with 66 naming the segment, leaves OUTPUT as it was, and
    # the policy fails the join Job at once.
    missing = rng.randrange(n)
    part = os.path.join(parts, f"{keys[missing]}.reelpart")
    aside = os.path.join(args.scratch, "aside.reelpart")
    shutil.move(part, aside)
    before = sha256(output) if os.path.exists(output) else None
    res = run_pod(pod(join_job), base_env)
    shutil.move(aside, part)
    R.check(res.code == 66 and f"segment {missing} " in res.stderr,
            f"join with segment {missing}'s part missing: exit {res.code}, names it: "
            f"{res.stderr.strip().splitlines()[0][:110] if res.stderr.strip() else ''}", tail(res.stderr))
    R.check((sha256(output) if os.path.exists(output) else None) == before, "the failed join left OUTPUT as it was")
    R.check(failure_action(join_job, "reel", res.code) == "FailJob", "join.yaml's policy: exit 66 fails the Job at once")

    # completions too large (N + 1): pod N exits 64, which fails the Job at once.
    res = run_pod(pod(applied, n), base_env)
    R.check(res.code == 64 and failure_action(applied, "reel", res.code) == "FailJob",
            f"index {n} (completions one too many): exit {res.code} → {failure_action(applied, 'reel', res.code)}",
            tail(res.stderr))


# ---------------------------------------------------------------------------------------------
# Step: batch — batch-shards.yaml on a simulated volume

ROW_LINE = re.compile(r"^row (\d+): (rendered|up to date) (.+)$")


def step_batch(args, base_env):
    work = os.path.join(args.scratch, "batch-volume")
    os.makedirs(work)
    image = containerfile_image_config()
    job = load_job("batch-shards.yaml")
    shards = job["spec"]["completions"]

    def pod(index):
        return PodSpec(job, image, args.reel, work, index)

    env = pod(0).env()
    vol = pod(0).volumes
    R.info(f"volume {work}: PROJECT={env['PROJECT']} ROWS={env['ROWS']} OUTPUT_TEMPLATE={env['OUTPUT_TEMPLATE']} "
           f"SHARDS={env['SHARDS']} REEL_CACHE_DIR={env.get('REEL_CACHE_DIR', '(default)')}")
    require(env["SHARDS"] == str(shards), f"batch-shards.yaml: SHARDS={env['SHARDS']} = completions {shards}")
    project, rows = vol.local(env["PROJECT"]), vol.local(env["ROWS"])
    template = vol.local(env["OUTPUT_TEMPLATE"])
    make_clip(os.path.join(os.path.dirname(project), "media", "a.mp4"), "testsrc2", 440)
    with open(project, "w", encoding="utf-8") as f:
        f.write(TEMPLATE_PROJECT)
    # Five rows (quotes, commas, a named colour), more if SHARDS needs them so that some
    # shard has two rows to be killed between.
    rows_text = ROWS + "".join(f"extra{i},Extra {i},{i},#808080\n"
                               for i in range(max(0, shards + 1 - (len(ROWS.strip().splitlines()) - 1))))
    with open(rows, "w", encoding="utf-8") as f:
        f.write(rows_text)
    row_count = len(rows_text.strip().splitlines()) - 1

    # Each shard's rows, from the manifest's own command with --plan --json.
    owned = {}
    for k in range(shards):
        res = run_pod(pod(k), base_env, extra_args=["--plan", "--json"])
        require(res.code == 0, f"shard {k} --plan --json: exit {res.code}", tail(res.stderr))
        listing = json.loads(res.stdout)
        owned[k] = {r["row"]: r["output"] for r in listing["rows"]}   # local paths: the argv was mapped
        R.check(sorted(owned[k]) == [r for r in range(1, row_count + 1) if (r - 1) % shards == k]
                and all(r["status"] == "render" for r in listing["rows"]),
                f"shard {k}/{shards} --plan: rows {sorted(owned[k])}, all to render")
    all_rows = sorted(r for k in owned for r in owned[k])
    R.check(all_rows == list(range(1, row_count + 1)), f"the shards' plans cover rows 1–{row_count} once each",
            f"{all_rows}")

    # The reference: one plain `reel batch` into another folder with its own cache.
    ref_dir = os.path.join(args.scratch, "batch-ref")
    ref_env = dict(base_env, REEL_CACHE_DIR=os.path.join(args.scratch, "batch-ref-cache"))
    t = time.monotonic()
    p = subprocess.run([args.reel, "batch", project, "--data", rows, "--output",
                        os.path.join(ref_dir, os.path.basename(template))],
                       env=ref_env, capture_output=True, text=True, timeout=POD_TIMEOUT * 2)
    require(p.returncode == 0, f"reference: plain reel batch of {row_count} rows ({time.monotonic() - t:.1f}s)",
            tail(p.stdout + p.stderr))

    # The Job: shards shuffled, 2 at a time; a shard with two rows is SIGKILLed after its
    # first row is done, while the second is being written, and retried.
    rng = random.Random(args.seed)
    victim = rng.choice([k for k in owned if len(owned[k]) >= 2])
    first_row, second_row = sorted(owned[victim])[:2]
    first_out, second_out = owned[victim][first_row], owned[victim][second_row]
    after_kill = {}

    def mid_second_row():
        out_dir = os.path.dirname(second_out)
        if not (os.path.exists(hash_file(first_out)) and os.path.isdir(out_dir)):
            return False
        base = os.path.basename(second_out)
        names = os.listdir(out_dir)
        temps = [x for x in names if base in x and x != base]
        if temps and base not in names:
            after_kill["temps"] = temps
            return True
        return False

    def after(res):
        if res.index == victim and res.attempt == 0:
            after_kill["second"] = os.path.exists(second_out)
            after_kill["second_hash"] = os.path.exists(hash_file(second_out))
            after_kill["first_stamp"] = os.stat(first_out).st_mtime_ns if os.path.exists(first_out) else None

    run = None
    for arming in range(5):
        t = time.monotonic()
        run = run_indexed_job(job, pod, base_env, shards, args.seed + arming, kill=(victim, mid_second_row),
                              log=R.info, on_result=after)
        elapsed = time.monotonic() - t
        first = [r for r in run.pods if r.index == victim and r.attempt == 0]
        if first and first[0].killed:
            break
        R.info(f"shard {victim} finished before the kill; again with its outputs removed")
        for out in owned[victim].values():
            for path in (out, hash_file(out)):
                if os.path.exists(path):
                    os.remove(path)
    victim_pods = sorted((r for r in run.pods if r.index == victim), key=lambda r: r.attempt)
    killed = victim_pods[0] if victim_pods else None
    R.check(killed is not None and killed.killed and killed.code == 137,
            f"shard {victim} SIGKILLed with row {first_row} done and row {second_row} being written "
            f"({after_kill.get('temps')}): exit {killed.code if killed else None} → "
            f"retried as {failure_action(job, 'reel', 137)}")
    # Unbuffered row lines: the killed pod's log already holds its finished row's line (a
    # buffered one would have been lost with the process).
    R.check(killed is not None and any((m := ROW_LINE.match(x)) and int(m.group(1)) == first_row
                                       and m.group(2) == "rendered" for x in killed.stdout.splitlines()),
            f"the killed pod's log holds its finished row's line: "
            f"{first_line(killed.stdout) if killed else None!r}", killed.stdout if killed else "")
    # Atomic outputs: after the kill, row second_row's output is absent (or, if the kill came
    # just after its rename, complete); a hash file never stands beside a missing output.
    R.check(not after_kill.get("second_hash") or after_kill.get("second"),
            f"after the kill: row {second_row}'s output {'is there' if after_kill.get('second') else 'is absent'}, "
            f"its hash file {'too' if after_kill.get('second_hash') else 'absent'}")
    R.check(run.condition == "Complete" and run.succeeded == set(range(shards)),
            f"batch-shards: {run.condition}, {len(run.succeeded)}/{shards} shards succeeded, {len(run.pods)} pods, "
            f"{elapsed:.1f}s",
            "; ".join(f"shard {r.index}: {r.code} {tail(r.stderr, 300)}" for r in run.pods if r.code and not r.killed))

    # Every row rendered exactly once: the final pod of each shard names exactly its rows,
    # each rendered, except the victim's first row, which the killed pod had rendered and the
    # retry found up to date.
    seen = {}
    for k in range(shards):
        final = max((r for r in run.pods if r.index == k), key=lambda r: r.attempt)
        lines = [ROW_LINE.match(x) for x in final.stdout.splitlines()]
        named = {int(m.group(1)): m.group(2) for m in lines if m}
        for r in named:
            seen.setdefault(r, []).append((k, named[r]))
        done_before = {first_row} | ({second_row} if after_kill.get("second_hash") else set())
        want = {r: ("up to date" if (k == victim and r in done_before) else "rendered") for r in owned[k]}
        R.check(named == want, f"shard {k} (attempt {final.attempt}) stdout: "
                + ", ".join(f"row {r} {named[r]}" for r in sorted(named)), f"expected {want}\n{final.stdout}")
    R.check(sorted(seen) == list(range(1, row_count + 1)) and all(len(v) == 1 for v in seen.values()),
            f"every row named by exactly one shard: {dict(sorted(seen.items()))}")

    R.check(after_kill.get("first_stamp") is not None
            and os.stat(first_out).st_mtime_ns == after_kill["first_stamp"],
            f"row {first_row}, rendered before the kill, was not written again by the retry")

    # Outputs: byte-identical to the plain batch.
    same = []
    for r in range(1, row_count + 1):
        out = next(owned[k][r] for k in owned if r in owned[k])
        ref = os.path.join(ref_dir, os.path.basename(out))
        same.append(os.path.exists(out) and os.path.exists(ref) and sha256(out) == sha256(ref))
    R.check(all(same), f"{row_count} outputs byte-identical to the plain batch's", f"rows equal: {same}")

    if env.get("REEL_CACHE_DIR"):
        cache = vol.local(env["REEL_CACHE_DIR"])
        cached = [x for x in os.listdir(cache) if x.endswith(".reelpart")] if os.path.isdir(cache) else []
        R.check(len(cached) > 0, f"the shards' segment cache is on the volume ({env['REEL_CACHE_DIR']}): "
                f"{len(cached)} parts")

    # The Job applied again: everything is up to date, nothing renders.
    stamps = {r: os.stat(owned[k][r]).st_mtime_ns for k in owned for r in owned[k]}
    again = run_indexed_job(job, pod, base_env, shards, args.seed + 100)
    rendered_again = [ln for r in again.pods for ln in r.stdout.splitlines() if ": rendered " in ln]
    R.check(again.succeeded == set(range(shards)) and not rendered_again
            and stamps == {r: os.stat(owned[k][r]).st_mtime_ns for k in owned for r in owned[k]},
            "batch-shards applied again: every row up to date, no output rewritten", "\n".join(rendered_again))

    # SHARDS / completions mismatch: pod SHARDS (one index too many) exits 64 → FailJob.
    res = run_pod(pod(shards), base_env)
    R.check(res.code == 64 and failure_action(job, "reel", res.code) == "FailJob",
            f"shard index {shards} (completions one too many): exit {res.code} → "
            f"{failure_action(job, 'reel', res.code)}", tail(res.stderr))

    step_batch_bad_row(args, base_env, job, image, rows_text, owned, rng)


def step_batch_bad_row(args, base_env, job, image, rows_text, owned, rng):
    """A data file with one bad row (an invalid colour for the typed `colour` var) among good
    ones, on a fresh volume: the shard holding it renders its good rows and exits 65, which
    fails only its index (FailIndex: no retry); the other shards complete; the Job ends Failed
    (FailedIndexes) with that index in failedIndexes; every good row's output is the bytes of a
    plain `reel batch`. Then the row fixed and the Job applied again: only that row renders."""
    shards = job["spec"]["completions"]
    work = os.path.join(args.scratch, "batch-volume-bad-row")

    def pod(index):
        return PodSpec(job, image, args.reel, work, index)

    env, vol = pod(0).env(), pod(0).volumes
    project, rows = vol.local(env["PROJECT"]), vol.local(env["ROWS"])
    out_dir = os.path.dirname(vol.local(env["OUTPUT_TEMPLATE"]))
    first_volume = os.path.join(args.scratch, "batch-volume")
    first_project = PodSpec(job, image, args.reel, first_volume, 0).volumes.local(env["PROJECT"])
    shutil.copytree(os.path.dirname(first_project), os.path.dirname(project))   # the template and its media

    # The bad row: the first row of a shard with more rows, so that good rows come after it.
    bad_shard = rng.choice([k for k in owned if len(owned[k]) >= 2])
    bad_row = min(owned[bad_shard])
    lines = rows_text.splitlines(keepends=True)      # lines[r] is row r (lines[0]: the header)
    bad_line, fixed_line = "bad,Bad colour,5,blurple\n", "bad,Bad colour,5,#808080\n"
    lines[bad_row] = bad_line
    with open(rows, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    row_count = len(lines) - 1
    good = [r for r in range(1, row_count + 1) if r != bad_row]
    name = {r: os.path.basename(next(owned[k][r] for k in owned if r in owned[k])) for r in good}
    name[bad_row] = "bad.mp4"
    R.info(f"volume {work}: row {bad_row} (shard {bad_shard}) is {bad_line.strip()!r}")

    # The reference: a plain reel batch of the same data, its own folder and cache.
    ref_dir = os.path.join(args.scratch, "batch-bad-row-ref")
    ref_env = dict(base_env, REEL_CACHE_DIR=os.path.join(args.scratch, "batch-bad-row-ref-cache"))
    ref_cmd = [args.reel, "batch", project, "--data", rows, "--output", os.path.join(ref_dir, "{{ id }}.mp4")]
    p = subprocess.run(ref_cmd, env=ref_env, capture_output=True, text=True, timeout=POD_TIMEOUT * 2)
    ref_named = {int(m.group(1)): m.group(2) for m in map(ROW_LINE.match, p.stdout.splitlines()) if m}
    require(p.returncode == 65 and ref_named == {r: "rendered" for r in good},
            f"reference: plain reel batch renders the {len(good)} good rows and exits {p.returncode} (invalid row {bad_row})",
            tail(p.stdout + p.stderr))

    # The bad shard first and one pod at a time, so that every other shard starts after its
    # failure: they run only because the policy fails the index, not the Job (with FailJob
    # the controller would start no more pods).
    t = time.monotonic()
    run = run_indexed_job(job, pod, base_env, shards, args.seed + 200, log=R.info, first=bad_shard, parallel=1)
    elapsed = time.monotonic() - t
    bad_pods = [r for r in run.pods if r.index == bad_shard]
    res = bad_pods[0] if bad_pods else None
    named = {int(m.group(1)): m.group(2) for m in map(ROW_LINE.match, res.stdout.splitlines()) if m} if res else {}
    want = {r: "rendered" for r in owned[bad_shard] if r != bad_row}
    R.check(res is not None and res.code == 65 and named == want and f"row {bad_row}" in res.stderr,
            f"shard {bad_shard} with bad row {bad_row}: "
            + ", ".join(f"row {r} {named[r]}" for r in sorted(named)) + f", then exit {res.code if res else None}",
            f"expected {want} and exit 65\n{res.stdout if res else ''}{tail(res.stderr) if res else ''}")
    action = failure_action(job, "reel", 65)
    R.check(action == "FailIndex" and len(bad_pods) == 1,
            f"exit 65 → {action}: index {bad_shard} failed without a retry ({len(bad_pods)} pod)")
    others = set(range(shards)) - {bad_shard}
    R.check(run.succeeded == others and all(r.code == 0 for r in run.pods if r.index in others)
            and run.pods and run.pods[0].index == bad_shard,
            f"the other shards started after index {bad_shard} had failed, and completed: indexes "
            f"{[r.index for r in run.pods if r.index != bad_shard]}",
            "; ".join(f"shard {r.index}: {r.code} {tail(r.stderr, 300)}" for r in run.pods if r.index in others and r.code))
    R.check(run.condition == "Failed" and run.reason == "FailedIndexes" and run.failed_indexes == {bad_shard}
            and run.failed_job is None,
            f"batch-shards: {run.condition} ({run.reason}), failedIndexes {sorted(run.failed_indexes)}, "
            f"{len(run.pods)} pods, {elapsed:.1f}s")
    same = {r: os.path.exists(os.path.join(out_dir, name[r])) and os.path.exists(os.path.join(ref_dir, name[r]))
            and sha256(os.path.join(out_dir, name[r])) == sha256(os.path.join(ref_dir, name[r])) for r in good}
    R.check(all(same.values()) and not os.path.exists(os.path.join(out_dir, name[bad_row])),
            f"the {len(good)} good rows' outputs byte-identical to the plain batch's; none for row {bad_row}",
            f"rows equal: {same}")

    # The row fixed, the Job applied again (as the README says): only that row renders.
    lines[bad_row] = fixed_line
    with open(rows, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    p = subprocess.run(ref_cmd, env=ref_env, capture_output=True, text=True, timeout=POD_TIMEOUT * 2)
    require(p.returncode == 0, "reference: plain reel batch with the row fixed", tail(p.stdout + p.stderr))
    again = run_indexed_job(job, pod, base_env, shards, args.seed + 300)
    rendered = sorted(int(m.group(1)) for r in again.pods for m in map(ROW_LINE.match, r.stdout.splitlines())
                      if m and m.group(2) == "rendered")
    fixed_same = sha256(os.path.join(out_dir, name[bad_row])) == sha256(os.path.join(ref_dir, name[bad_row])) \
        if os.path.exists(os.path.join(out_dir, name[bad_row])) else False
    R.check(again.condition == "Complete" and rendered == [bad_row] and fixed_same,
            f"row {bad_row} fixed, batch-shards applied again: {again.condition}, rendered rows {rendered} "
            f"(the others up to date), its output byte-identical to the plain batch's",
            "; ".join(f"shard {r.index}: {r.code} {tail(r.stdout + r.stderr, 300)}" for r in again.pods))


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reel", required=True, help="the reel binary under test")
    ap.add_argument("--only", default="schema,rules,layout,segments,batch")
    ap.add_argument("--seed", type=int, default=None, help="shuffles and the killed index (default: random)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()
    args.reel = os.path.abspath(args.reel)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 30)
    steps = [s.strip() for s in args.only.split(",") if s.strip()]
    print(f"deploy/kubernetes contract test: reel {args.reel}, seed {args.seed} (--seed {args.seed} repeats it)",
          flush=True)
    args.scratch = tempfile.mkdtemp(prefix="reel-k8s-test-")
    # The pods' environment: PATH and a locale; HOME in the scratch folder, so nothing reaches
    # the caller's ~/.cache.
    home = os.path.join(args.scratch, "home")
    os.makedirs(home)
    base_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8"}
    global SCRATCH
    SCRATCH = args.scratch
    started = time.monotonic()
    try:
        for step in steps:
            t = time.monotonic()
            print(f"== {step}", flush=True)
            try:
                if step == "schema":
                    step_schema(args)
                elif step == "rules":
                    step_rules(args)
                elif step == "layout":
                    step_layout(args)
                elif step == "segments":
                    step_segments(args, base_env)
                elif step == "batch":
                    step_batch(args, base_env)
                else:
                    R.check(False, f"unknown step {step}")
            except StepFailed as e:
                R.info(f"step {step} stopped: {e}")
            except Exception as e:  # a bug or an unexpected state: a failure, with its reason
                R.check(False, f"step {step} raised {type(e).__name__}: {e}")
            print(f"   ({step}: {time.monotonic() - t:.1f}s)", flush=True)
    finally:
        if args.keep:
            print(f"kept {args.scratch}")
        else:
            shutil.rmtree(args.scratch, ignore_errors=True)
    print(f"({time.monotonic() - started:.1f}s in all)")
    print(f"kubernetes: {R.passed} passed, {R.failed} failed", flush=True)
    return 0 if R.failed == 0 and R.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
