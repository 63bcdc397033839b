#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Which host RX queue each frame arrived on, seen by the host stack.

    rss_fanout.py NF IN FRAMES

Opens four AF_PACKET sockets on NF in one PACKET_FANOUT_QM group (the
kernel picks the socket by the skb's recorded RX queue: socket
(queue + 1) % 4, queue_mapping being the queue plus one), sends FRAMES
UDP/IPv4 frames of distinct flows from IN, and prints how many of them
each socket received, socket 0 first.
"""
import socket
import struct
import sys
import time

SOL_PACKET = 263
PACKET_FANOUT = 18
PACKET_FANOUT_QM = 5
ETH_P_ALL = 3
SRC_MAC = bytes.fromhex("02feedbeef01")


def frame(k):
    ip_src = struct.pack("!I", 0x0a000000 | (k * 7919 & 0xffff))
    ip_dst = bytes([10, 1, 0, 1])
    udp = struct.pack("!HHHH", 1024 + k % 50000, 53, 8 + 18, 0) + bytes(18)
    ip = struct.pack("!BBHHHBBH", 0x45, 0, 20 + len(udp), k & 0xffff, 0,
                     64, 17, 0) + ip_src + ip_dst
    return b"\xff" * 6 + SRC_MAC + b"\x08\x00" + ip + udp


def main():
    nf, inp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    socks = []
    for _ in range(4):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                          socket.htons(ETH_P_ALL))
        s.bind((nf, 0))
        s.setsockopt(SOL_PACKET, PACKET_FANOUT,
                     0x2a2a | (PACKET_FANOUT_QM << 16))
        s.setblocking(False)
        socks.append(s)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((inp, 0))
    counts = [0] * 4
    for k in range(n):
        tx.send(frame(k))
        if k % 64 == 63:
            time.sleep(0.02)
    end = time.time() + 10
    while sum(counts) < n and time.time() < end:
        got = False
        for i, s in enumerate(socks):
            try:
                data = s.recv(2048)
            except BlockingIOError:
                continue
            got = True
            if data[6:12] == SRC_MAC:
                counts[i] += 1
        if not got:
            time.sleep(0.01)
    print(" ".join(map(str, counts)))


if __name__ == "__main__":
    main()
