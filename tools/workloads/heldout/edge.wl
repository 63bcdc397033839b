# Held out (bpf/heldout/README): an access edge -- connection setup, ARP,
# DNS-sized datagrams and bulk, over 5000 flows of moderate skew.
workload edge
seed 12
frames 20000
flows 5000 zipf 0.7
mix tcp_syn 20 tcp 30 udp 35 icmp 5 arp 10
sizes 60 35 90 20 576 25 1280 20
