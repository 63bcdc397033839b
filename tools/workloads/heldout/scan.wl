# Held out (bpf/heldout/README): a scan -- every frame from a new source,
# mostly SYNs and small UDP probes, a few large frames.
workload scan
seed 13
frames 20000
flows 4000000 uniform
mix tcp_syn 60 udp 30 icmp 10
sizes 60 80 128 15 1024 5
