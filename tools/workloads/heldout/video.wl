# Held out (bpf/heldout/README, set 6): forty streaming flows, a few of
# them most of the bytes (Zipf 0.9), UDP-heavy, near-full frames, some
# ARP.
workload video
seed 62
frames 20000
flows 40 zipf 0.9
mix udp 80 tcp 15 arp 5
sizes 1024 20 1400 70 1500 10
