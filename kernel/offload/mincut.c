// SPDX-License-Identifier: GPL-2.0
/*
 * Minimum s-t cut by maximum flow (Edmonds-Karp: shortest augmenting paths,
 * O(V E^2) worst case, far less on the block graphs the pipeliner cuts).
 * Arcs come in pairs, arc ^ 1 being the reverse of arc, so residual
 * capacities live in one array.
 */
#include "offload.h"

/**
 * nicprog_flow_init() - an empty flow network
 * @f: the network
 * @n: vertices
 * @max_edges: edges that nicprog_flow_add() may add
 *
 * Return: 0 or -ENOMEM.
 */
int nicprog_flow_init(struct nicprog_flow *f, u32 n, u32 max_edges)
{
	u32 i;

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->max_arcs = 2 * max_edges;
	f->head = kvcalloc(n, sizeof(*f->head), GFP_KERNEL);
	f->queue = kvcalloc(n, sizeof(*f->queue), GFP_KERNEL);
	f->prev = kvcalloc(n, sizeof(*f->prev), GFP_KERNEL);
	f->next = kvcalloc(f->max_arcs, sizeof(*f->next), GFP_KERNEL);
	f->to = kvcalloc(f->max_arcs, sizeof(*f->to), GFP_KERNEL);
	f->cap = kvcalloc(f->max_arcs, sizeof(*f->cap), GFP_KERNEL);
	if (!f->head || !f->queue || !f->prev || !f->next || !f->to ||
	    !f->cap) {
		nicprog_flow_free(f);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		f->head[i] = U32_MAX;
	return 0;
}

/**
 * nicprog_flow_free() - release a network's memory
 * @f: the network
 */
void nicprog_flow_free(struct nicprog_flow *f)
{
	kvfree(f->head);
	kvfree(f->queue);
	kvfree(f->prev);
	kvfree(f->next);
	kvfree(f->to);
	kvfree(f->cap);
	memset(f, 0, sizeof(*f));
}

static void flow_arc(struct nicprog_flow *f, u32 u, u32 v, u64 cap)
{
	u32 a = f->n_arcs++;

	f->to[a] = v;
	f->cap[a] = cap;
	f->next[a] = f->head[u];
	f->head[u] = a;
}

/**
 * nicprog_flow_add() - add a directed edge
 * @f: the network
 * @u: tail
 * @v: head
 * @cap: capacity, at most NICPROG_CAP_INF
 *
 * Return: 0, -EINVAL for a vertex out of range, -ENOSPC past max_edges.
 */
int nicprog_flow_add(struct nicprog_flow *f, u32 u, u32 v, u64 cap)
{
	if (u >= f->n || v >= f->n)
		return -EINVAL;
	if (f->n_arcs + 2 > f->max_arcs)
		return -ENOSPC;
	flow_arc(f, u, v, min_t(u64, cap, NICPROG_CAP_INF));
	flow_arc(f, v, u, 0);
	return 0;
}

/* BFS over residual arcs; fills prev[] and returns whether t was reached. */
static bool flow_bfs(struct nicprog_flow *f, u32 s, u32 t)
{
	u32 qh = 0, qt = 0, u, a, i;

	for (i = 0; i < f->n; i++)
		f->prev[i] = U32_MAX;
	f->queue[qt++] = s;
	f->prev[s] = U32_MAX - 1;
	while (qh < qt) {
		u = f->queue[qh++];
		for (a = f->head[u]; a != U32_MAX; a = f->next[a]) {
			if (!f->cap[a] || f->prev[f->to[a]] != U32_MAX)
				continue;
			f->prev[f->to[a]] = a;
			if (f->to[a] == t)
				return true;
			f->queue[qt++] = f->to[a];
		}
	}
	return false;
}

/**
 * nicprog_flow_mincut() - minimum cut between @s and @t
 * @f: the network; its capacities become residual ones
 * @s: source
 * @t: sink
 * @side: if not NULL, per vertex 1 on the source side of a minimum cut
 *	(the vertices the source still reaches), 0 on the sink side
 *
 * Return: the cut's capacity; NICPROG_CAP_INF or more when every cut
 * crosses an infinite edge.
 */
u64 nicprog_flow_mincut(struct nicprog_flow *f, u32 s, u32 t, u8 *side)
{
	u64 total = 0, push;
	u32 v, a;

	if (s == t)
		return 0;
	while (total < NICPROG_CAP_INF && flow_bfs(f, s, t)) {
		push = U64_MAX;
		for (v = t; v != s; v = f->to[a ^ 1]) {
			a = f->prev[v];
			push = min(push, f->cap[a]);
		}
		for (v = t; v != s; v = f->to[a ^ 1]) {
			a = f->prev[v];
			f->cap[a] -= push;
			f->cap[a ^ 1] += push;
		}
		total += push;
	}
	if (side) {
		flow_bfs(f, s, t);
		for (v = 0; v < f->n; v++)
			side[v] = v == s || f->prev[v] != U32_MAX;
	}
	return total;
}
