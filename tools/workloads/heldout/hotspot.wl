# Held out (bpf/heldout/README, set 4): a few thousand flows, a handful
# of them most of the traffic (Zipf 1.5), mostly TCP and UDP with
# payload, frames up to full size.
workload hotspot
seed 41
frames 20000
flows 3000 zipf 1.5
mix tcp 50 udp 40 tcp_syn 5 icmp 5
sizes 128 20 512 30 1400 50
