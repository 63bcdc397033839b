# Held out (bpf/heldout/README, set 10): telemetry from a hundred and
# twenty thousand sensors, each seldom seen (uniform), small UDP reports
# and some TCP opens.
workload sensor
seed 103
frames 20000
flows 120000 uniform
mix udp 85 tcp_syn 15
sizes 96 70 256 30
