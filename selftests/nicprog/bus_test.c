// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/bus/nicsim/{new,del,link,unlink}_device: every command is accepted
 * or refused with the documented errno and a kernel log line naming the
 * cause, and a refused command creates or destroys nothing.
 *
 * Needs nicsim loaded (bus.sh does that).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define BUS "/sys/bus/nicsim/"

/* Write a command to a bus file; return 0 or -errno. */
static int bus_write(const char *file, const char *cmd)
{
	char path[128];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), BUS "%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(cmd))
		err = -EIO;
	close(fd);
	return err;
}

static int count_entries(const char *dir, const char *prefix)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

static int netdev_exists(unsigned int id, unsigned int port)
{
	char path[96];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/net/nicsim%up%u", id, port);
	return stat(path, &st) == 0;
}

/* The port's iflink: the peer's ifindex, 0 when unwired, -1 on error. */
static int read_iflink(unsigned int id, unsigned int port)
{
	char path[96], val[16] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/class/net/nicsim%up%u/iflink",
		 id, port);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	return n > 0 ? atoi(val) : -1;
}

/*
 * Does the kernel log, since @fd was positioned, contain @text? /dev/kmsg
 * hands out one record per read.
 */
static int kmsg_has(int fd, const char *text)
{
	char rec[1024];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0) {
			if (errno == EPIPE)	/* overwritten records: go on */
				continue;
			return 0;		/* EAGAIN: no more records */
		}
		rec[n] = '\0';
		if (strstr(rec, text))
			return 1;
	}
}

FIXTURE(bus) {
	int kmsg;
	unsigned int id;	/* a free device ID for this test */
	int devs_before;
	int nets_before;
};

FIXTURE_SETUP(bus)
{
	struct stat st;

	if (stat(BUS "new_device", &st))
		SKIP(return, "nicsim not loaded");
	self->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->kmsg);
	ASSERT_LE(0, lseek(self->kmsg, 0, SEEK_END));
	self->id = 1000 + getpid() % 50000;
	self->devs_before = count_entries(BUS "devices", "nicsim");
	self->nets_before = count_entries("/sys/class/net", "nicsim");
}

FIXTURE_TEARDOWN(bus)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "%u", self->id);
	bus_write("del_device", cmd);
	/* Nothing a test did may outlive it. */
	EXPECT_EQ(self->devs_before, count_entries(BUS "devices", "nicsim"));
	EXPECT_EQ(self->nets_before, count_entries("/sys/class/net", "nicsim"));
	close(self->kmsg);
}

/* Expect @cmd on @file to fail with @err and log @text. */
#define EXPECT_REFUSED(file, cmd, err, text)				\
	do {								\
		EXPECT_EQ(-(err), bus_write(file, cmd));		\
		EXPECT_TRUE(kmsg_has(self->kmsg, text));		\
	} while (0)

static void cmdf(char *buf, size_t len, const char *fmt, unsigned int a,
		 unsigned int b)
{
	snprintf(buf, len, fmt, a, b);
}

TEST_F(bus, create_and_delete)
{
	char cmd[64], path[96];
	struct stat st;

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 3);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	snprintf(path, sizeof(path), BUS "devices/nicsim%u", self->id);
	EXPECT_EQ(0, stat(path, &st));
	EXPECT_TRUE(netdev_exists(self->id, 0));
	EXPECT_TRUE(netdev_exists(self->id, 2));
	EXPECT_FALSE(netdev_exists(self->id, 3));
	snprintf(path, sizeof(path), "/sys/class/nicprog/nicsim%up2", self->id);
	EXPECT_EQ(0, stat(path, &st));

	cmdf(cmd, sizeof(cmd), "%u", self->id, 0);
	ASSERT_EQ(0, bus_write("del_device", cmd));
	EXPECT_FALSE(netdev_exists(self->id, 0));
	EXPECT_NE(0, stat(path, &st));
}

TEST_F(bus, default_is_one_port)
{
	char cmd[64];

	cmdf(cmd, sizeof(cmd), "%u\n", self->id, 0);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	EXPECT_TRUE(netdev_exists(self->id, 0));
	EXPECT_FALSE(netdev_exists(self->id, 1));
}

TEST_F(bus, profile)
{
	char cmd[64], path[96], text[64] = "";
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%u 1 nicsim-soc", self->id);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	snprintf(path, sizeof(path), "/sys/class/nicprog/nicsim%up0/profile",
		 self->id);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	EXPECT_NE(NULL, fgets(text, sizeof(text), f));
	fclose(f);
	EXPECT_STREQ("nicsim-soc\n", text);
}

