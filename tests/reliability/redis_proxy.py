"""A TCP proxy in front of a Redis that can make one kind of connection hang while the
others are answered: the broker's (Celery's queue, kombu's keys) or the cache's (keys with
the cache's prefix). What a connection is, the proxy learns from the commands it carries;
one that has carried neither kind (a health check's PING, a heartbeat) is always answered.

So a test has Redis answer the cache while the broker's connections time out, or the other
way round, as a connection kept across a firewall's or NAT's forgetting, a pool's stale
socket or a half-open link would (both uses share one Redis and one REDIS_URL, so nothing
else separates them)."""

from __future__ import annotations

import socket
import threading
import time

from tests.reliability.stack import free_port

BROKER = "broker"
CACHE = "cache"
#: Bytes of a command that tell a broker connection: kombu's keys, Celery's queue.
BROKER_WORDS = (b"_kombu", b"\r\ncelery\r\n", b"unacked")


class RedisProxy:
    """Listens on a port of its own and forwards to ``target_port``; :attr:`hung` is the
    kind of connection ("broker", "cache" or None) whose traffic is held, unanswered."""

    def __init__(self, target_port: int, cache_prefix: str) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.target_port = target_port
        self.cache_word = f"{cache_prefix}:1:".encode()
        self.hung: str | None = None
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", self.port))
        self._listener.listen(100)
        self._sockets: list[socket.socket] = []
        self._closed = False

    def start(self) -> RedisProxy:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        for sock in self._sockets:
            try:
                sock.close()
            except OSError:
                pass

    def _kind(self, chunk: bytes, kind: str | None) -> str | None:
        if kind is not None:
            return kind
        if any(word in chunk for word in BROKER_WORDS):
            return BROKER
        if self.cache_word in chunk:
            return CACHE
        return None

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            self._sockets += [client, server]
            kind: list[str | None] = [None]
            for source, sink, upstream in ((client, server, True), (server, client, False)):
                threading.Thread(
                    target=self._pump, args=(source, sink, kind, upstream), daemon=True
                ).start()

    def _pump(self, source: socket.socket, sink: socket.socket, kind: list, upstream: bool) -> None:
        while True:
            try:
                chunk = source.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                for sock in (source, sink):
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                return
            if upstream:
                kind[0] = self._kind(chunk, kind[0])
            while kind[0] is not None and kind[0] == self.hung and not self._closed:
                time.sleep(0.05)  # held: the client waits for an answer that does not come
            try:
                sink.sendall(chunk)
            except OSError:
                return
