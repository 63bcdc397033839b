#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""wire_io - numbered UDP datagrams across a nicsim wire, for wire.sh.

  wire_io.py send ADDR PORT COUNT SIZE
      send COUNT datagrams of SIZE bytes (blocking socket: the wire's pace
      holds it back); print the CLOCK_MONOTONIC ns just before the first
  wire_io.py recv PORT COUNT IDLE_S [SEQ_FILE]
      receive until COUNT arrived or none for IDLE_S seconds; print the
      count and the CLOCK_MONOTONIC ns the last arrived at; with SEQ_FILE,
      write the sequence numbers received, one a line

Each datagram starts with its sequence number (8 bytes, big-endian).
"""
import select
import socket
import struct
import sys
import time


def send(addr, port, count, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    pad = b"\0" * max(size - 8, 0)
    print(time.monotonic_ns(), flush=True)
    for i in range(count):
        s.sendto(struct.pack(">Q", i) + pad, (addr, port))


def recv(port, count, idle, seq_file):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # room for every datagram of a run: only the wire may lose one (root)
    s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33),
                 32 << 20)
    s.bind(("0.0.0.0", port))
    # ready to receive: the caller waits for this line before sending
    print("ready", flush=True)
    got, last, seqs = 0, 0, []
    while got < count:
        r, _, _ = select.select([s], [], [], idle)
        if not r:
            break
        data = s.recv(65536)
        last = time.monotonic_ns()
        got += 1
        seqs.append(struct.unpack(">Q", data[:8])[0])
    print(got, last, flush=True)
    if seq_file:
        with open(seq_file, "w") as f:
            f.write("".join("%d\n" % q for q in seqs))


def main():
    a = sys.argv[1:]
    if len(a) == 5 and a[0] == "send":
        send(a[1], int(a[2]), int(a[3]), int(a[4]))
    elif len(a) in (4, 5) and a[0] == "recv":
        recv(int(a[1]), int(a[2]), float(a[3]), a[4] if len(a) == 5 else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
