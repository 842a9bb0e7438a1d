// SPDX-License-Identifier: GPL-2.0
/*
 * Where the tracing directory is seen.  Its files live in tracefs, at
 * the tracefs root; user space mounts that at /sys/kernel/tracing (the
 * mount point is tracefs' own).  For the tools and scripts that use
 * /sys/kernel/debug/tracing, that debugfs entry is an automount point:
 * the first lookup through it mounts the same tracefs superblock
 * there, so both paths reach the very same dentries and files.
 *
 * Going through tracefs rather than debugfs also keeps tracing usable
 * under lockdown=integrity, which refuses debugfs' writable files.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mount.h>
#include <linux/tracefs.h>
#include "internal.h"

/*
 * debugfs' ->d_automount for "tracing".  The VFS wants the new mount
 * with one reference beyond the one it will put into the tree
 * (finish_automount() checks for two), hence the mntget().
 */
static struct vfsmount *rt_tracefs_automount(struct dentry *mntpt,
					     void *unused)
{
	struct file_system_type *type = get_fs_type("tracefs");
	struct vfsmount *mnt;

	if (!type)
		return ERR_PTR(-ENODEV);
	/* "tracefs" is the source /proc/mounts shows. */
	mnt = vfs_submount(mntpt, type, "tracefs", NULL);
	put_filesystem(type);
	if (!IS_ERR(mnt))
		mntget(mnt);
	return mnt;
}

/* Called once by the core, before any tracing file is created. */
void __init rt_create_mount_points(void)
{
	struct dentry *d;

	if (!tracefs_initialized()) {
		pr_err("tracefs is not registered: no tracing directory\n");
		return;
	}
	d = debugfs_create_automount("tracing", NULL, rt_tracefs_automount,
				     NULL);
	if (IS_ERR(d))
		pr_warn("no /sys/kernel/debug/tracing: %ld\n", PTR_ERR(d));
}
