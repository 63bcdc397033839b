#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Every attribute the kernel puts in a reply is named in that operation's
reply list in the spec: the generated C library (tools/lib/ynl) keeps
only what the list names and drops the rest without a word. The replies
are dumped through Linux's own Python YNL client (tools/net/ynl/lib of
the linux-source-6.12 tree make deps unpacks), which decodes every
attribute of an attribute set and refuses one the spec does not know.
Also, statically: predict's reply names all prog-get's does (it prints
the same plan) but old-id. One line per check on stdout, "PASS WHAT" or
"FAIL WHAT" and then "# WHY", for the calling test to count.

    reply_lists.py SPEC YNL_TREE OP...
"""
import sys

import yaml

spec_path, tree = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree + '/tools/net/ynl')
from lib import YnlFamily  # noqa: E402  (found through sys.path)

spec = yaml.safe_load(open(spec_path))
ops = {o['name']: o for o in spec['operations']['list']}
ynl = YnlFamily(spec_path,
                tree + '/Documentation/netlink/genetlink-legacy.yaml')


def result(ok, desc, why=''):
    print(f"{'PASS' if ok else 'FAIL'} {desc}")
    if not ok and why:
        print(f"# {why}")


for op in sys.argv[3:]:
    listed = set(ops[op]['dump']['reply']['attributes'])
    try:
        replies = ynl.dump(op, {})
    except Exception as e:  # a reply the spec cannot decode at all
        result(False, f"{op}: the Python client decodes the dump", repr(e))
        continue
    seen = set()
    for r in replies:
        seen |= set(r)
    extra = sorted(seen - listed)
    result(bool(replies) and not extra,
           f"{op}: every attribute of its {len(replies)} replies is in the spec's reply list",
           f"not listed: {' '.join(extra)}" if extra else 'no replies')

prog = set(ops['prog-get']['do']['reply']['attributes']) - {'old-id'}
pred = set(ops['predict']['do']['reply']['attributes'])
result(prog <= pred, "predict's reply names all prog-get's but old-id",
       f"missing: {' '.join(sorted(prog - pred))}")
