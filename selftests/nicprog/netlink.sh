#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The nicprog generic netlink family through the nicprog CLI: dev-get,
# dev-set, prog-get and stats-get (do and dump) show what sysfs and the
# plan in debugfs show, -j and -p print JSON for every command, the
# monitor group reports programs attached, replaced and removed -- also by
# a device going away -- and a port in another namespace is seen only
# there. Hostile and unprivileged requests: nl_test.
. "$(dirname "$0")/lib.sh"
require_root_tools
CLI=$NICPROG_SRC/tools/nicprog/nicprog
[ -x "$CLI" ] || skip_all "tools/nicprog/nicprog not built (make tools)"
[ -x "$SELFDIR/nl_test" ] || skip_all "nl_test not built"
/usr/bin/python3 -c 'import json' 2>/dev/null || skip_all "python3 not installed"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
EX=$NICPROG_SRC/bpf/examples
TMP=$(mktemp -d /tmp/nicprog-netlink.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# jpy EXPR: EXPR over the JSON document on stdin (d), printed
jpy() { /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
# jok EXPR: EXPR over the JSON document on stdin holds
jok() { /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); sys.exit(not ($1))"; }
# jlines FILE: every line of FILE parses as JSON
jlines() { /usr/bin/python3 -c "import json, sys; [json.loads(l) for l in open(sys.argv[1])]" "$1"; }
# plan_line PORT PATTERN: the lines of PORT's debugfs plan starting with PATTERN
plan_line() { grep "^$2" "/sys/kernel/debug/nicprog/$1/plan"; }

# plan_as_prog PORT JSON: prog show's JSON of PORT's program says all its
# plan in debugfs says (table classes by the spec's names): per stage its
# cores, steering (and shard table), nodes, state and cycles; per table its
# class, MAT, region, accesses and reason; the host part's nodes, insns,
# share, state and entries; the engines and MAT stages it uses (and the
# share of calls on the engines); the
# verifier's and offloader's time
plan_as_prog() {
	/usr/bin/python3 - "/sys/kernel/debug/nicprog/$1/plan" "$2" <<'PY'
import json, re, sys
plan = open(sys.argv[1]).read()
p = json.load(open(sys.argv[2]))[0]
spec_class = {'read-only': 'readonly', 'shared-mutable': 'shared',
              'counters': 'counter'}
centi = lambda x: int(x.replace('.', ''))
bad = []
def same(what, want, got):
    if want != got:
        bad.append('%s: plan %r, prog show %r' % (what, want, got))
st = re.findall(r'^stage (\d+): cores (\d+)-(\d+), steer ([\w-]+)(?: \((\S+)\))?, '
                r'nodes (\d+), state in (\d+) bytes, cycles ([\d.]+)$', plan, re.M)
same('stages', len(st), len(p['stages']))
for (i, a, b, steer, shard, nodes, sb, cyc), j in zip(st, p['stages']):
    got = (j['index'], j['first_core'], j['replicas'], j['steer'],
           p['tables'][j['shard_table']]['name'] if 'shard_table' in j else '',
           j['nodes'], j['state_bytes'], j['cost'])
    same('stage ' + i, (int(i), int(a), int(b) - int(a) + 1, steer, shard,
                        int(nodes), int(sb), centi(cyc)), got)
tb = re.findall(r'^table (\d+) (\S+): ([\w-]+)( \(mat\))?, region (\S+)'
                r'(?: \(it did not fit the NIC\))?, accesses ([\d.]+): (.*)$', plan, re.M)
same('tables', len(tb), len(p['tables']))
for (i, name, cls, mat, region, acc, why), j in zip(tb, p['tables']):
    same('table ' + i, (int(i), name, spec_class.get(cls, cls), bool(mat),
                        region, centi(acc), why),
         (j['index'], j['name'], j['class'], j['mat'], j['region'],
          j['accesses'], j.get('reason', '')))
h = re.search(r'^host: (\d+) nodes, (\d+) insns \(the NIC holds (\d+) of \d+\): (.*)\n'
              r'host: ([\d.]+)% of packets handed over \(predicted\), at most (\d+) '
              r'bytes of state, at insns ([\d ]+)$', plan, re.M)
same('host part', bool(h), 'host' in p)
if h and 'host' in p:
    j = p['host']
    same('host', (int(h[1]), int(h[2]), int(h[3]), h[4], centi(h[5]), int(h[6]),
                  [int(x) for x in h[7].split()]),
         (j['nodes'], j['insns'], j['nic_insns'], j['reason'], j['share'],
          j['state_bytes'], j['entries']))
units = [('accel', k, int(n), int(sh or 16)) for k, n, sh in
         re.findall(r'^accel (\w+): \d+ calls on (\d+) engines, cycles [\d.]+'
                    r'(?:, (\d+)/16 of them engine jobs)?', plan, re.M)]
units += [('mat', '', int(n), 0) for n in re.findall(r'^mat: (\d+) stages', plan, re.M)]
same('units', sorted(units), sorted((u['type'], u.get('accel', ''), u['count'],
                                    u.get('share', 0)) for u in p['units']))
t = re.search(r'^time: verifier (\d+) us, offloader (\d+) us', plan, re.M)
same('time', (int(t[1]), int(t[2])), (p['verify_ns'] // 1000, p['plan_ns'] // 1000))
for b in bad:
    print('# ' + b)
sys.exit(bool(bad))
PY
}

# regions_as PROFILE JSON: dev show's regions (JSON) are those of the
# profile file PROFILE: size, latency, banks, cache, islands
regions_as() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, re, sys
mult = {'': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
num = lambda v: int(v[:-1]) * mult[v[-1]] if v[-1] in mult else int(v)
want = []
for l in open(sys.argv[1]):
    w = l.split()
    if w and w[0] == 'region':
        kv = dict(zip(w[2::2], w[3::2]))
        want.append((w[1], num(kv['size']), int(kv['latency']),
                     int(kv.get('banks', 0)), num(kv.get('cache', '0')),
                     int(kv.get('hit', 0)), int(kv.get('island', 0)),
                     kv.get('interleave', 'unknown')))
got = [(r['name'], r['bytes'], r['latency'], r.get('banks', 0),
        r.get('cache_bytes', 0), r.get('cache_latency', 0), r['island'],
        r['interleave'])
       for r in json.load(open(sys.argv[2]))[0]['regions']]
print('# profile %s, dev show %s' % (want, got))
sys.exit(want != got or not want)
PY
}

tap_begin
ID=$(nicsim_new_id)
P0=nicsim${ID}p0 P1=nicsim${ID}p1 P2=nicsim${ID}p2
nicsim_new "$ID" 3
echo "$ID:0 $ID:1" > "$BUS/link_device"
C=/sys/class/nicprog/$P0
NS=nl-$ID
netns_new "$NS"
port_to_ns "$NS" "$P1" 10.78.0.2/24
sysctl -qw "net.ipv6.conf.$P0.disable_ipv6=1"
ip addr add 10.78.0.1/24 dev "$P0"
ip link set "$P0" up

tap_info "hostile and unprivileged requests (nl_test)"
bad_args on && traced=1 || traced=0
kmsg=$(kmsg_mark)
"$SELFDIR/nl_test" "$P0" "$(cat $C/cores)" > "$TMP/nl_test" 2>&1
rc=$?
# What nl_test may leave there is not ours: the netlink core's warning
# for an attribute of the wrong length (lib/nlattr.c, any family), Debian's
# firmware loader's line for a firmware file it did not find (any driver),
# and the profile changes nl_test made on purpose.
klog=$(kmsg_ours "$kmsg" |
       grep -vE "netlink: 'nl_test': attribute type [0-9]+ has an invalid length|firmware: failed to load nicsim/|wiki\.debian\.org/Firmware|: profile: now ")
sed 's/^/# /' "$TMP/nl_test"
check "nl_test: every refusal as the family promises" test $rc = 0
quiet_log "nl_test's refused requests left nothing of nicprog's in the kernel log" \
	"$klog"
if [ $traced = 1 ]; then
	bad_args off
	check "the tracepoint says where nl_test's bad profile text is" \
		bad_args_seen 'nicprog_bad_arg: profile-set: profile text refused: line 2'
else
	tap_skip "the tracepoint says where nl_test's bad profile text is" "no tracefs in the guest"
fi

# dev show: one port, as sysfs shows it
"$CLI" -j dev show dev "$P0" > "$TMP/dev.json"
check "dev show -j parses as JSON: one port" jok 'len(d) == 1' < "$TMP/dev.json"
P0_IFINDEX=$(cat "/sys/class/net/$P0/ifindex")
for f in ifindex profile cores core_threads parsers mat_stages dma_engines \
	 mem_bytes insn_store; do
	expect_eq "dev show: $f as sysfs" "$(cat "$C/$f")" \
		"$(jpy "d[0]['$f']" < "$TMP/dev.json")"
done
expect_eq "dev show: regions, one per region" "$(cat "$C/mem_regions")" \
	"$(jpy "len(d[0]['regions'])" < "$TMP/dev.json")"
check "dev show: each region's size, latency, banks and cache as the profile" \
	regions_as "$NICPROG_SRC/drivers/nicsim/profiles/nicsim-generic.lnic" "$TMP/dev.json"
expect_eq "dev show: accelerators as sysfs" \
	"$(for f in "$C"/accelerators/*; do [ "$(cat "$f")" = 0 ] || echo -n "${f##*/}:$(cat "$f") "; done)" \
	"$(jpy "''.join('%s:%d ' % (a['type'], a['count']) for a in sorted(d[0]['accels'], key=lambda a: a['type']))" < "$TMP/dev.json")"
expect_eq "dev show: the plan settings" "auto 0 False 16" \
	"$(jpy "d[0]['plan']['shape'], d[0]['plan']['cores'], d[0]['plan']['partial'], d[0]['plan']['cores_free']" < "$TMP/dev.json" | tr -d "(),'")"
expect_eq "dev show: ring_dev is the port's device node (DEVNAME)" \
	"$(ring_node "$P0")" "/dev/$(jpy "d[0]['ring_dev']" < "$TMP/dev.json")"
check "dev show -p parses as JSON" sh -c "'$CLI' -p dev show dev $P0 | /usr/bin/python3 -m json.tool > /dev/null"
out=$("$CLI" dev show dev "$P0")
tap_info "$(head -n 1 <<< "$out")"
check "dev show in words names the profile" grep -q "profile nicsim-generic" <<< "$out"
"$CLI" -j dev show > "$TMP/all.json"
expect_eq "dev show (dump) lists the device's ports in this namespace" \
	"$P0 $P2" "$(jpy "' '.join(x['ifname'] for x in d if x['ifname'].startswith('nicsim${ID}p'))" < "$TMP/all.json")"
expect_eq "and the port in another namespace only there" "$P1" \
	"$(ip netns exec "$NS" "$CLI" -j dev show | jpy "' '.join(x['ifname'] for x in d)")"

# dev set: what sysfs shows, and refusals that say what to do
check "dev set shape, cores and partial" \
	"$CLI" dev set dev "$P0" shape pipelined+replicated cores 4 partial on
expect_eq "sysfs shows them" "pipelined+replicated 4 1" \
	"$(cat $C/plan_shape) $(cat $C/plan_cores) $(cat $C/plan_partial)"
out=$("$CLI" dev set dev "$P0" cores 99 2>&1)
rc=$?
tap_info "$out"
expect_eq "dev set past the NIC's cores: exit 1" 1 "$rc"
check "with the kernel's reason" grep -q "more cores than the NIC has" <<< "$out"
expect_eq "and nothing changed" 4 "$(cat $C/plan_cores)"
"$CLI" dev set dev "$P0" shape auto cores 0 partial off
out=$("$CLI" dev show dev lo 2>&1)
rc=$?
expect_eq "dev show of lo: exit 1" 1 "$rc"
check "saying lo is not a nicprog port" grep -q "not a nicprog port" <<< "$out"
out=$("$CLI" dev frobnicate 2>&1)
expect_eq "an unknown command: exit 2" 2 "$?"
check "pointing at help" grep -q "nicprog help" <<< "$out"
out=$("$CLI" dev set dev "$P0" shape round 2>&1)
expect_eq "an unknown shape: exit 2" 2 "$?"

# A container's root: a port in a network namespace owned by a user
# namespace of its own (root there, nothing in the initial one) reads
# its port but sets none of its plan settings, which reach past the port
# (the NIC's cores and engines; partial offload, the host's CPUs).
userns_root() { nsenter -t "$UPID" -U -n --preserve-credentials "$@"; }
back_home() { [ -e "/sys/class/net/$P2" ]; }
if command -v unshare > /dev/null && command -v nsenter > /dev/null; then
	unshare --user --map-root-user --net sleep 60 &
	UPID=$!
	in_userns() { [ "$(readlink "/proc/$UPID/ns/user")" != "$(readlink /proc/self/ns/user)" ]; }
	wait_for 10 in_userns && ip link set dev "$P2" netns "$UPID"
	out=$(userns_root "$CLI" dev set dev "$P2" cores 1 partial on shape replicated 2>&1)
	rc=$?
	tap_info "$out"
	expect_eq "a user namespace's root: dev set exit 1, EPERM" "1 1" \
		"$rc $(grep -c "Operation not permitted (it needs CAP_NET_ADMIN in the initial user namespace)" <<< "$out")"
	expect_eq "... it reads its port: the plan settings are as they were" "auto 0 False" \
		"$(userns_root "$CLI" -j dev show dev "$P2" | jpy "d[0]['plan']['shape'], d[0]['plan']['cores'], d[0]['plan']['partial']" | tr -d "(),'")"
	kill "$UPID"
	wait "$UPID" 2> /dev/null
	wait_for 10 back_home
	check "the port comes home with its namespace gone" back_home
else
	tap_skip "a user namespace's root and dev set" "unshare or nsenter not installed"
fi

# profile-set through dev set: by name, from a file, and bad files
check "dev set profile nicsim-soc" "$CLI" dev set dev "$P0" profile nicsim-soc
expect_eq "the whole NIC takes it: sysfs of another port" nicsim-soc \
	"$(cat /sys/class/nicprog/$P2/profile)"
expect_eq "and dev show" nicsim-soc \
	"$("$CLI" -j dev show dev "$P0" | jpy "d[0]['profile']")"
check "dev set profile nicsim-nfp" "$CLI" dev set dev "$P0" profile nicsim-nfp
"$CLI" -j dev show dev "$P0" > "$TMP/nfp.json"
check "dev show: its regions as the profile, the CTM one per island of 4 cores" \
	regions_as "$NICPROG_SRC/drivers/nicsim/profiles/nicsim-nfp.lnic" "$TMP/nfp.json"
check "dev show in words: the island" sh -c \
	"'$CLI' dev show dev $P0 | grep -q 'region ctm: .*, one per island of 4 cores'"
check "dev show in words: the interleaving where given, only there" sh -c \
	"'$CLI' dev show dev $P0 > '$TMP/nfp.txt' &&
	 grep -q '^    region emem: .*, interleave hash$' '$TMP/nfp.txt' &&
	 grep -q '^    region lm: ' '$TMP/nfp.txt' &&
	 ! grep '^    region lm: ' '$TMP/nfp.txt' | grep -q interleave"
sed 's/^lnic nicsim-generic$/lnic generic-copy/' \
	"$NICPROG_SRC/drivers/nicsim/profiles/nicsim-generic.lnic" > "$TMP/copy.lnic"
check "dev set profile-file with a profile of ours, and cores 4" \
	"$CLI" dev set dev "$P0" profile-file "$TMP/copy.lnic" cores 4
expect_eq "dev show: the file's profile, and cores 4" "generic-copy 4" \
	"$("$CLI" -j dev show dev "$P0" | jpy "d[0]['profile'], d[0]['plan']['cores']" | tr -d "(),'")"
expect_eq "the NIC's LNIC is the file's" \
	"$(grep -v '^lnic' "$NICPROG_SRC/drivers/nicsim/profiles/nicsim-generic.lnic" | grep -c '^unit')" \
	"$(grep -c '^unit' "/sys/bus/nicsim/devices/nicsim$ID/lnic")"
printf 'lnic bad\nregion r size 1K latency 1\nunit c type core count 2 frobs 3\n' > "$TMP/bad.lnic"
out=$("$CLI" dev set dev "$P0" profile-file "$TMP/bad.lnic" 2>&1)
expect_eq "a profile file that does not parse: exit 2" 2 "$?"
tap_info "$out"
check "naming the file and the line" grep -q "bad.lnic: line 3" <<< "$out"
out=$("$CLI" dev set dev "$P0" profile-file "$TMP/none.lnic" 2>&1)
expect_eq "a profile file that is not there: exit 2" 2 "$?"
out=$("$CLI" dev set dev "$P0" profile no-such-nic 2>&1)
expect_eq "a profile nothing has: exit 1" 1 "$?"
check "saying there is no such profile" grep -q "no such profile" <<< "$out"
out=$("$CLI" dev set dev "$P0" profile nicsim-soc profile-file "$TMP/copy.lnic" 2>&1)
expect_eq "profile and profile-file together: exit 2" 2 "$?"
expect_eq "after the refusals the profile is the file's" generic-copy \
	"$(cat $C/profile)"
check "back to nicsim-generic, every core" \
	"$CLI" dev set dev "$P0" profile nicsim-generic cores 0

# prog show and monitor
expect_eq "prog show (dump) with no program: none of the device's ports" "[]" \
	"$("$CLI" -j prog show | jpy "[x for x in d if x['ifname'].startswith('nicsim${ID}')]")"
out=$("$CLI" prog show dev "$P0" 2>&1)
expect_eq "prog show of a port with no program: exit 1" 1 "$?"
check "saying so" grep -q "the port runs no program" <<< "$out"
# the bound is a safety net only: the monitor is stopped below once the
# device's removal is in (120 s, the bound it had, cut off the last
# events on a machine running two guests)
timeout 900 "$CLI" -j monitor > "$TMP/mon" 2>&1 &
MON=$!
_bg_pids+=($MON)
sleep 0.5
# predict: the plan attaching would make, without attaching (and, as the
# monitor's events below show, without a notification)
"$CLI" -j predict dev "$P0" obj "$EX/count.o" sec xdp > "$TMP/predict.json"
check "predict dev -j parses as JSON: one plan" jok 'len(d) == 1' < "$TMP/predict.json"
out=$("$CLI" prog show dev "$P0" 2>&1)
expect_eq "after predict the port still runs no program: exit 1" 1 "$?"
"$CLI" -j predict dev "$P0" obj "$EX/count.o" shape single cores 1 \
	rate 1000000 > "$TMP/predict1.json"
check "predict shape single cores 1 rate 1000000: one core, asked single" \
	jok "d[0]['cores'] == 1 and d[0]['budget'] == 1 and d[0]['shape_asked'] == 'single'" \
	< "$TMP/predict1.json"
check "and the rate's share of the capacity, in hundredths of a percent" \
	jok "d[0]['load'] == 1000000 * 10000 // d[0]['capacity']" < "$TMP/predict1.json"
out=$("$CLI" predict dev "$P0" obj "$EX/count.o" rate 1000000)
tap_info "$(sed -n 2,3p <<< "$out" | tr '\n' ' ')"
check "predict in words gives the capacity and the load" \
	grep -q "capacity [0-9]* frames per second, the rate asks" <<< "$out"
check "... and of a program that reads neither clock nor random numbers, no \"varies\"" \
	bash -c '! grep -q varies' <<< "$out"
# a program whose verdicts the NIC's clock or random numbers decide: the
# prediction says it cannot know them (ratelimit.o: a token bucket;
# randdrop.o drops a random tenth; tools/nicprog-plan times both offline)
PROGS=$SELFDIR/progs
# (not jq -e: jq 1.6 exits 0 on an empty file)
jcheck() { expect_eq "$1" true "$(jq "$2" "$3")"; }
"$CLI" -j predict dev "$P0" obj "$EX/count.o" > "$TMP/count.json"
jcheck "predict -j of count.o: reads_clock and reads_random false" \
	'.[0].reads_clock == false and .[0].reads_random == false' "$TMP/count.json"
"$CLI" -j predict dev "$P0" obj "$PROGS/ratelimit.o" > "$TMP/rl.json"
expect_eq "predict loads ratelimit.o (an LRU_HASH) as ip link does: exit 0" 0 "$?"
jcheck "of ratelimit.o: reads_clock, not reads_random" \
	'.[0].reads_clock == true and .[0].reads_random == false' "$TMP/rl.json"
"$CLI" -j predict dev "$P0" obj "$PROGS/randdrop.o" > "$TMP/rd.json"
jcheck "of randdrop.o: reads_random, not reads_clock" \
	'.[0].reads_clock == false and .[0].reads_random == true' "$TMP/rd.json"
out=$("$CLI" predict dev "$P0" obj "$PROGS/ratelimit.o")
check "in words: ratelimit's prediction varies with the NIC's clock" \
	grep -q "^    varies: its verdicts may depend on the NIC's clock, which this prediction does not know$" <<< "$out"
out=$("$CLI" predict dev "$P0" obj "$PROGS/randdrop.o")
check "randdrop's with random numbers" \
	grep -q "^    varies: its verdicts may depend on random numbers, " <<< "$out"
out=$("$CLI" predict dev "$P0" obj "$TMP/none.o" 2>&1)
expect_eq "predict of an object that is not there: exit 1" 1 "$?"
check "naming it" grep -q "$TMP/none.o: No such file or directory" <<< "$out"
out=$("$CLI" predict dev "$P0" obj "$EX/count.o" cores 99 2>&1)
expect_eq "predict for more cores than the NIC has: exit 1" 1 "$?"
check "with the kernel's reason" grep -q "more cores than the NIC has" <<< "$out"
check "attach count.o" ip link set dev "$P0" xdpoffload obj "$EX/count.o" sec xdp
"$CLI" -j prog show dev "$P0" > "$TMP/prog.json"
expect_eq "the plan attached is the one predicted" \
	"$(jpy "d[0]['shape'], d[0]['cores'], d[0]['tput'], d[0]['latency'], [t['region'] for t in d[0]['tables']]" < "$TMP/predict.json")" \
	"$(jpy "d[0]['shape'], d[0]['cores'], d[0]['tput'], d[0]['latency'], [t['region'] for t in d[0]['tables']]" < "$TMP/prog.json")"
check "prog show -j parses as JSON: one program" jok 'len(d) == 1' < "$TMP/prog.json"
read -r pid pname pinsns _ < <(plan_line "$P0" program | tr -d ':' |
	awk '{ print $2, $3, $4 }')
expect_eq "prog show: id, name and insns as the plan" "$pid $pname $pinsns" \
	"$(jpy "d[0]['id'], d[0]['name'], d[0]['insns']" < "$TMP/prog.json" | tr -d "(),'")"
expect_eq "prog show: the id ip link shows" \
	"$(ip -d link show dev "$P0" | grep -oE 'prog/xdp id [0-9]+' | awk '{ print $3 }')" \
	"$(jpy "d[0]['id']" < "$TMP/prog.json")"
read -r shape asked cores budget stages < <(plan_line "$P0" shape |
	tr -d '(),' | awk '{ print $2, $4, $6, $8, $10 }')
expect_eq "prog show: shape, cores and stages as the plan" \
	"$shape $asked $cores $budget $stages" \
	"$(jpy "d[0]['shape'], d[0]['shape_asked'], d[0]['cores'], d[0]['budget'], len(d[0]['stages'])" < "$TMP/prog.json" | tr -d "(),'")"
expect_eq "prog show: the prediction as the plan" \
	"$(plan_line "$P0" predicted | awk '{ print $2, $8 }')" \
	"$(jpy "d[0]['tput'], d[0]['latency']" < "$TMP/prog.json" | tr -d "(),'")"
expect_eq "prog show: the tables as the plan" \
	"$(plan_line "$P0" table | awk '{ print $3 }' | tr -d ':' | xargs)" \
	"$(jpy "' '.join(t['name'] for t in d[0]['tables'])" < "$TMP/prog.json")"
check "prog show: every stage, table and time of the plan" \
	plan_as_prog "$P0" "$TMP/prog.json"
expect_eq "dev show names the program" "$(jpy "d[0]['id']" < "$TMP/prog.json")" \
	"$("$CLI" -j dev show dev "$P0" | jpy "d[0]['prog_id']")"
check "prog show -p parses as JSON" sh -c "'$CLI' -p prog show | /usr/bin/python3 -m json.tool > /dev/null"
# what the kernel replies, against the spec's reply lists (which the
# generated library the CLI uses keeps, and nothing else)
YNL_TREE=${NICPROG_CACHE:-/var/cache/nicprog}/ynl-6.12
if [ -f "$YNL_TREE/tools/net/ynl/lib/ynl.py" ]; then
	/usr/bin/python3 "$SELFDIR/reply_lists.py" \
		"$NICPROG_SRC/Documentation/netlink/specs/nicprog.yaml" \
		"$YNL_TREE" dev-get prog-get stats-get > "$TMP/lists" 2>&1
	rc=$?
	while read -r verdict what; do
		case $verdict in
		PASS) tap_ok "$what" ;;
		FAIL) tap_fail "$what" ;;
		*) echo "# $verdict $what" ;;
		esac
	done < "$TMP/lists"
	check "reply_lists.py ran to its end" test $rc = 0
else
	tap_skip "replies against the spec's reply lists" "no $YNL_TREE (make deps)"
fi
out=$("$CLI" dev set dev "$P2" profile nicsim-soc 2>&1)
expect_eq "profile-set while a port of the NIC runs a program: exit 1" 1 "$?"
tap_info "$out"
check "saying a port has a program" grep -q "has a program" <<< "$out"
expect_eq "and the profile stays" nicsim-generic "$(cat $C/profile)"
out=$("$CLI" prog show dev "$P0")
tap_info "$(sed -n 2p <<< "$out")"
check "prog show in words has the stages" grep -q "stage 0: cores" <<< "$out"
id1=$(jpy "d[0]['id']" < "$TMP/prog.json")

check "replace it with router.o" \
	ip -force link set dev "$P0" xdpoffload obj "$EX/router.o" sec xdp
id2=$("$CLI" -j prog show dev "$P0" | jpy "d[0]['id']")
expect_eq "sysfs prog_id: the program" "$id2" "$(cat "$C/prog_id")"

# the NIC's cores: as ethtool counts them, sysfs's utilisation their busiest
core_sum() { jpy "sum(c['packets'] for c in d[0]['cores'])"; }
n0=$("$CLI" -j stats dev "$P0" | core_sum)
ip netns exec "$NS" ping -q -c 5 -i 0.05 -W 1 10.78.0.1 > /dev/null 2>&1
timing_settled "" "$P0"
# A frame the port sees between two reads (neighbour discovery and the
# like come when they come) moves the counters: the stats, and sysfs's
# utilisation, read between two equal ethtool snapshots (on 6.12 beside a
# sanitizer guest, 2026-11-28, utilisation moved from 11 to 10 between
# the reads).
for try in 1 2 3 4 5; do
	ethtool -S "$P0" > "$TMP/ethtool"
	"$CLI" -j stats dev "$P0" > "$TMP/cores.json"
	util=$(cat "$C/statistics/utilisation")
	ethtool -S "$P0" > "$TMP/ethtool2"
	cmp -s "$TMP/ethtool" "$TMP/ethtool2" && break
	sleep 0.2
done
expect_eq "stats: a core entry per NIC core" "$(cat "$C/cores")" \
	"$(jpy "len(d[0]['cores'])" < "$TMP/cores.json")"
check "stats: the cores ran the frames sent to the program ($n0 before)" \
	test "$(core_sum < "$TMP/cores.json")" -ge $((n0 + 5))
expect_eq "stats: per core packets, busy cycles and queue drops as ethtool -S" \
	"$(awk '$1 ~ /^core[0-9]+_(packets|busy|queue_drops):$/ { printf "%s ", $2 }' "$TMP/ethtool")" \
	"$(jpy "''.join('%d %d %d ' % (c['packets'], c['busy'], c['drops']) for c in d[0]['cores'])" < "$TMP/cores.json")"
check "stats: every core counted against the NIC's one clock" \
	jok "len(set(c['elapsed'] for c in d[0]['cores'])) == 1 and d[0]['cores'][0]['elapsed'] > 0" < "$TMP/cores.json"
expect_eq "sysfs utilisation: the busiest core's share, in percent" \
	"$(jpy "max(c['busy'] * 100 // c['elapsed'] for c in d[0]['cores'])" < "$TMP/cores.json")" \
	"$util"
out=$("$CLI" stats dev "$P0")
tap_info "$(grep -m1 'core [0-9]*:' <<< "$out")"
check "stats in words: the cores that ran, and their stage" \
	grep -Eq "^    core [0-9]+: packets [1-9][0-9]*, busy [0-9]+ of [0-9]+ cycles \([0-9.]+%\), drops [0-9]+, stage [0-9]+$" <<< "$out"
# per stage: the sums of the cores the plan puts there
"$CLI" -j prog show dev "$P0" > "$TMP/prog2.json"
expect_eq "stats: per stage its cores, as the plan places them" \
	"$(jpy "[s['replicas'] for s in d[0]['stages']]" < "$TMP/prog2.json")" \
	"$(jpy "[s['cores'] for s in d[0]['stages']]" < "$TMP/cores.json")"
expect_eq "stats: a core's stage for every core of the plan, none for the rest" \
	"$(jpy "d[0]['cores']" < "$TMP/prog2.json")" \
	"$(jpy "len([c for c in d[0]['cores'] if 'stage' in c])" < "$TMP/cores.json")"
check "stats: per stage packets, busy and drops: its cores' sums" jok "all(
	(s['packets'], s['busy'], s['drops']) ==
	tuple(sum(c[k] for c in d[0]['cores'] if c.get('stage') == s['index'])
	      for k in ('packets', 'busy', 'drops'))
	for s in d[0]['stages']) and sum(s['packets'] for s in d[0]['stages']) > 0" < "$TMP/cores.json"
# per table: its entries as bpftool dumps the offloaded map
expect_eq "stats: the tables of the program, as prog show names them" \
	"$(jpy "[t['name'] for t in d[0]['tables']]" < "$TMP/prog2.json")" \
	"$(jpy "[t['name'] for t in d[0]['tables']]" < "$TMP/cores.json")"
n=0
for mid in $(bpftool -j prog show id "$id2" | jpy "' '.join(map(str, d.get('map_ids', [])))"); do
	n=$((n + 1))
	name=$(bpftool -j map show id "$mid" | jpy "d['name']")
	expect_eq "stats: table $name: entries as bpftool map dump, max as bpftool" \
		"$(bpftool -j map dump id "$mid" | jpy "len(d)") $(bpftool -j map show id "$mid" | jpy "d['max_entries']")" \
		"$(jpy "' '.join('%d %d' % (t['entries'], t['max_entries']) for t in d[0]['tables'] if t['name'] == '$name')" < "$TMP/cores.json")"
done
expect_eq "stats: bpftool shows as many maps as stats-get tables" \
	"$(jpy "len(d[0]['tables'])" < "$TMP/cores.json")" "$n"
check "stats: every table takes NIC memory" \
	jok "all(t['bytes'] > 0 for t in d[0]['tables'])" < "$TMP/cores.json"
ip netns exec "$NS" ping -q -c 20 -i 0.1 -W 1 10.78.0.1 > /dev/null 2>&1 &
PING=$!
_bg_pids+=($PING)
sleep 0.5	# on a loaded host the guest may take that long to start it
"$CLI" -j stats dev "$P0" -w 0.5 count 1 > "$TMP/crates"
check "stats -w: per core rates and utilisation while frames run" \
	jok "sum(c['packets_rate'] for c in d[0]['cores']) > 0 and all(0 <= c['utilisation'] <= 100 for c in d[0]['cores'])" < "$TMP/crates"
wait $PING
# the NIC's fixed-function units: a pool per accelerator kind and one of
# the MAT stages, as dev show counts them; router.o's route lookups are
# the MAT stages' jobs, as the cores count them
check "the timing model timed every run" timing_settled "" "$P0"
"$CLI" -j stats dev "$P0" > "$TMP/units.json"
ethtool -S "$P0" > "$TMP/ethtool"
# units_as_ethtool JSON ETHTOOL: stats-get's pools in JSON wait and refuse
# as `ethtool -S` output ETHTOOL counts
units_as_ethtool() {
	/usr/bin/python3 -c "
import json, sys
e = dict(l.split(':') for l in open(sys.argv[2]) if l.startswith('     '))
e = {k.strip(): int(v) for k, v in e.items()}
us = json.load(open(sys.argv[1]))[0]['units']
sys.exit(not all((u['wait'], u['refused']) ==
		 ((e['accel_%s_wait' % u['accel']], e['accel_%s_refused' % u['accel']])
		  if u['type'] == 'accel' else (e['mat_wait'], 0)) for u in us))" "$1" "$2"
}
# units_of JSON: "kind:count ..." of stats-get's unit pools
units_of() { jpy "' '.join('%s:%d' % (u.get('accel', u['type']), u['count']) for u in d[0]['units'])" < "$1"; }
expect_eq "stats: a unit pool per accelerator kind, then the MAT stages, as dev show counts them" \
	"$(jpy "' '.join(['%s:%d' % (a['type'], a['count']) for a in d[0]['accels']] + ['mat:%d' % d[0]['mat_stages']])" < "$TMP/dev.json")" \
	"$(units_of "$TMP/units.json")"
expect_eq "stats: MAT jobs are the lookups the cores counted (ethtool -S)" \
	"$(awk '$1 ~ /^core[0-9]+_mat_lookups:$/ { n += $2 } END { print n }' "$TMP/ethtool")" \
	"$(jpy "[u['jobs'] for u in d[0]['units'] if u['type'] == 'mat'][0]" < "$TMP/units.json")"
check "stats: router.o's lookups ran on the MAT stages, 4 cycles each (nicsim-generic)" \
	jok "[(u['jobs'] > 0 and u['busy'] == 4 * u['jobs']) for u in d[0]['units'] if u['type'] == 'mat'] == [True]" < "$TMP/units.json"
check "stats: jobs' waits and refusals as ethtool -S" \
	units_as_ethtool "$TMP/units.json" "$TMP/ethtool"
check "stats: every pool counted against the cores' clock" \
	jok "all(u['elapsed'] == d[0]['cores'][0]['elapsed'] for u in d[0]['units'])" < "$TMP/units.json"
# digest.o: per UDP frame two CRC32C jobs (one identified in plain BPF)
# and two hash jobs (Toeplitz, jhash)
check "replace it with digest.o" \
	ip -force link set dev "$P0" xdpoffload obj "$EX/digest.o" sec xdp
id5=$("$CLI" -j prog show dev "$P0" | jpy "d[0]['id']")
"$CLI" -j stats dev "$P0" > "$TMP/units0.json"
# twenty flows, spread over the cores, which share the two hash engines
ip netns exec "$NS" bash -c 'for i in $(seq 20); do
	echo 0123456789abcdef0123456789abcdef > /dev/udp/10.78.0.1/$((9000 + i))
done' 2>/dev/null
sleep 0.3
check "the timing model timed every run" timing_settled "" "$P0"
"$CLI" -j stats dev "$P0" > "$TMP/units1.json"
ethtool -S "$P0" > "$TMP/ethtool1"
tap_info "waits: $(jpy "' '.join('%s %d' % (u.get('accel', 'mat'), u['wait']) for u in d[0]['units'])" < "$TMP/units1.json")"
check "stats: and after them, waits and refusals as ethtool -S" \
	units_as_ethtool "$TMP/units1.json" "$TMP/ethtool1"
# jobs_of JSON KIND: jobs of the KIND pool
jobs_of() { jpy "[u['jobs'] for u in d[0]['units'] if u.get('accel') == '$2'][0]" < "$1"; }
expect_eq "stats: 20 UDP frames through digest.o: 40 CRC and 40 hash jobs" \
	"40 40" "$(($(jobs_of "$TMP/units1.json" crc) - $(jobs_of "$TMP/units0.json" crc))) $(($(jobs_of "$TMP/units1.json" hash) - $(jobs_of "$TMP/units0.json" hash)))"
out=$("$CLI" stats dev "$P0")
tap_info "$(grep -m1 ' accel crc:' <<< "$out")"
check "stats in words: each pool, its jobs, busy share, waits and refusals" \
	grep -Eq "^    accel crc: 16 units, jobs [1-9][0-9]*, busy [0-9]+ of [0-9]+ cycles \([0-9.]+%\), jobs waited [0-9]+ cycles, refused [0-9]+$" <<< "$out"
"$CLI" -j prog show dev "$P0" > "$TMP/digest.json"
check "prog show of digest.o: every stage, table and time of the plan" \
	plan_as_prog "$P0" "$TMP/digest.json"
# lb.o: a stage steered by the key of a sharded table
check "replace it with lb.o" \
	ip -force link set dev "$P0" xdpoffload obj "$EX/lb.o" sec xdp
"$CLI" -j prog show dev "$P0" > "$TMP/lb.json"
id6=$(jpy "d[0]['id']" < "$TMP/lb.json")
check "prog show of lb.o: a stage steered by a sharded table's key" \
	jok "[t['class'] for t in d[0]['tables'] if 'shard_table' in d[0]['stages'][0] and t['index'] == d[0]['stages'][0]['shard_table']] == ['sharded']" < "$TMP/lb.json"
check "prog show of lb.o: every stage, table and time of the plan" \
	plan_as_prog "$P0" "$TMP/lb.json"
# firewall.o: conns, keyed by a flow and its reverse, steers key-symmetric
check "replace it with firewall.o" \
	ip -force link set dev "$P0" xdpoffload obj "$EX/firewall.o" sec xdp
"$CLI" -j prog show dev "$P0" > "$TMP/fw.json"
id7=$(jpy "d[0]['id']" < "$TMP/fw.json")
check "prog show of firewall.o: a stage steered key-symmetric by conns" \
	jok "[(s['steer'], d[0]['tables'][s['shard_table']]['name']) for s in d[0]['stages']] == [('key-symmetric', 'conns')]" < "$TMP/fw.json"
check "prog show of firewall.o: every stage, table and time of the plan" \
	plan_as_prog "$P0" "$TMP/fw.json"
# nat.o with 8/16 of its checksums as engine jobs, the rest as BPF bodies
check "dev set engine-share csum:8" \
	"$CLI" dev set dev "$P0" engine-share csum:8
"$CLI" -j dev show dev "$P0" > "$TMP/share.json"
expect_eq "dev show: csum's plan share 8, hash's 16" "8 16" \
	"$(jpy "' '.join(str(a['plan_share']) for t in ('csum', 'hash') for a in d[0]['accels'] if a['type'] == t)" < "$TMP/share.json")"
check "dev show in words: csum's share" \
	grep -q "csum 1 (plan share 8/16 engine jobs)" <<< "$("$CLI" dev show dev "$P0")"
out=$("$CLI" dev set dev "$P0" engine-share csum:17 2>&1)
expect_eq "engine-share past 16: exit 2" 2 "$?"
check "saying what N is" grep -q "0 to 16 sixteenths" <<< "$out"
out=$("$CLI" dev set dev "$P0" engine-share regex:8 2>&1)
rc=$?
tap_info "$out"
expect_eq "engine-share of an engine the NIC lacks: exit 1" 1 "$rc"
check "with the kernel's reason" grep -q "no engine of this accelerator type" <<< "$out"
check "replace it with nat.o" \
	ip -force link set dev "$P0" xdpoffload obj "$EX/nat.o" sec xdp
"$CLI" -j prog show dev "$P0" > "$TMP/nat.json"
id8=$(jpy "d[0]['id']" < "$TMP/nat.json")
expect_eq "prog show of nat.o: csum engines with share 8, hash with 16" "csum 8 hash 16" \
	"$(jpy "' '.join('%s %d' % (u['accel'], u['share']) for u in d[0]['units'] if 'accel' in u)" < "$TMP/nat.json")"
check "prog show in words: the split" \
	grep -q "csum engines 1 of 1 (8/16 of the calls; the rest as BPF bodies on the cores)" <<< "$("$CLI" prog show dev "$P0")"
check "the plan in words: the split" \
	grep -q "^accel csum: 2 calls on 1 engines, cycles [0-9.]*, 8/16 of them engine jobs and 8/16 the function's body on the cores" \
	"/sys/kernel/debug/nicprog/$P0/plan"
check "prog show of nat.o: every stage, table and time of the plan" \
	plan_as_prog "$P0" "$TMP/nat.json"
"$CLI" dev set dev "$P0" engine-share csum:16
check "detach" ip link set dev "$P0" xdpoffload off
expect_eq "sysfs prog_id: 0 once detached" 0 "$(cat "$C/prog_id")"

# stats: as sysfs, and rates
ping -q -c 5 -i 0.05 -W 1 -I "$P0" 10.78.0.2 > /dev/null 2>&1
sleep 0.3
# sysfs, stats, sysfs again: a stray frame (a neighbour probe) between
# the reads moves the counters, so take a round nothing moved in
sysfs_all() { for f in $STAT_FIELDS; do npstat "$P0" "$f"; done | xargs; }
STAT_FIELDS="wire_tx_packets wire_rx_packets wire_tx_bytes wire_rx_bytes host_rx_packets host_rx_bytes nic_drops ring_pipes"
for try in 1 2 3 4 5; do
	before=$(sysfs_all)
	"$CLI" -j stats dev "$P0" > "$TMP/stats.json"
	[ "$(sysfs_all)" = "$before" ] && break
	sleep 0.2
done
i=0
for f in $STAT_FIELDS; do
	i=$((i + 1))
	expect_eq "stats: $f as sysfs" "$(cut -d' ' -f$i <<< "$before")" \
		"$(jpy "d[0]['$f']" < "$TMP/stats.json")"
done
check "stats: the pings went out" test "$(jpy "d[0]['wire_tx_packets']" < "$TMP/stats.json")" -ge 5
"$CLI" -j stats -w 0.3 count 2 > "$TMP/rates" 2>&1
expect_eq "stats -w count 2: two lines" 2 "$(wc -l < "$TMP/rates")"
check "each parses as JSON" jlines "$TMP/rates"
check "stats in words" sh -c "'$CLI' stats dev $P0 | grep -q wire_rx_packets"
"$CLI" -j stats > "$TMP/sall.json"
check "stats (dump) lists the port" jok "'$P0' in [x['ifname'] for x in d]" < "$TMP/sall.json"

# a stage that cannot keep up: a slow program on one core under a flood
"$CLI" dev set dev "$P0" shape single cores 1
check "attach progs/slow.o to $P0 on one core" \
	ip link set dev "$P0" xdpoffload obj "$SELFDIR/progs/slow.o" sec xdp
id4=$("$CLI" -j prog show dev "$P0" | jpy "d[0]['id']")
ip -n "$NS" neigh replace 10.78.0.1 lladdr "$(cat "/sys/class/net/$P0/address")" \
	dev "$P1"
nd0=$(npstat "$P0" nic_drops)
timeout 20 ip netns exec "$NS" "$SELFDIR/udp_stream" flood 10.78.0.1 9 2 \
	> "$TMP/flood" 2>&1
tap_info "$(cat "$TMP/flood")"
sleep 1.5	# the last events of the flood: at most one a second
nd1=$(npstat "$P0" nic_drops)
check "detach it" ip link set dev "$P0" xdpoffload off
"$CLI" dev set dev "$P0" shape auto cores 0

# partial offload: the host part in prog show; then a device going away
# with a program attached, whose removal is an event
"$CLI" dev set dev "$P2" partial on cores 8
check "attach partial.o to $P2 with partial on, 8 cores" \
	ip link set dev "$P2" xdpoffload obj "$SELFDIR/progs/partial.o" sec xdp \
	2> "$TMP/partial.err"
check "ip says the program is partially offloaded" \
	grep -q "partially offloaded" "$TMP/partial.err"
"$CLI" -j prog show dev "$P2" > "$TMP/part.json"
id3=$(jpy "d[0]['id']" < "$TMP/part.json")
expect_eq "prog show: the host part as the plan" \
	"$(plan_line "$P2" "host: [0-9]* nodes" | tr -d ',' | awk '{ print $2, $4 }')" \
	"$(jpy "d[0]['host']['nodes'], d[0]['host']['insns']" < "$TMP/part.json" | tr -d "(),'")"
expect_eq "prog show: where the host part starts, as the plan" \
	"$(plan_line "$P2" "host: .* at insns" | sed 's/.* at insns //')" \
	"$(jpy "' '.join(str(x) for x in d[0]['host']['entries'])" < "$TMP/part.json")"
check "prog show: why the host runs it" \
	jok "len(d[0]['host']['reason']) > 10" < "$TMP/part.json"
check "prog show: every stage, table, the host part and time of the plan" \
	plan_as_prog "$P2" "$TMP/part.json"
check "attach count.o to $P1 in the other namespace" \
	ip netns exec "$NS" ip link set dev "$P1" xdpoffload obj "$EX/count.o" sec xdp
nicsim_del "$ID"
_created_devs=()
removed() { grep "prog-detach" "$TMP/mon" | grep -q "\"$P2\""; }
wait_for 20 removed
kill "$MON" 2>/dev/null
wait "$MON" 2>/dev/null
tap_info "monitor: $(wc -l < "$TMP/mon") events"
check "monitor -j: every event is a line of JSON" jlines "$TMP/mon"
events() {
	/usr/bin/python3 -c "
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if 'prog' not in e:
        continue
    p = e['prog']
    if p['ifname'].startswith('nicsim$ID'):
        print(e['event'], p['ifname'], p['id'], p.get('old_id', 0))" "$TMP/mon"
}
expect_eq "monitor: attach, replace, detach, attach, removal by the device going" \
	"prog-attach $P0 $id1 0
prog-attach $P0 $id2 $id1
prog-attach $P0 $id5 $id2
prog-attach $P0 $id6 $id5
prog-attach $P0 $id7 $id6
prog-attach $P0 $id8 $id7
prog-detach $P0 $id8 0
prog-attach $P0 $id4 0
prog-detach $P0 $id4 0
prog-attach $P2 $id3 0
prog-detach $P2 $id3 0" \
	"$(events)"
check "monitor: the partial offload's attach event carries its host part" \
	/usr/bin/python3 -c "
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
att = [e['prog'] for e in ev if e['event'] == 'prog-attach']
p2 = [p for p in att if p['ifname'] == '$P2']
sys.exit(not (len(p2) == 1 and p2[0]['host']['nodes'] > 0 and
	      not any('host' in p for p in att if p['ifname'] != '$P2')))" "$TMP/mon"
check "monitor: the other namespace's port is not seen here" \
	sh -c "! grep -q '\"$P1\"' '$TMP/mon'"
# overload NAME: the stage-overload events of $P0, as "events stages drops"
overload() {
	/usr/bin/python3 -c "
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
ev = [e for e in ev if e['event'] == 'stage-overload' and e['ifname'] == '$P0' and
      e['ifindex'] == $P0_IFINDEX]
print(len(ev), ' '.join(sorted(set(str(e['stage']) for e in ev))), sum(e['drops'] for e in ev))" "$TMP/mon"
}
read -r n_ev stages ov_drops < <(overload)
tap_info "flood: $n_ev stage-overload events, stage(s) $stages, $ov_drops frames; nic_drops grew by $((nd1 - nd0))"
check "monitor: the flood overloaded stage 0 of $P0's one-core plan" \
	test "$n_ev" -ge 1 -a "$stages" = 0
check "monitor: at most one overload event a second (2 s of flood)" \
	test "$n_ev" -le 4
check "monitor: the frames the events stand for are the NIC's drops" \
	test "$ov_drops" -ge 1 -a "$ov_drops" -le $((nd1 - nd0))
grep -m1 '"stage-overload"' "$TMP/mon" | sed 's/^/# /'

# A plan whose reply is larger than a page gets (64 tables, 16 stages, the
# brackets per packet class): predict, the attach notification and
# prog-get are sized by the plan.
ID2=$(nicsim_new_id)
PB=nicsim${ID2}p0
nicsim_new "$ID2" 1
ip link set "$PB" up
timeout 120 "$CLI" -j monitor > "$TMP/mon2" 2>&1 &
MON2=$!
_bg_pids+=($MON2)
sleep 0.5
"$CLI" -j predict dev "$PB" obj "$PROGS/many_tables.o" shape pipelined \
	cores 16 > "$TMP/bigp.json" 2>&1
check "predict of a 64-table, 16-stage plan: every table and stage" \
	jok "len(d[0]['tables']) == 64 and len(d[0]['stages']) == 16" < "$TMP/bigp.json"
plan_set "$PB" shape pipelined
plan_set "$PB" cores 16
check "attach it" ip link set dev "$PB" xdpoffload obj "$PROGS/many_tables.o" sec xdp
"$CLI" -j prog show dev "$PB" > "$TMP/big.json" 2>&1
check "prog show: every table, stage and packet class of it" \
	jok "len(d[0]['tables']) == 64 and len(d[0]['stages']) == 16 and len(d[0]['pkt_class_brackets']) == 7" < "$TMP/big.json"
big_event() { grep -q '"prog-attach".*"'"$PB"'"' "$TMP/mon2"; }
wait_for 20 big_event
check "its attach notification carries every table" /usr/bin/python3 -c "
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
p = [e['prog'] for e in ev if e['event'] == 'prog-attach' and e['prog']['ifname'] == '$PB']
sys.exit(not (len(p) == 1 and len(p[0]['tables']) == 64))" "$TMP/mon2"
kill "$MON2" 2>/dev/null
wait "$MON2" 2>/dev/null
ip link set dev "$PB" xdpoffload off
nicsim_del "$ID2"
_created_devs=()
tap_end
