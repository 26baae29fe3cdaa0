/* SPDX-License-Identifier: MIT */
/*
 * What fio knows that iogauge does not: option names (fio 3.33's --cmdhelp
 * for every name its parser accepts, with aliases, engine and profile options) and
 * option values such as ioengine=sg.  A name here is refused with a
 * message saying it is fio's, unless it cannot change the workload, in
 * which case it only warns.  Facts about fio, not code from it.
 */
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"

static const struct {
	const char *name;
	enum fio_opt_status status;
	const char *why;
} fio_opts[] = {
	{ "allrandrepeat", FIO_OPT_UNSUPPORTED, NULL },
	{ "atomic", FIO_OPT_UNSUPPORTED, NULL },
	{ "bindname", FIO_OPT_UNSUPPORTED, "an option of fio's rdma engine" },
	{ "block", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile, which fio ignores unless that profile runs" },
	{ "block_error_percentiles", FIO_OPT_HARMLESS,
	  "a report setting for trim errors, which iogauge does not issue" },
	{ "blocksize_unaligned", FIO_OPT_UNSUPPORTED, NULL },
	{ "brick", FIO_OPT_UNSUPPORTED, "an option of fio's gfapi, gfapi_async engines" },
	{ "bs_is_seq_rand", FIO_OPT_UNSUPPORTED, NULL },
	{ "bs_unaligned", FIO_OPT_UNSUPPORTED, NULL },
	{ "buffer_pattern", FIO_OPT_UNSUPPORTED, NULL },
	{ "busy_poll", FIO_OPT_UNSUPPORTED, "an option of fio's rados, rbd engines" },
	{ "bwavgtime", FIO_OPT_HARMLESS, "a reporting window; it does not change the I/O" },
	{ "cgroup", FIO_OPT_UNSUPPORTED, NULL },
	{ "cgroup_nodelete", FIO_OPT_UNSUPPORTED, NULL },
	{ "cgroup_weight", FIO_OPT_UNSUPPORTED, NULL },
	{ "clientname", FIO_OPT_UNSUPPORTED, "an option of fio's rados, rbd engines" },
	{ "clustername", FIO_OPT_UNSUPPORTED, "an option of fio's rados, rbd engines" },
	{ "cmd_type", FIO_OPT_UNSUPPORTED, "an option of fio's io_uring, io_uring_cmd engines" },
	{ "conf", FIO_OPT_UNSUPPORTED, "an option of fio's rados engine" },
	{ "cpumask", FIO_OPT_UNSUPPORTED, NULL },
	{ "dedupe_global", FIO_OPT_UNSUPPORTED, NULL },
	{ "dedupe_mode", FIO_OPT_UNSUPPORTED, NULL },
	{ "dedupe_percentage", FIO_OPT_UNSUPPORTED, NULL },
	{ "dedupe_working_set_percentage", FIO_OPT_UNSUPPORTED, NULL },
	{ "device-names", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "dir", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile, which fio ignores unless that profile runs" },
	{ "disk_util", FIO_OPT_HARMLESS,
	  "disk utilisation is always reported, for the block devices under the job's files" },
	{ "donorname", FIO_OPT_UNSUPPORTED, "an option of fio's e4defrag engine" },
	{ "exec_postrun", FIO_OPT_UNSUPPORTED, NULL },
	{ "exec_prerun", FIO_OPT_UNSUPPORTED, NULL },
	{ "flow_watermark", FIO_OPT_HARMLESS, "deprecated in fio, which ignores it" },
	{ "gid", FIO_OPT_UNSUPPORTED, NULL },
	{ "gtod_cpu", FIO_OPT_HARMLESS, "iogauge always times every I/O in the worker" },
	{ "hostname", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice, rdma engines" },
	{ "hugepage-size", FIO_OPT_UNSUPPORTED, NULL },
	{ "ignore_zone_limits", FIO_OPT_UNSUPPORTED, NULL },
	{ "inplace", FIO_OPT_UNSUPPORTED, "an option of fio's e4defrag engine" },
	{ "interface", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "iomem_align", FIO_OPT_UNSUPPORTED, NULL },
	{ "iopsavgtime", FIO_OPT_HARMLESS, "a reporting window; it does not change the I/O" },
	{ "ioscheduler", FIO_OPT_UNSUPPORTED, NULL },
	{ "job_max_open_zones", FIO_OPT_UNSUPPORTED, NULL },
	{ "large-block-op-kbytes", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "latency_percentile", FIO_OPT_UNSUPPORTED, NULL },
	{ "latency_run", FIO_OPT_UNSUPPORTED, NULL },
	{ "latency_target", FIO_OPT_UNSUPPORTED, NULL },
	{ "latency_window", FIO_OPT_UNSUPPORTED, NULL },
	{ "listen", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "load", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "lockmem", FIO_OPT_UNSUPPORTED, NULL },
	{ "log_alternate_epoch", FIO_OPT_HARMLESS, "a log timestamp setting" },
	{ "log_alternate_epoch_clock_id", FIO_OPT_HARMLESS, "a log timestamp setting" },
	{ "log_compression", FIO_OPT_HARMLESS, "a log storage setting" },
	{ "log_compression_cpus", FIO_OPT_HARMLESS, "a log storage setting" },
	{ "log_entries", FIO_OPT_HARMLESS, "a log buffer size" },
	{ "log_max_value", FIO_OPT_HARMLESS, "a log column setting" },
	{ "log_store_compressed", FIO_OPT_HARMLESS, "a log storage setting" },
	{ "log_unix_epoch", FIO_OPT_HARMLESS, "a log timestamp setting" },
	{ "max_latency", FIO_OPT_UNSUPPORTED, NULL },
	{ "max_open_zones", FIO_OPT_UNSUPPORTED, NULL },
	{ "mem_align", FIO_OPT_UNSUPPORTED, NULL },
	{ "merge_blktrace_file", FIO_OPT_UNSUPPORTED, NULL },
	{ "merge_blktrace_iters", FIO_OPT_UNSUPPORTED, NULL },
	{ "merge_blktrace_scalars", FIO_OPT_UNSUPPORTED, NULL },
	{ "mss", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "nodelay", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "numa_cpu_nodes", FIO_OPT_UNSUPPORTED, NULL },
	{ "numa_mem_policy", FIO_OPT_UNSUPPORTED, NULL },
	{ "numruns", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile, which fio ignores unless that profile runs" },
	{ "offset_align", FIO_OPT_UNSUPPORTED, NULL },
	{ "overwrite", FIO_OPT_UNSUPPORTED, NULL },
	{ "per_job_logs", FIO_OPT_HARMLESS, "a log-naming setting" },
	{ "percentage_random", FIO_OPT_UNSUPPORTED, NULL },
	{ "percentage_sequential", FIO_OPT_UNSUPPORTED, "deprecated in fio, which refuses it" },
	{ "pingpong", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "pool", FIO_OPT_UNSUPPORTED, "an option of fio's rados, rbd engines" },
	{ "port", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice, rdma engines" },
	{ "prep", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "profile", FIO_OPT_UNSUPPORTED, NULL },
	{ "protocol", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "random_generator", FIO_OPT_HARMLESS,
	  "iogauge has one generator; it changes which random offsets, not how many or where they may fall" },
	{ "rbdname", FIO_OPT_UNSUPPORTED, "an option of fio's rbd engine" },
	{ "read-req-num-512-blocks", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "read_beyond_wp", FIO_OPT_UNSUPPORTED, NULL },
	{ "read_iolog_chunked", FIO_OPT_HARMLESS,
	  "fio's way to read a log in pieces; iogauge reads it whole, and the I/Os are the same" },
	{ "readfua", FIO_OPT_UNSUPPORTED, "an option of fio's sg engine" },
	{ "replay_skip", FIO_OPT_UNSUPPORTED, NULL },
	{ "rw_sequencer", FIO_OPT_UNSUPPORTED, NULL },
	{ "rwmixcycle", FIO_OPT_UNSUPPORTED, "deprecated in fio, which refuses it" },
	{ "serialize_overlap", FIO_OPT_UNSUPPORTED, NULL },
	{ "sg_write_mode", FIO_OPT_UNSUPPORTED, "an option of fio's sg engine" },
	{ "significant_figures", FIO_OPT_HARMLESS, "an output format setting" },
	{ "single-instance", FIO_OPT_UNSUPPORTED, "an option of fio's gfapi, gfapi_async engines" },
	{ "skip_bad", FIO_OPT_UNSUPPORTED, "an option of fio's mtd engine" },
	{ "slat_percentiles", FIO_OPT_HARMLESS,
	  "a report setting; iogauge reports the percentiles it reports" },
	{ "softrandommap", FIO_OPT_UNSUPPORTED, NULL },
	{ "ss", FIO_OPT_UNSUPPORTED, NULL },
	{ "ss_dur", FIO_OPT_UNSUPPORTED, NULL },
	{ "ss_ramp", FIO_OPT_UNSUPPORTED, NULL },
	{ "stats", FIO_OPT_UNSUPPORTED, NULL },
	{ "steadystate", FIO_OPT_UNSUPPORTED, NULL },
	{ "steadystate_duration", FIO_OPT_UNSUPPORTED, NULL },
	{ "steadystate_ramp_time", FIO_OPT_UNSUPPORTED, NULL },
	{ "stream_id", FIO_OPT_UNSUPPORTED, "an option of fio's sg engine" },
	{ "sync_file_range", FIO_OPT_UNSUPPORTED, NULL },
	{ "test-duration", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "thp", FIO_OPT_UNSUPPORTED, "an option of fio's mmap engine" },
	{ "threads", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile that fio itself ignores (it is not 'thread')" },
	{ "threads-per-queue", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "touch_objects", FIO_OPT_UNSUPPORTED, "an option of fio's rados engine" },
	{ "ttl", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "uid", FIO_OPT_UNSUPPORTED, NULL },
	{ "unified_rw_reporting", FIO_OPT_UNSUPPORTED, NULL },
	{ "unit_base", FIO_OPT_UNSUPPORTED, NULL },
	{ "uri", FIO_OPT_UNSUPPORTED, "an option of fio's nbd engine" },
	{ "verb", FIO_OPT_UNSUPPORTED, "an option of fio's rdma engine" },
	{ "verifysort", FIO_OPT_HARMLESS, "deprecated in fio, which ignores it" },
	{ "verifysort_nr", FIO_OPT_HARMLESS, "deprecated in fio, which ignores it" },
	{ "volume", FIO_OPT_UNSUPPORTED, "an option of fio's gfapi, gfapi_async engines" },
	{ "window_size", FIO_OPT_UNSUPPORTED, "an option of fio's net, netsplice engines" },
	{ "write_barrier", FIO_OPT_UNSUPPORTED, NULL },
	{ "write_hint", FIO_OPT_UNSUPPORTED, NULL },
	{ "writefua", FIO_OPT_UNSUPPORTED, "an option of fio's sg engine" },
	{ "zone_reset_frequency", FIO_OPT_UNSUPPORTED, NULL },
	{ "zone_reset_threshold", FIO_OPT_UNSUPPORTED, NULL },
	{ "zonecapacity", FIO_OPT_UNSUPPORTED, NULL },
	{ "zonemode", FIO_OPT_UNSUPPORTED, NULL },
	{ "zonerange", FIO_OPT_UNSUPPORTED, NULL },
	{ "zonesize", FIO_OPT_UNSUPPORTED, NULL },
	{ "zoneskip", FIO_OPT_UNSUPPORTED, NULL },
};

static int fio_opt_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

enum fio_opt_status fio_option_status(const char *name, const char **why)
{
	const char *const *hit =
		bsearch(name, fio_opts, ARRAY_SIZE(fio_opts), sizeof(fio_opts[0]), fio_opt_cmp);
	size_t i;

	if (!hit)
		return FIO_OPT_UNKNOWN;
	i = (size_t)((const char *)hit - (const char *)fio_opts) / sizeof(fio_opts[0]);
	*why = fio_opts[i].why;
	return fio_opts[i].status;
}

static const char *const fio_engines[] = {
	"net",		"netsplice",  "e4defrag",   "gfapi",  "gfapi_async", "mtd",	"sg",
	"io_uring_cmd", "nbd",	      "rdma",	    "rados",  "rbd",	     "pmemblk", "dev-dax",
	"libpmem",	"windowsaio", "solarisaio", "guasi",  "binject",     "xnvme",	"libblkio",
	"http",		"nfs",	      "libiscsi",   "libzbc", "libcufile",   "dfs",	"gpudirect",
};

const char *fio_value_unsupported(const char *name, const char *val)
{
	size_t i;

	if (!strcmp(name, "ioengine")) {
		for (i = 0; i < ARRAY_SIZE(fio_engines); i++)
			if (!strcmp(val, fio_engines[i]))
				return "a fio I/O engine";
	}
	return NULL;
}
