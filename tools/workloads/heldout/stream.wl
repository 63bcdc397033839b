# Held out (bpf/heldout/README, set 8): sixteen media streams, a few of
# them most of the traffic (Zipf 1.3), UDP of 1,200 to 1,500 bytes, some
# TCP control and ARP.
workload stream
seed 81
frames 20000
flows 16 zipf 1.3
mix udp 85 tcp 10 arp 5
sizes 1200 30 1400 50 1500 20