TEST_F(bus, garbage)
{
	EXPECT_REFUSED("new_device", "abc", EINVAL,
		       "new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\", ID and PORT_COUNT decimal numbers");
	EXPECT_REFUSED("new_device", "12 x", EINVAL,
		       "new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\", ID and PORT_COUNT decimal numbers");
	EXPECT_REFUSED("new_device", "-1 2", EINVAL,
		       "new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\", ID and PORT_COUNT decimal numbers");
	EXPECT_REFUSED("new_device", "\n", EINVAL,
		       "new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\"");
	EXPECT_REFUSED("new_device", "1 2 nicsim-generic 4", EINVAL,
		       "new_device: TABLES is host or nic, not 4");
	EXPECT_REFUSED("new_device", "1 2 nicsim-generic nic 5", EINVAL,
		       "new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\"");
	EXPECT_REFUSED("new_device", "1 2 3", ENOENT,
		       "profile \"3\": not shipped (nicsim-generic, nicsim-soc, "
		       "nicsim-nfp, nicsim-pipeline, nicsim-fpga) and no firmware "
		       "file nicsim/3.lnic");
}

TEST_F(bus, overlong_command)
{
	char cmd[200];

	memset(cmd, '1', sizeof(cmd) - 1);
	cmd[sizeof(cmd) - 1] = '\0';
	EXPECT_REFUSED("new_device", cmd, EINVAL,
		       "new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\"");
}

TEST_F(bus, id_out_of_range)
{
	EXPECT_REFUSED("new_device", "65536 1", ERANGE,
		       "new_device: ID out of range 0..65535");
	EXPECT_REFUSED("new_device", "4294967296 1", ERANGE,
		       "new_device: ID out of range 0..65535");
}

TEST_F(bus, port_count_out_of_range)
{
	char cmd[64];

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 0);
	EXPECT_REFUSED("new_device", cmd, ERANGE,
		       "new_device: port count 0 out of range 1..16");
	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 17);
	EXPECT_REFUSED("new_device", cmd, ERANGE,
		       "new_device: port count 17 out of range 1..16");
	EXPECT_FALSE(netdev_exists(self->id, 0));
}

TEST_F(bus, duplicate_id)
{
	char cmd[64], text[64];

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 2);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 4);
	cmdf(text, sizeof(text), "new_device: device %u already exists",
	     self->id, 0);
	EXPECT_REFUSED("new_device", cmd, EEXIST, text);
	/* The existing device is untouched. */
	EXPECT_TRUE(netdev_exists(self->id, 1));
	EXPECT_FALSE(netdev_exists(self->id, 2));
}

TEST_F(bus, delete_refusals)
{
	char cmd[64], text[64];

	cmdf(cmd, sizeof(cmd), "%u", self->id, 0);
	cmdf(text, sizeof(text), "del_device: no device %u", self->id, 0);
	EXPECT_REFUSED("del_device", cmd, ENOENT, text);
	EXPECT_REFUSED("del_device", "x1", EINVAL,
		       "del_device: expected \"ID\" as a decimal number");
	EXPECT_REFUSED("del_device", "1 2", EINVAL,
		       "del_device: expected \"ID\" as a decimal number");
}

TEST_F(bus, link_and_unlink)
{
	char cmd[64];

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 2);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	EXPECT_EQ(0, read_iflink(self->id, 0));
	cmdf(cmd, sizeof(cmd), "%u:0 %u:1", self->id, self->id);
	ASSERT_EQ(0, bus_write("link_device", cmd));

	/* The peer shows as iflink, as for veth. */
	EXPECT_LT(0, read_iflink(self->id, 0));

	cmdf(cmd, sizeof(cmd), "%u:1", self->id, 0);
	EXPECT_EQ(0, bus_write("unlink_device", cmd));
}

TEST_F(bus, link_refusals)
{
	char cmd[64], text[80];

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 3);
	ASSERT_EQ(0, bus_write("new_device", cmd));

	EXPECT_REFUSED("link_device", "junk", EINVAL,
		       "link_device: expected \"ID:PORT ID:PORT [rate BITS_PER_S] [delay NS] [loss PPM] [seed N]\"");
	cmdf(cmd, sizeof(cmd), "%u:0", self->id, 0);
	EXPECT_REFUSED("link_device", cmd, EINVAL,
		       "link_device: expected \"ID:PORT ID:PORT [rate BITS_PER_S] [delay NS] [loss PPM] [seed N]\"");
	cmdf(cmd, sizeof(cmd), "%u:0 %u:x", self->id, self->id);
	EXPECT_REFUSED("link_device", cmd, EINVAL,
		       "link_device: expected \"ID:PORT ID:PORT [rate BITS_PER_S] [delay NS] [loss PPM] [seed N]\"");

	cmdf(cmd, sizeof(cmd), "%u:5 %u:0", self->id, self->id);
	cmdf(text, sizeof(text), "link_device: no port %u:5", self->id, 0);
	EXPECT_REFUSED("link_device", cmd, ENOENT, text);

	cmdf(cmd, sizeof(cmd), "%u:1 %u:1", self->id, self->id);
	cmdf(text, sizeof(text), "link_device: cannot link port %u:1 to itself",
	     self->id, 0);
	EXPECT_REFUSED("link_device", cmd, EINVAL, text);

	cmdf(cmd, sizeof(cmd), "%u:0 %u:1", self->id, self->id);
	ASSERT_EQ(0, bus_write("link_device", cmd));
	cmdf(cmd, sizeof(cmd), "%u:2 %u:1", self->id, self->id);
	cmdf(text, sizeof(text), "link_device: port %u:1 is already linked",
	     self->id, 0);
	EXPECT_REFUSED("link_device", cmd, EBUSY, text);
}

