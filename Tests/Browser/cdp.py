"""A small Chrome DevTools Protocol client over WebSocket, standard library only.

Enough for the preview's browser test: start headless Chromium, open a page target, send
commands and wait for their answers (events are kept for whoever asks). Every wait has a
time limit.
"""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request


class WebSocket:
    """A client WebSocket (RFC 6455): text frames out (masked), text frames in."""

    def __init__(self, url, timeout=10):
        assert url.startswith("ws://"), url
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("the DevTools socket closed during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(f"no WebSocket upgrade: {head[:200]!r}")

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x81])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _exactly(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the DevTools socket closed")
            data += chunk
        return data

    def receive(self, timeout):
        """The next whole text message, or None when nothing came within `timeout` seconds."""
        self.sock.settimeout(timeout)
        message = b""
        try:
            while True:
                first, second = self._exactly(2)
                self.sock.settimeout(30)  # the rest of a frame that has started comes quickly
                n = second & 0x7F
                if n == 126:
                    n = struct.unpack(">H", self._exactly(2))[0]
                elif n == 127:
                    n = struct.unpack(">Q", self._exactly(8))[0]
                payload = self._exactly(n)
                opcode = first & 0x0F
                if opcode == 8:
                    raise ConnectionError("the DevTools socket was closed by the browser")
                if opcode in (0, 1, 2):
                    message += payload
                    if first & 0x80:
                        return message.decode()
        except socket.timeout:
            if message:
                raise
            return None


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, width=1400, height=1000):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            raise RuntimeError("Chromium is not installed (Debian: apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="reel-chromium-")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb",
             "--autoplay-policy=no-user-gesture-required", "--no-first-run", "--disable-background-networking",
             f"--window-size={width},{height}", f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().count("\n") >= 1):
            if time.time() > deadline or self.process.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not open its DevTools port within 30 s")
            time.sleep(0.1)
        port = int(open(port_file).read().split("\n")[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events = []
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method, timeout=30, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.ws.receive(max(0.05, deadline - time.time()))
            if text is None:
                continue
            message = json.loads(text)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)
        raise TimeoutError(f"{method}: no answer within {timeout} s")

    def evaluate(self, expression, timeout=30):
        """The value of a JavaScript expression (promises awaited)."""
        result = self.send("Runtime.evaluate", timeout=timeout, expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout, what):
        """Polls `expression` until it is truthy; returns the seconds it took."""
        start = time.time()
        while time.time() - start < timeout:
            try:
                if self.evaluate(expression):
                    return time.time() - start
            except RuntimeError:
                pass  # the page is still loading
            time.sleep(0.02)
        raise TimeoutError(f"{what}: not within {timeout} s")

    def key(self, key, code, key_code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code,
                      text=key if kind == "keyDown" and len(key) == 1 else "")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        if getattr(self, "process", None) and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
