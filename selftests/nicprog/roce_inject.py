#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send crafted RoCEv2 frames at a QP, out of a port (AF_PACKET).

  roce_inject.py IFNAME DST_MAC SRC_IP DST_IP QPN KIND [COUNT]

KIND: "icrc" (a SEND_ONLY whose ICRC is wrong), "good" (a SEND_ONLY with
a good ICRC and a PSN half the PSN space from the last one sent: of two,
one is ahead of what the QP expects, a sequence error, and one behind, a
duplicate), "short" (IP's total length past the frame's end). The ICRC is computed
here from the RoCEv2 annex's definition -- CRC-32 (zlib's) over eight
bytes of ones and the IP, UDP and BTH headers with the fields a router
may change masked with ones, then the rest -- independently of the
engine's code, so a good frame the engine calls bad shows a mismatch.
"""
import socket
import struct
import sys
import zlib


def icrc(ip_to_end):
    hdr = bytearray(ip_to_end[:40])
    hdr[1] = 0xff                       # TOS
    hdr[8] = 0xff                       # TTL
    hdr[10:12] = b'\xff\xff'            # IP checksum
    hdr[26:28] = b'\xff\xff'            # UDP checksum
    hdr[32] = 0xff                      # BTH: FECN, BECN, reserved
    return zlib.crc32(b'\xff' * 8 + bytes(hdr) + ip_to_end[40:]) & 0xffffffff


def csum(b):
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def frame(src_mac, dst_mac, sip, dip, qpn, kind, psn):
    payload = b'injected' * 4
    bth = struct.pack('!BBHII', 0x04, 0, 0xffff, qpn & 0xffffff,
                      0x80000000 | psn)             # SEND_ONLY, AckReq
    udp_len = 8 + len(bth) + len(payload) + 4
    tot = 20 + udp_len
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, tot, 0, 0x4000, 64, 17, 0,
                     socket.inet_aton(sip), socket.inet_aton(dip))
    ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
    udp = struct.pack('!HHHH', 0xc123, 4791, udp_len, 0)
    body = ip + udp + bth + payload
    crc = icrc(body)
    if kind == 'icrc':
        crc ^= 0x1
    body += struct.pack('<I', crc)
    if kind == 'short':
        body = body[:-12]
    return dst_mac + src_mac + b'\x08\x00' + body


def main():
    ifname, dst, sip, dip, qpn, kind = sys.argv[1:7]
    count = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    src = s.getsockname()[4]
    for i in range(count):
        s.send(frame(src, bytes.fromhex(dst.replace(':', '')), sip, dip,
                     int(qpn, 0), kind, 0x7fffff if i % 2 else 0xffffff))


if __name__ == '__main__':
    main()
