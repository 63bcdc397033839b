# Held out (bpf/heldout/README, set 7): two and a half thousand game
# sessions, a few servers' of them most of the frames (Zipf 1.2), small
# UDP updates, some TCP and pings.
workload gaming
seed 72
frames 20000
flows 2500 zipf 1.2
mix udp 85 tcp 10 icmp 5
sizes 80 40 160 40 300 20
