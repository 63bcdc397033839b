# Held out (bpf/heldout/README, set 2): resolver traffic -- mostly small
# and medium datagrams, some connection setup, 3000 flows of mild skew.
workload dns
seed 21
frames 20000
flows 3000 zipf 0.9
mix udp 65 tcp_syn 15 tcp 15 icmp 5
sizes 96 40 180 35 540 25
