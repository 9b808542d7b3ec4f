/* os-posix.c — the parts of os.h that POSIX alone provides, shared by
 * every OS family. */
#include <sys/statvfs.h>
#include "os.h"

int os_fs_free(const char *path, uint64_t *free_bytes)
{
	struct statvfs v;

	if (statvfs(path, &v) < 0)
		return -1;
	*free_bytes = (uint64_t)v.f_bavail * (v.f_frsize ? v.f_frsize : v.f_bsize);
	return 0;
}
