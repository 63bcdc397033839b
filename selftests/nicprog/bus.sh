#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The nicsim bus files: valid and hostile input, exact errno and message.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"
exec "$SELFDIR/bus_test"
