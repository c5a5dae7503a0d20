#!/usr/bin/env python3
"""bench/flows.py - many concurrent TCP (and some UDP) flows for
bench/veth-capture.sh: the kernel makes the traffic, csumcheck reads it.

  flows.py server PORT                    accept and read everything (TCP), read UDP
  flows.py client ADDR PORT FLOWS BYTES [UDP_FLOWS] [SEED]
      FLOWS TCP connections, then 1,400-byte writes (TCP_NODELAY: one
      segment each) to connections picked at random until BYTES are sent;
      every tenth write instead goes as a UDP datagram from one of
      UDP_FLOWS sockets. Stops by itself.
"""
import os
import random
import selectors
import socket
import sys


def server(port):
    sel = selectors.DefaultSelector()
    lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.bind(("0.0.0.0", port))
    lst.listen(8192)
    lst.setblocking(False)
    sel.register(lst, selectors.EVENT_READ, "accept")
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("0.0.0.0", port))
    udp.setblocking(False)
    sel.register(udp, selectors.EVENT_READ, "udp")
    open_conns = 0
    seen = False
    while True:
        for key, _ in sel.select(timeout=5):
            if key.data == "accept":
                try:
                    c, _ = lst.accept()
                except BlockingIOError:
                    continue
                c.setblocking(False)
                sel.register(c, selectors.EVENT_READ, "conn")
                open_conns += 1
                seen = True
            elif key.data == "udp":
                try:
                    while udp.recv(65536):
                        pass
                except BlockingIOError:
                    pass
            else:
                try:
                    d = key.fileobj.recv(1 << 20)
                except (BlockingIOError, ConnectionResetError):
                    d = b"x"
                if not d:
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
                    open_conns -= 1
        if seen and open_conns == 0:
            return


def client(addr, port, flows, total, udp_flows, seed):
    rnd = random.Random(seed)
    socks = []
    for _ in range(flows):
        s = socket.create_connection((addr, port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.setblocking(False)
        socks.append(s)
    us = []
    for _ in range(udp_flows):
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.connect((addr, port))
        us.append(u)
    sent = 0
    while sent < total:
        data = os.urandom(1400)
        if us and rnd.random() < 0.1:
            try:
                sent += rnd.choice(us).send(data[:rnd.randrange(64, 1400)])
            except OSError:
                pass
            continue
        s = rnd.choice(socks)
        try:
            sent += s.send(data)
        except BlockingIOError:
            pass
    for s in socks:
        s.setblocking(True)
        s.close()


if __name__ == "__main__":
    if sys.argv[1] == "server":
        server(int(sys.argv[2]))
    else:
        a = sys.argv[2:]
        client(a[0], int(a[1]), int(a[2]), int(a[3]), int(a[4]) if len(a) > 4 else 0,
               int(a[5]) if len(a) > 5 else 1)
