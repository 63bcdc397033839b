#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ncl_forge - windows a host sends as someone else, for ncl.sh and ncl_kv.sh.

  ncl_forge.py ar IFNAME SRC_MAC SRC_IP SENDER SEQS VALUE DST_MAC DST_IP
      AllReduce windows (kernel 1) 0 .. SEQS - 1 claiming label SENDER,
      every element VALUE, sent raw out of IFNAME from SRC_MAC and SRC_IP
      (the sending host's own or another's) to DST (the switch's label)
  ncl_forge.py kv IFNAME SRC_MAC SRC_IP SENDER OP KEY VERSION DST_MAC DST_IP
      one key-value cache window (kernel 2) of kind OP (bpf/ncl/kvcache.h)
      for KEY at VERSION, its value a whole-looking one, to DST
  ncl_forge.py get SERVER_IP SENDER KEY GETS
      a client's probe: binds the NCP port, prints "ready", waits for a
      line on stdin, then sends GETS GETs for KEY, 0.5 s apart, and
      prints every window it received, "OP VERSION" a line (REPLY is 5,
      HIT 7, PUT_ACK 6)

Raw frames (AF_PACKET) so that a test can claim another host's MAC and IPv4
address on its own port: the switch must refuse that too.
"""
import select
import socket
import struct
import sys
import time

PORT = 9477
AR_ELEMS = 256
KV_VALUE = 128


def ncp(kernel, mask, seq, sender, length, user0=0, user1=0, off1=0):
    return (struct.pack(">BBBBII", 1, kernel, 0, mask, 0, off1) +
            struct.pack(">IHHII", seq, sender, length, user0, user1))


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def frame(src_mac, src_ip, dst_mac, dst_ip, payload):
    udp = struct.pack("!HHHH", PORT, PORT, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64,
                     17, 0, socket.inet_aton(src_ip), socket.inet_aton(dst_ip))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    mac = bytes.fromhex(dst_mac.replace(":", "")) + \
        bytes.fromhex(src_mac.replace(":", ""))
    return mac + b"\x08\x00" + ip + udp


def raw(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    return s


def ar(a):
    ifname, src_mac, src_ip, sender, seqs, value, dst_mac, dst_ip = a
    s = raw(ifname)
    data = struct.pack(">%di" % AR_ELEMS, *([int(value)] * AR_ELEMS))
    for seq in range(int(seqs)):
        s.send(frame(src_mac, src_ip, dst_mac, dst_ip,
                     ncp(1, 1, seq, int(sender), AR_ELEMS) + data))
        time.sleep(0.002)


def kv_value(key, tag):
    # nclkv's shape: key, tag, then a function of the tag (not checked here)
    return struct.pack("<QQ", key, tag) + bytes(KV_VALUE - 16)


def kv(a):
    ifname, src_mac, src_ip, sender, op, key, version, dst_mac, dst_ip = a
    op, key = int(op), int(key)
    win = ncp(2, 1 if op == 4 else 3, 0, int(sender), 1, op, int(version))
    win += struct.pack("<Q", key)
    if op != 4:
        win += kv_value(key, 0xbad)
    raw(ifname).send(frame(src_mac, src_ip, dst_mac, dst_ip, win))


def get(a):
    server, sender, key, gets = a[0], int(a[1]), int(a[2]), int(a[3])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", PORT))
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(gets):
        win = ncp(2, 3, i, sender, 1, 1, 0, 0) + struct.pack("<Q", key) + \
            bytes(KV_VALUE)
        s.sendto(win, (server, PORT))
        end = time.monotonic() + 0.5 if i + 1 < gets else time.monotonic() + 2
        while True:
            left = end - time.monotonic()
            if left <= 0 or not select.select([s], [], [], left)[0]:
                break
            b = s.recv(2048)
            if len(b) < 28:
                print("short", flush=True)
                continue
            op, ver = struct.unpack(">II", b[20:28])
            print(op, ver, flush=True)


def main():
    cmds = {"ar": (ar, 8), "kv": (kv, 9), "get": (get, 4)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
            len(sys.argv) - 2 != cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    cmds[sys.argv[1]][0](sys.argv[2:])


if __name__ == "__main__":
    main()
