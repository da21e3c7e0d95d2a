#!/usr/bin/env python3
"""Loads a running `gpuplan serve` over loopback the ways issue 38 found it starving, and prints
what the clients saw (docs/serve.md, "Limits"; docs/reliability.md).

    tools/serve_load.py PORT slow N        N connections trickling a header byte every 2 s (plus N
                                           idle ones), then one valid quote: its status and wait
    tools/serve_load.py PORT keepalive N S N clients asking for quotes for S seconds, each on
                                           keep-alive connections: per client its answers by
                                           status, and the longest wait for any answer

Only the standard library; every socket goes to 127.0.0.1.
"""
import json
import socket
import sys
import threading
import time

QUOTE = json.dumps({"fields": {"/training/params": "7B", "/training/tokens": "200B",
                               "/training/deadline": "30d",
                               "/options/instances": "p5.48xlarge"}}).encode()


def request(port):
    return (f"POST /api/quote HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nConnection: keep-alive\r\n"
            f"Content-Length: {len(QUOTE)}\r\n\r\n").encode() + QUOTE


def ask(port, timeout=120):
    """One quote on a fresh connection: (status, seconds); status 0 when nothing came back."""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(request(port))
            got = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
        status = int(got[9:12]) if got.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        status = 0
    return status, time.monotonic() - t0


def slow(port, n):
    held = []
    for k in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Trickle: ".encode())
        held.append(s)
        held.append(socket.create_connection(("127.0.0.1", port)))  # idle: sends nothing
    stop = threading.Event()

    def trickle():
        while not stop.wait(2):
            for s in held[::2]:
                try:
                    s.send(b"a")
                except OSError:
                    pass

    t = threading.Thread(target=trickle)
    t.start()
    time.sleep(1)
    status, waited = ask(port)
    stop.set()
    t.join()
    for s in held:
        s.close()
    print(f"{n} trickling + {n} idle connections: quote answered {status} in {waited:.3f} s")


def keepalive(port, n, seconds):
    results = [dict() for _ in range(n)]
    worst = [0.0] * n
    end = time.monotonic() + seconds

    def client(k):
        while time.monotonic() < end:
            status, waited = ask(port)
            results[k][status] = results[k].get(status, 0) + 1
            worst[k] = max(worst[k], waited)
            if status == 503:
                time.sleep(1)  # a polite client backs off; Retry-After says 5 s

    threads = [threading.Thread(target=client, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    totals = {}
    for r in results:
        for status, count in r.items():
            totals[status] = totals.get(status, 0) + count
    unanswered = sum(1 for r in results if not any(s != 0 for s in r))
    no_quote = sum(1 for r in results if r.get(200, 0) == 0)
    print(f"{n} clients for {seconds} s: answers by status {dict(sorted(totals.items()))}; "
          f"clients never answered {unanswered}, without a quote {no_quote}; "
          f"longest wait {max(worst):.2f} s")


def main():
    port, mode = int(sys.argv[1]), sys.argv[2]
    if mode == "slow":
        slow(port, int(sys.argv[3]))
    elif mode == "keepalive":
        keepalive(port, int(sys.argv[3]), float(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