/* What a wire does (drivers/nicsim/wire.c): each refusal names its cause. */
TEST_F(bus, wire_refusals)
{
	static const struct {
		const char *args;
		int err;
		const char *text;
	} bad[] = {
		{ "rate", EINVAL, "link_device: rate needs a decimal number" },
		{ "rate 1e9", EINVAL, "link_device: rate needs a decimal number" },
		{ "loss -1", EINVAL, "link_device: loss needs a decimal number" },
		{ "speed 10", EINVAL,
		  "link_device: unknown parameter \"speed\"; expected each of rate, delay, loss, seed at most once" },
		{ "loss 1 loss 2", EINVAL,
		  "link_device: repeated parameter \"loss\"" },
		{ "loss 1000001", ERANGE,
		  "link_device: loss 1000001 out of range 0..1000000" },
		{ "rate 1000000000001", ERANGE,
		  "link_device: rate 1000000000001 out of range 0..1000000000000" },
		{ "delay 1000000001", ERANGE,
		  "link_device: delay 1000000001 out of range 0..1000000000" },
		{ "seed 18446744073709551616", ERANGE,
		  "link_device: seed 18446744073709551616 out of range 0..18446744073709551615" },
	};
	char cmd[128], path[96], buf[32];
	unsigned int i;
	int fd;

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 2);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%u:0 %u:1 %s", self->id, self->id,
			 bad[i].args);
		EXPECT_REFUSED("link_device", cmd, bad[i].err, bad[i].text);
	}
	/* nothing was linked by a refused write */
	EXPECT_EQ(0, read_iflink(self->id, 0));

	EXPECT_REFUSED("dilation", "0", EINVAL, "dilation: expected 1 to 10000");
	EXPECT_REFUSED("dilation", "10001", EINVAL,
		       "dilation: expected 1 to 10000");
	EXPECT_REFUSED("dilation", "x", EINVAL, "dilation: expected 1 to 10000");

	snprintf(cmd, sizeof(cmd), "%u:0 %u:1 seed 5 loss 20 rate 1000000 delay 7",
		 self->id, self->id);
	ASSERT_EQ(0, bus_write("link_device", cmd));
	snprintf(path, sizeof(path), "/sys/class/net/nicsim%up1/wire/seed",
		 self->id);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	memset(buf, 0, sizeof(buf));
	EXPECT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	/* the second named port sends with the seed + 1 */
	EXPECT_STREQ("6\n", buf);
}

TEST_F(bus, unlink_refusals)
{
	char cmd[64], text[80];

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 2);
	ASSERT_EQ(0, bus_write("new_device", cmd));

	cmdf(cmd, sizeof(cmd), "%u:0", self->id, 0);
	cmdf(text, sizeof(text), "unlink_device: port %u:0 is not linked",
	     self->id, 0);
	EXPECT_REFUSED("unlink_device", cmd, ENOTCONN, text);
	cmdf(cmd, sizeof(cmd), "%u:9", self->id, 0);
	cmdf(text, sizeof(text), "unlink_device: no port %u:9", self->id, 0);
	EXPECT_REFUSED("unlink_device", cmd, ENOENT, text);
	EXPECT_REFUSED("unlink_device", "1:2 3:4", EINVAL,
		       "unlink_device: expected \"ID:PORT\"");
}

TEST_F(bus, delete_linked_across_devices)
{
	unsigned int other = self->id + 1;
	char cmd[64];

	cmdf(cmd, sizeof(cmd), "%u %u", self->id, 1);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	cmdf(cmd, sizeof(cmd), "%u %u", other, 1);
	ASSERT_EQ(0, bus_write("new_device", cmd));
	cmdf(cmd, sizeof(cmd), "%u:0 %u:0", self->id, other);
	ASSERT_EQ(0, bus_write("link_device", cmd));

	/* Deleting one end leaves the other unlinked, not dangling. */
	cmdf(cmd, sizeof(cmd), "%u", other, 0);
	ASSERT_EQ(0, bus_write("del_device", cmd));
	EXPECT_EQ(0, read_iflink(self->id, 0));
	cmdf(cmd, sizeof(cmd), "%u:0", self->id, 0);
	EXPECT_EQ(-ENOTCONN, bus_write("unlink_device", cmd));
}

TEST_HARNESS_MAIN
