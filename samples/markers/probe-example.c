// SPDX-License-Identifier: GPL-2.0
/*
 * Markers sample: the module that connects probes.
 *
 * At load it connects one probe to each marker of marker-example and
 * arms them.  The first prints what it gets; the second only counts,
 * and the count is printed when this module is removed.  The probes
 * are registered by name, so marker-example may load before or after.
 */
#include <linux/atomic.h>
#include <linux/marker.h>
#include <linux/module.h>

struct probe_data {
	const char		*name;
	const char		*format;
	marker_probe_func	*probe_func;
};

static atomic_t eventb_count = ATOMIC_INIT(0);

static void probe_subsystem_event(void *probe_data, void *call_data,
				  const char *format, va_list *args)
{
	/* The arguments, in the order of the format. */
	int value = va_arg(*args, int);
	const char *mystr = va_arg(*args, const char *);

	pr_info("probe-example: subsystem_event: integer %d string %s\n",
		value, mystr);
}

static void probe_subsystem_eventb(void *probe_data, void *call_data,
				   const char *format, va_list *args)
{
	/* Counting needs no argument. */
	atomic_inc(&eventb_count);
}

static struct probe_data probe_array[] = {
	{ .name = "subsystem_event",
	  .format = "integer %d string %s",
	  .probe_func = probe_subsystem_event },
	{ .name = "subsystem_eventb",
	  .format = "pid %d iteration %d",
	  .probe_func = probe_subsystem_eventb },
};

static int __init probe_init(void)
{
	int result, i;

	for (i = 0; i < ARRAY_SIZE(probe_array); i++) {
		result = marker_probe_register(probe_array[i].name,
					       probe_array[i].format,
					       probe_array[i].probe_func,
					       &probe_array[i]);
		if (result)
			pr_info("probe-example: cannot register probe %s: %d\n",
				probe_array[i].name, result);
		result = marker_arm(probe_array[i].name);
		if (result)
			pr_info("probe-example: cannot arm %s: %d\n",
				probe_array[i].name, result);
	}
	return 0;
}

static void __exit probe_fini(void)
{
	int i;

	/* Undo the arming, then disconnect. */
	for (i = 0; i < ARRAY_SIZE(probe_array); i++) {
		marker_disarm(probe_array[i].name);
		marker_probe_unregister(probe_array[i].name,
					probe_array[i].probe_func,
					&probe_array[i]);
	}
	/* No CPU may still be in a probe when this module's text goes. */
	marker_synchronize_unregister();
	pr_info("probe-example: number of event b: %u\n",
		atomic_read(&eventb_count));
}

module_init(probe_init);
module_exit(probe_fini);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("retrace");
MODULE_DESCRIPTION("Markers sample: probes counting marker-example's hits");
