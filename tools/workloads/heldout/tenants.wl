# Held out (bpf/heldout/README, set 9): a few hundred tenants' flows of
# strong skew (Zipf 1.25), UDP-heavy with some ARP, frames of every
# size.
workload tenants
seed 97
frames 20000
flows 400 zipf 1.25
mix udp 50 tcp 30 tcp_syn 5 icmp 10 arp 5
sizes 64 30 576 30 1514 40
