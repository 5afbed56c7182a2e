"""A webhook receiver on 127.0.0.1 for the tests (python3 webhook_receiver.py): records every
request and prints its port on the first line of stdout.

  /ok        200
  /error     500
  /slow      200 after 5 seconds
  /redirect  302 to /ok
  /flaky     500 to its first request, 200 to the others

Each request is logged to stdout, as it arrives, as one JSON line: method, path, headers
(names lower-cased) and the raw body in base64.
"""
import base64
import http.server
import json
import time


class Handler(http.server.BaseHTTPRequestHandler):
    seen = {}

    def answer(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        print(json.dumps({
            "method": self.command,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": base64.b64encode(body).decode(),
        }), flush=True)
        if self.path == "/slow":
            time.sleep(5)
        Handler.seen[self.path] = Handler.seen.get(self.path, 0) + 1
        flaky = self.path == "/flaky" and Handler.seen[self.path] == 1
        self.send_response(500 if flaky else {"/error": 500, "/redirect": 302}.get(self.path, 200))
        if self.path == "/redirect":
            self.send_header("Location", "/ok")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = answer

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
