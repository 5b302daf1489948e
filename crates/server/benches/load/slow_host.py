#!/usr/bin/env python3
"""An avatar host that accepts connections and never answers (for the
'JSON stays fast while avatar fetches hang' measurement). Loopback only."""
import socket
import sys
import threading
import time

port = int(sys.argv[1]) if len(sys.argv) > 1 else 18082
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(1024)


def hold(conn):
    time.sleep(120)
    conn.close()


while True:
    c, _ = srv.accept()
    threading.Thread(target=hold, args=(c,), daemon=True).start()
