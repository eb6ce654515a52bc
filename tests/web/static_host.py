"""A static host for the exported page, as a plain one serves it: files by path, their gzipped twin
(``NAME.gz``) to a browser that takes gzip, ``ETag`` and ``304``, ``404.html`` for a path it has
not. It counts what it sends (status line, headers and body), request by request."""

from __future__ import annotations

import hashlib
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from kosti.web.site import content_type


@dataclass
class Served:
    """What the host sent: each request's path, status and bytes on the wire; and the directory
    it serves (which a test may change: a new build of the site put in place)."""

    root: Path
    requests: list[tuple[str, int, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str, status: int, size: int) -> None:
        with self.lock:
            self.requests.append((path, status, size))

    def total(self) -> int:
        with self.lock:
            return sum(size for _, _, size in self.requests)

    def mark(self) -> int:
        with self.lock:
            return len(self.requests)

    def since(self, mark: int) -> list[tuple[str, int, int]]:
        with self.lock:
            return list(self.requests[mark:])


def handler(served: Served) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            root = served.root
            path = self.path.split("?", 1)[0]
            target = root / (path.lstrip("/") or "index.html")
            status = 200
            if not target.resolve().is_relative_to(root.resolve()) or not target.is_file():
                target, status = root / "404.html", 404
            body = target.read_bytes()
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            relative = target.relative_to(root).as_posix()
            headers = {"Content-Type": content_type(relative), "ETag": etag}
            headers["Cache-Control"] = "no-cache"
            packed = target.with_name(target.name + ".gz")
            if packed.is_file() and "gzip" in self.headers.get("Accept-Encoding", ""):
                body = packed.read_bytes()
                headers["Content-Encoding"] = "gzip"
            headers["Vary"] = "Accept-Encoding"
            if status == 200 and self.headers.get("If-None-Match") == etag:
                status, body = 304, b""
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            head = sum(len(k) + len(v) + 4 for k, v in headers.items()) + 40
            served.add(path, status, head + len(body))

    return Handler


@contextmanager
def static_host(root: Path) -> Iterator[tuple[str, Served]]:
    """Serve ``root`` on a free port of loopback: its base URL, and what it sent."""
    served = Served(root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(served))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", served
    finally:
        server.shutdown()
        server.server_close()
