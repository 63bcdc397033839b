# Held out (bpf/heldout/README, set 10): a branch office's edge, eight
# hundred flows of moderate skew (Zipf 1.0), TCP-heavy with opens, some
# UDP, ARP and pings, frames from minimum size to full.
workload kiosk
seed 101
frames 20000
flows 800 zipf 1.0
mix tcp_syn 8 tcp 55 udp 25 icmp 6 arp 6
sizes 64 45 576 25 1514 30
