#!/usr/bin/env python3
"""Keeps N requests in flight against a canvas endpoint whose avatar host
never answers; each uses a distinct avatar URL (no single flight).
Usage: hang_clients.py SERVICE_BASE SLOW_BASE N SECONDS"""
import sys
import threading
import time
import urllib.request

base, slow, n, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
stop = time.time() + secs
counts = {}
lock = threading.Lock()


def worker(i):
    k = 0
    while time.time() < stop:
        k += 1
        url = f"{base}/canvas/filter/blur?avatar={slow}/a{i}-{k}.png"
        try:
            urllib.request.urlopen(url, timeout=30).read()
            code = 200
        except urllib.error.HTTPError as e:
            code = e.code
        except Exception:  # noqa: BLE001
            code = -1
        with lock:
            counts[code] = counts.get(code, 0) + 1
        if code == 503:
            time.sleep(0.05)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("hanging-client answers by status:", dict(sorted(counts.items())))
