#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ncp_bad - malformed Net Compute Protocol windows for ncl.sh.

  ncp_bad.py ADDR STALE_SEQ

sends, to ADDR's NCP port, one frame of each kind below, and prints
the ncl_stats slot each should be dropped under (bpf/ncp.h), one a line.
The allreduce kernel must be deployed, with a finished job of 2 workers;
STALE_SEQ is a window of no slot (one finished and reused, or one that
no slot holds yet).
"""
import socket
import struct
import sys
import time

PORT = 9477


def window(version=1, kernel=1, flags=0, mask=1, seq=0, sender=1, length=256,
           data=None):
    hdr = struct.pack(">BBBBII", version, kernel, flags, mask, 0, 0)
    win = struct.pack(">IHHII", seq, sender, length, 0, 0)
    if data is None:
        data = bytes(4 * length)
    return hdr + win + data


def cases(stale):
    return [
        ("truncated", b"\x01\x01\x00\x01\x00"),
        ("malformed", window(version=9)),
        ("unknown", window(kernel=77)),
        ("bad_mask", window(mask=3, length=1, data=bytes(8))),
        ("malformed", window(sender=9)),
        ("forged", window(sender=2)),
        ("stale", window(seq=stale)),
        ("malformed", window(length=0, data=b"")),
        ("truncated", window(data=bytes(100))),
    ]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for name, payload in cases(int(sys.argv[2])):
        s.sendto(payload, (sys.argv[1], PORT))
        print(name, flush=True)
        time.sleep(0.05)
    # IP options move the UDP header: the framework takes no such window
    o = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    o.setsockopt(socket.IPPROTO_IP, socket.IP_OPTIONS, b"\x01\x01\x01\x00")
    o.sendto(window(), (sys.argv[1], PORT))
    print("malformed", flush=True)


if __name__ == "__main__":
    main()
