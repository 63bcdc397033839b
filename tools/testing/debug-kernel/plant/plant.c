// SPDX-License-Identifier: GPL-2.0
/*
 * plant.ko - one known bug, planted on purpose, so that `make check-debug`
 * proves each of its detectors is live: loaded in a guest of the sanitizer
 * kernel with bug=NAME, it commits that bug once and stays loaded; the
 * harness expects the run to be failed with the detector's report.
 *
 *   uaf        a read after kfree()                       KASAN
 *   leak       an allocation nothing points to any more   kmemleak
 *   lockorder  two locks taken in both orders             lockdep
 *   sleep      mutex_lock() under a spinlock              DEBUG_ATOMIC_SLEEP
 *   shift      a shift past the type's width              UBSAN
 *
 * Never built into anything but that test.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "uaf, leak, lockorder, sleep or shift");

static DEFINE_MUTEX(plant_a);
static DEFINE_MUTEX(plant_b);
static DEFINE_SPINLOCK(plant_lock);
static void *plant_kept;
static int plant_width = 40;

static noinline int plant_uaf(void)
{
	int *p = kmalloc(sizeof(*p) * 8, GFP_KERNEL);
	int v;

	if (!p)
		return -ENOMEM;
	p[3] = 1;
	kfree(p);
	v = READ_ONCE(p[3]);
	return v == 12345 ? -EINVAL : 0;
}

static noinline int plant_leak(void)
{
	plant_kept = kmalloc(1024, GFP_KERNEL);
	if (!plant_kept)
		return -ENOMEM;
	/* the only pointer goes; nothing frees the block */
	WRITE_ONCE(plant_kept, NULL);
	return 0;
}

static noinline int plant_lockorder(void)
{
	mutex_lock(&plant_a);
	mutex_lock(&plant_b);
	mutex_unlock(&plant_b);
	mutex_unlock(&plant_a);

	mutex_lock(&plant_b);
	mutex_lock(&plant_a);
	mutex_unlock(&plant_a);
	mutex_unlock(&plant_b);
	return 0;
}

static noinline int plant_sleep(void)
{
	spin_lock(&plant_lock);
	mutex_lock(&plant_a);
	mutex_unlock(&plant_a);
	spin_unlock(&plant_lock);
	return 0;
}

static noinline int plant_shift(void)
{
	u32 one = 1;

	/* plant_width is a variable: the compiler cannot refuse it */
	return (one << READ_ONCE(plant_width)) == 7 ? -EINVAL : 0;
}

static int __init plant_init(void)
{
	if (!strcmp(bug, "uaf"))
		return plant_uaf();
	if (!strcmp(bug, "leak"))
		return plant_leak();
	if (!strcmp(bug, "lockorder"))
		return plant_lockorder();
	if (!strcmp(bug, "sleep"))
		return plant_sleep();
	if (!strcmp(bug, "shift"))
		return plant_shift();
	pr_err("plant: bug=%s: not one of uaf, leak, lockorder, sleep, shift\n",
	       bug);
	return -EINVAL;
}

static void __exit plant_exit(void)
{
}

module_init(plant_init);
module_exit(plant_exit);
MODULE_DESCRIPTION("nicprog check-debug: a planted bug per detector");
MODULE_LICENSE("GPL");
