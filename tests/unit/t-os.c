/* t-os.c — the OS layer (os.h) on this host: file system free space and
 * description, available memory, CPU ticks, load and CPU sets. Facts only
 * the Linux implementation knows are checked there and skipped visibly
 * in a generic build (make generic). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "os.h"
#include "tap.h"

static void fs_checks(void)
{
	struct os_fs fs;
	uint64_t free_bytes = 0;
	int rc;

	rc = os_fs_free(".", &free_bytes);
	ok(rc == 0 && free_bytes > 0, "os_fs_free(\".\") > 0 (%llu)",
	   (unsigned long long)free_bytes);
	ok(os_fs_free("/nonexistent/bakeoff", &free_bytes) == -1 && errno == ENOENT,
	   "os_fs_free of a missing path fails with ENOENT");

	rc = os_fs_describe("/nonexistent/bakeoff", &fs);
	ok(rc == -1 && errno == ENOENT, "os_fs_describe of a missing path fails with ENOENT");
	ok(fs.type[0] == '\0' && fs.rotational == -1, "and leaves nothing behind");

	rc = os_fs_describe("/", &fs);
#ifdef BAKEOFF_OS_LINUX
	is_int(rc, 0, "os_fs_describe(\"/\") succeeds");
	ok(fs.type[0] != '\0', "type of / is known (%s)", fs.type);
	is_str(fs.mount_point, "/", "mount point of / is /");
	ok(fs.source[0] && fs.options[0], "source and options of / (%s, %s)", fs.source,
	   fs.options);
	ok(fs.rotational >= -1 && fs.rotational <= 1, "rotational is -1, 0 or 1 (%d)",
	   fs.rotational);
	diag("/: device \"%s\" model \"%s\" rotational %d scheduler \"%s\"", fs.device, fs.model,
	     fs.rotational, fs.scheduler);
	if (fs.device[0])
		ok(!strchr(fs.device, '/'), "device is a name, not a path (%s)", fs.device);
	else
		skip("no block device behind / (source %s)", fs.source);

	/* /proc/self is a symlink to /proc/PID, below the /proc mount: the
	 * longest mount point wins over /. */
	rc = os_fs_describe("/proc/self", &fs);
	ok(rc == 0 && strcmp(fs.type, "proc") == 0 && strcmp(fs.mount_point, "/proc") == 0,
	   "/proc/self is on proc at /proc (%s at %s)", fs.type, fs.mount_point);
	ok(fs.device[0] == '\0' && fs.rotational == -1, "proc has no block device");

	rc = os_fs_describe(".", &fs);
	ok(rc == 0 && fs.type[0], "the current directory is on %s (%s)", fs.type, fs.mount_point);
#else
	ok(rc == -1 && errno == ENOSYS, "generic os_fs_describe says ENOSYS");
	skip("file system type of / is known only to the Linux implementation");
#endif
}

static void mem_checks(void)
{
	uint64_t avail = 0;
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	uint64_t total = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
	int rc = os_mem_available(&avail);

#ifdef BAKEOFF_OS_LINUX
	is_int(rc, 0, "os_mem_available succeeds on Linux");
#endif
	if (rc == 0) {
		ok(avail > 0, "available memory > 0 (%llu)", (unsigned long long)avail);
		ok(!total || avail <= total, "and not above physical memory (%llu)",
		   (unsigned long long)total);
	} else {
		skip("available memory is not known here");
	}
}

static void cpu_checks(void)
{
	struct os_cpu_ticks t0, t1;
	struct os_cpuset set = { { 0 } };
	double load = -1;
	int c, n = 0;

	os_cpuset_add(&set, 0);
	os_cpuset_add(&set, 9);
	os_cpuset_add(&set, OS_MAX_CPUS - 1);
	os_cpuset_add(&set, OS_MAX_CPUS);	/* out of range: ignored */
	os_cpuset_add(&set, -1);
	for (c = -1; c <= OS_MAX_CPUS; c++)
		n += os_cpuset_has(&set, c);
	ok(n == 3 && os_cpuset_has(&set, 9) && !os_cpuset_has(&set, 8),
	   "cpuset add/has: 3 members, out-of-range numbers ignored");

#ifdef BAKEOFF_OS_LINUX
	ok(os_cpu_ticks(&t0) == 0 && os_cpu_ticks(&t1) == 0, "os_cpu_ticks reads twice");
	ok(t0.busy <= t0.total && t0.steal <= t0.total && t1.total >= t0.total,
	   "busy, steal <= total; total does not go back");
	c = os_loadavg(&load);
	ok(c == 0 && load >= 0, "load average %.2f", load);
	ok(os_cpuset_get(&set) == 0, "os_cpuset_get succeeds");
	c = os_cpu_current();
	ok(c >= 0 && os_cpuset_has(&set, c), "current CPU %d is in the allowed set", c);
#else
	ok(os_cpu_ticks(&t0) == -1 && os_loadavg(&load) == -1, "generic: no ticks, no load");
	ok(os_cpuset_get(&set) == -1 && errno == ENOSYS, "generic: no CPU sets (ENOSYS)");
	(void)t1;
	(void)c;
#endif
}

int main(void)
{
	fs_checks();
	mem_checks();
	cpu_checks();
	return done_testing();
}
