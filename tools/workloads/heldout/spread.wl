# Held out (bpf/heldout/README, set 5): twelve thousand flows of even
# skew (Zipf 1.0), UDP-heavy, with ARP and pings, sizes from minimum to
# a tunnel's MTU.
workload spread
seed 52
frames 20000
flows 12000 zipf 1.0
mix udp 50 tcp 25 tcp_syn 5 icmp 15 arp 5
sizes 64 30 576 30 1280 40
