#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Micro-benchmarks recover a NIC's parameters. nicprog-calibrate, on
# nicsim-nfp (four memories, a cache in front of the last, three engines
# at the cores' clock) and on nicsim-pipeline (engines at another clock
# than the cores), measures every parameter it measures within 5% of the
# device's profile; the profile it writes loads as a firmware file and
# reads back as written; afterwards the port has no program and its plan
# shape again. Against a reference 50% off in one parameter it exits 3
# naming it. A template that is not the device's, a port without nicprog
# and bad arguments are refused with a message naming the cause.
. "$(dirname "$0")/lib.sh"
require_root_tools
CAL=$NICPROG_SRC/tools/nicprog-calibrate/nicprog-calibrate
UB=$NICPROG_SRC/tools/nicprog-calibrate/ubench.bpf.o
[ -x "$CAL" ] && [ -f "$UB" ] ||
	skip_all "nicprog-calibrate not built (make tools)"
nicprog_load || skip_all "cannot load nicprog/nicsim"
fw_profiles calibrate

# calibrate_dev PROFILE: a two-port device, PEER wired to PORT. Sets ID,
# PEER, PORT.
calibrate_dev() {
	local q

	ID=$(nicsim_new_id)
	PEER=nicsim${ID}p0 PORT=nicsim${ID}p1
	nicsim_new "$ID" 2 "$1" && echo "$ID:0 $ID:1" > "$BUS/link_device" ||
		return 1
	for q in $PEER $PORT; do
		sysctl -qw "net.ipv6.conf.$q.disable_ipv6=1"
		ip link set "$q" up
	done
}

# measured parameters: costs, memories, engines (the counts they have)
declare -A WANT=([nicsim-nfp]=26 [nicsim-pipeline]=18)

tap_begin
for p in nicsim-nfp nicsim-pipeline; do
	calibrate_dev "$p" || { tap_fail "$p: create the device"; continue; }
	cat "$BUS/devices/nicsim$ID/lnic" > "$TMP/$p.lnic"
	plan_set "$PORT" shape pipelined
	# nicsim-pipeline's run is also the one against a reference 50% off
	# in one parameter (a calibration run is a third of this file)
	ref=$TMP/$p.lnic
	if [ $p = nicsim-pipeline ]; then
		sed 's/^region sram size 8M latency 12 /region sram size 8M latency 24 /' \
			"$ref" > "$TMP/wrong.lnic"
		ref=$TMP/wrong.lnic
	fi
	"$CAL" --dev "$PORT" --peer "$PEER" --lnic "$TMP/$p.lnic" --obj "$UB" \
		--reference "$ref" --tolerance 5 \
		-o "$TMP/nicsim/cal-$p.lnic" > "$TMP/$p.out" 2>&1
	rc=$?
	grep -E "^compare|failed" "$TMP/$p.out" | sed 's/^/# /'
	if [ $p = nicsim-nfp ]; then
		expect_eq "$p: every measured parameter within 5% (exit 0, not 3)" 0 $rc
	else
		expect_eq "$p: against a reference 50% off in one parameter: exit 3" 3 $rc
		check "$p: the parameter it is off in is named" grep -qE \
			"^compare region sram latency +measured +12.00 reference +24.00 error +-50.00%" \
			"$TMP/$p.out"
		expect_eq "$p: every other measured parameter within 5%" "" \
			"$(awk '/^compare .* error / {
				w = $0; sub(/^compare +/, "", w); sub(/ +measured .*/, "", w)
				e = $NF + 0
				if (w != "region sram latency" && (e > 5 || e < -5)) print w, $NF
			}' "$TMP/$p.out")"
	fi
	expect_eq "$p: parameters measured" "${WANT[$p]}" \
		"$(grep -c '^compare .* error ' "$TMP/$p.out")"
	expect_eq "$p: the plan shape is restored" pipelined \
		"$(cat "/sys/class/nicprog/$PORT/plan_shape")"
	check "$p: no program is left on the port" \
		sh -c "! ip link show dev $PORT | grep -q prog/xdp"

	# the written profile, renamed after its file, makes a device
	sed -i "s/^lnic .*/lnic cal-$p/" "$TMP/nicsim/cal-$p.lnic"
	ID2=$(nicsim_new_id)
	if nicsim_new "$ID2" 1 "cal-$p"; then
		tap_ok "$p: the measured profile loads"
		grep -v '^#' "$TMP/nicsim/cal-$p.lnic" > "$TMP/want"
		cat "$BUS/devices/nicsim$ID2/lnic" > "$TMP/got"
		check "$p: and reads back as written" cmp -s "$TMP/want" "$TMP/got"
		nicsim_del "$ID2"
	else
		tap_fail "$p: the measured profile loads"
		tap_skip "$p: and reads back as written" "it did not load"
	fi
	[ $p = nicsim-pipeline ] && break
	nicsim_del "$ID"
done

# PORT is nicsim-pipeline's: nicsim-nfp's template is not its profile
expect_refused() {
	local desc=$1 want_rc=$2 pat=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq "$want_rc" ] && grep -qF -- "$pat" <<< "$out"; then
		tap_ok "$desc"
	else
		tap_info "$desc: rc=$rc, expected $want_rc and '$pat' in:"
		sed 's/^/#   /' <<< "$out" | tail -n 5
		tap_fail "$desc"
	fi
}
expect_refused "another device's template is refused" 1 \
	"counts nothing for memory lm: is the template its profile?" \
	"$CAL" --dev "$PORT" --peer "$PEER" --lnic "$TMP/nicsim-nfp.lnic" --obj "$UB"
ip link add "ncal0-$ID" type veth peer name "ncal1-$ID"
expect_refused "a port without nicprog is refused" 1 \
	"is not a nicprog port with a timing model" \
	"$CAL" --dev "ncal0-$ID" --peer "ncal1-$ID" --lnic "$TMP/nicsim-nfp.lnic" --obj "$UB"
ip link del "ncal0-$ID"
expect_refused "a missing port is named" 1 "no such port: nicsim-none" \
	"$CAL" --dev "$PORT" --peer nicsim-none --lnic "$TMP/nicsim-nfp.lnic" --obj "$UB"
expect_refused "a bad tolerance is refused" 2 "--tolerance wants a percentage, not 'x'" \
	"$CAL" --dev "$PORT" --peer "$PEER" --lnic "$TMP/nicsim-nfp.lnic" --tolerance x
expect_refused "a template with an error names its line" 2 "line 1" \
	"$CAL" --dev "$PORT" --peer "$PEER" --lnic /etc/hostname
expect_eq "the refusals leave the plan shape" pipelined \
	"$(cat "/sys/class/nicprog/$PORT/plan_shape")"
tap_end
