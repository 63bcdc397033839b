// SPDX-License-Identifier: GPL-2.0
/*
 * What every command of a port's device node does around its work:
 * copying its argument struct in and out, the opener's privilege, and
 * entering the port's driver. The rings (pipe.c, notify.c) and the
 * memory, job and RDMA engine (mem.c, job.c, rdma.c) both build on it;
 * chardev.c dispatches to them. Nothing here calls either.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/uaccess.h>

#include "../nicprog.h"
#include "ring.h"

/**
 * nicprog_ring_enter() - enter the port's driver
 * @nd: the port
 * @nonblock: fail with -EAGAIN rather than wait for the lock
 *
 * Called after the command copied what it needs from user memory.
 *
 * Context: process. On success ring_lock is held, the port registered.
 * Return: 0, -EAGAIN, -EINTR, or -ENODEV once the port is gone.
 */
int nicprog_ring_enter(struct nicprog_dev *nd, bool nonblock)
{
	if (nonblock) {
		if (!mutex_trylock(&nd->ring_lock))
			return -EAGAIN;
	} else if (mutex_lock_interruptible(&nd->ring_lock)) {
		return -EINTR;
	}
	if (nd->ring_dead) {
		mutex_unlock(&nd->ring_lock);
		return -ENODEV;
	}
	return 0;
}

/**
 * nicprog_ring_leave() - end nicprog_ring_enter()
 * @nd: the port
 */
void nicprog_ring_leave(struct nicprog_dev *nd)
{
	mutex_unlock(&nd->ring_lock);
}

/**
 * nicprog_ring_may_act() - may the file's opener act on the port
 * @rf: the file
 * @file: it
 * @cmd: the command, for the traced cause
 *
 * A command that acts on the network -- steering the port's frames into
 * the file, putting frames on its wire -- needs CAP_NET_ADMIN in the
 * port's namespace, held by whoever opened the file (file_ns_capable(), as
 * netlink checks a socket's opener), at every such command: a descriptor
 * passed to or inherited by another process carries its opener's
 * privilege and never more; so does taking the NIC's memory.
 *
 * Context: inside nicprog_ring_enter(): the netdev lives.
 * Return: 0 or -EPERM.
 */
int nicprog_ring_may_act(struct nicprog_ring_file *rf, struct file *file,
			 const char *cmd)
{
	if (file_ns_capable(file, dev_net(rf->nd->netdev)->user_ns,
			    CAP_NET_ADMIN))
		return 0;
	ring_err(rf, "%s: the file's opener lacks CAP_NET_ADMIN in the port's namespace",
		 cmd);
	return -EPERM;
}

/**
 * nicprog_ring_args() - copy a command's argument struct in
 * @c: the command area
 * @args: the struct
 * @size: its size
 *
 * Extensible: a smaller one is zero-extended, a larger one must have zeros
 * past ours.
 *
 * Return: 0, -EINVAL, -E2BIG or -EFAULT.
 */
int nicprog_ring_args(const struct nicprog_uring_cmd *c, void *args,
		      size_t size)
{
	if (!c->arg_len || c->arg_len > PAGE_SIZE)
		return -EINVAL;
	return copy_struct_from_user(args, size, u64_to_user_ptr(c->arg),
				     c->arg_len);
}

/**
 * nicprog_ring_out() - copy a command's argument struct back out
 * @c: the command area
 * @args: the struct
 * @size: its size; at most the caller's is written
 *
 * Return: 0 or -EFAULT.
 */
int nicprog_ring_out(const struct nicprog_uring_cmd *c, const void *args,
		     size_t size)
{
	return copy_to_user(u64_to_user_ptr(c->arg), args,
			    min_t(size_t, size, c->arg_len)) ? -EFAULT : 0;
}
