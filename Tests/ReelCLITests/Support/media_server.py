"""A media server on 127.0.0.1 for the tests (python3 media_server.py FOLDER): serves the files
of FOLDER under paths that behave differently, logs every request, and prints its port on the
first line of stdout.

  /NAME            the file, with an ETag and Last-Modified; 304 to a matching conditional GET
  /missing/NAME    404
  /error/NAME      500
  /stall/NAME      headers and 1000 bytes, then nothing (until the server is stopped)
  /truncated/NAME  a Content-Length of the whole file, half the bytes, then the connection closes
  /gzip/NAME       the file gzip-compressed (Content-Encoding: gzip, Content-Length of the
                   compressed body) whatever the request accepts, as some servers do
  /slow/NAME       headers, then one byte a second
  /loop/NAME       302 to itself, for ever
  /to-ftp/NAME     302 to ftp://127.0.0.1/NAME
  /html/NAME       200 with a web page (Content-Type: text/html), as a sharing site's page is
  /auth/NAME       the file to Basic credentials user:secret, else 401

Each request is logged to stdout as:
METHOD PATH if-none-match=VALUE if-modified-since=VALUE accept-encoding=VALUE
"""
import base64
import gzip
import http.server
import os
import sys
import time

FOLDER = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        print("GET %s if-none-match=%s if-modified-since=%s accept-encoding=%s" % (
            self.path, self.headers.get("If-None-Match", "-"), self.headers.get("If-Modified-Since", "-"),
            self.headers.get("Accept-Encoding", "-")), flush=True)
        mode, _, name = self.path.lstrip("/").rpartition("/")
        path = os.path.join(FOLDER, os.path.basename(name))
        if not os.path.isfile(path) or mode == "missing":
            self.send_error(404)
            return
        if mode == "error":
            self.send_error(500)
            return
        if mode in ("loop", "to-ftp"):
            self.send_response(302)
            self.send_header("Location", self.path if mode == "loop" else "ftp://127.0.0.1/" + name)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "html":
            page = b"<!DOCTYPE html><html><body><video src='clip.mp4'></video></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return
        if mode == "auth" and self.headers.get("Authorization") != "Basic " + base64.b64encode(b"user:secret").decode():
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="media"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with open(path, "rb") as f:
            body = f.read()
        etag = '"%d-%d"' % (len(body), int(os.path.getmtime(path)))
        if mode == "gzip":
            packed = gzip.compress(body, mtime=0)
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(packed)))
            self.end_headers()
            self.wfile.write(packed)
            return
        if mode == "" and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", self.date_time_string(int(os.path.getmtime(path))))
        self.end_headers()
        if mode == "stall":
            self.wfile.write(body[:1000])
            self.wfile.flush()
            time.sleep(60)
        elif mode == "slow":
            for i in range(len(body)):
                self.wfile.write(body[i : i + 1])
                self.wfile.flush()
                time.sleep(1)
        elif mode == "truncated":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
        else:
            self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
