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

/* What fio's engines that iogauge does not build are for: each refusal
 * of their options reads "'NAME' is an option of ..., which iogauge does
 * not build". */
#define OF_NET "fio's net and netsplice engines (for network sockets)"
#define OF_NET_RDMA_MORE \
	"fio's net, netsplice, rdma, libhdfs and librpma engines (for network sockets, RDMA and HDFS)"
#define OF_RDMA	     "fio's rdma engine (for RDMA networks)"
#define OF_RPMA	     "fio's librpma engines (for persistent memory over RDMA)"
#define OF_HTTP	     "fio's http engine (for HTTP, S3 and Swift object stores)"
#define OF_HDFS	     "fio's libhdfs engine (for HDFS clusters)"
#define OF_HDFS_DFS  "fio's libhdfs and dfs engines (for HDFS clusters and DAOS pools)"
#define OF_DFS	     "fio's dfs engine (for DAOS pools)"
#define OF_POOL	     "fio's rados, rbd and dfs engines (for Ceph clusters and DAOS pools)"
#define OF_CEPH	     "fio's rados and rbd engines (for Ceph clusters)"
#define OF_RADOS     "fio's rados engine (for Ceph clusters)"
#define OF_RBD	     "fio's rbd engine (for Ceph block devices)"
#define OF_GLUSTER   "fio's gfapi and gfapi_async engines (for GlusterFS volumes)"
#define OF_CUDA	     "fio's iomem=cudamalloc (for GPU memory through CUDA)"
#define OF_CUFILE    "fio's libcufile engine (for GPU memory through NVIDIA cuFile)"
#define OF_NFS	     "fio's nfs engine (for NFS servers through libnfs)"
#define OF_NBD	     "fio's nbd engine (for NBD servers)"
#define OF_ISCSI     "fio's libiscsi engine (for iSCSI targets)"
#define OF_SG	     "fio's sg engine (for SCSI generic passthrough)"
#define OF_URING_CMD "fio's io_uring_cmd engine (for NVMe passthrough)"
#define OF_XNVME     "fio's xnvme engine (for NVMe passthrough and other xNVMe back ends)"
#define OF_MTD	     "fio's mtd engine (for raw flash MTD devices)"
#define OF_E4DEFRAG  "fio's e4defrag engine (for ext4 online defragmentation)"
#define OF_WINDOWS   "fio's windowsaio engine (for Windows)"
#define OF_ZBD	     "fio's zonemode=zbd (for zoned block devices)"

static const struct {
	const char *name;
	enum fio_opt_status status;
	const char *why;
} fio_opts[] = {
	{ "bindname", FIO_OPT_NOT_BUILT, OF_RDMA },
	{ "block", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile, which fio 3.33 ignores even when it runs" },
	{ "block_error_percentiles", FIO_OPT_HARMLESS,
	  "a report setting for trim errors, which iogauge does not issue" },
	{ "brick", FIO_OPT_NOT_BUILT, OF_GLUSTER },
	{ "busy_poll", FIO_OPT_NOT_BUILT, OF_CEPH },
	{ "busy_wait_polling", FIO_OPT_NOT_BUILT, OF_RPMA },
	{ "chunk_size", FIO_OPT_NOT_BUILT, OF_HDFS_DFS },
	{ "clientname", FIO_OPT_NOT_BUILT, OF_CEPH },
	{ "clustername", FIO_OPT_NOT_BUILT, OF_CEPH },
	{ "cmd_type", FIO_OPT_NOT_BUILT, OF_URING_CMD },
	{ "conf", FIO_OPT_NOT_BUILT, OF_RADOS },
	{ "cont", FIO_OPT_NOT_BUILT, OF_DFS },
	{ "cuda_io", FIO_OPT_NOT_BUILT, OF_CUFILE },
	{ "device-names", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "dir", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile, which fio 3.33 ignores even when it runs" },
	{ "direct_write_to_pmem", FIO_OPT_NOT_BUILT, OF_RPMA },
	{ "disk_util", FIO_OPT_HARMLESS,
	  "disk utilisation is always reported, for the block devices under the job's files" },
	{ "donorname", FIO_OPT_NOT_BUILT, OF_E4DEFRAG },
	{ "flow_watermark", FIO_OPT_HARMLESS, "deprecated in fio, which ignores it" },
	{ "gpu_dev_id", FIO_OPT_NOT_BUILT, OF_CUDA },
	{ "gpu_dev_ids", FIO_OPT_NOT_BUILT, OF_CUFILE },
	{ "gtod_cpu", FIO_OPT_HARMLESS, "iogauge always times every I/O in the worker" },
	{ "hdfs_use_direct", FIO_OPT_NOT_BUILT, OF_HDFS },
	{ "hdfsdirectory", FIO_OPT_NOT_BUILT, OF_HDFS },
	{ "hostname", FIO_OPT_NOT_BUILT, OF_NET_RDMA_MORE },
	{ "http_host", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_mode", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_pass", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_s3_key", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_s3_keyid", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_s3_region", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_s3_sse_customer_algorithm", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_s3_sse_customer_key", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_s3_storage_class", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_swift_auth_token", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_user", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "http_verbose", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "https", FIO_OPT_NOT_BUILT, OF_HTTP },
	{ "ignore_zone_limits", FIO_OPT_NOT_BUILT, OF_ZBD },
	{ "initiator", FIO_OPT_NOT_BUILT, OF_ISCSI },
	{ "inplace", FIO_OPT_NOT_BUILT, OF_E4DEFRAG },
	{ "interface", FIO_OPT_NOT_BUILT, OF_NET },
	{ "job_max_open_zones", FIO_OPT_NOT_BUILT, OF_ZBD },
	{ "large-block-op-kbytes", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "listen", FIO_OPT_NOT_BUILT, OF_NET },
	{ "load", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "log_alternate_epoch", FIO_OPT_HARMLESS, "a log timestamp setting" },
	{ "log_alternate_epoch_clock_id", FIO_OPT_HARMLESS, "a log timestamp setting" },
	{ "log_compression", FIO_OPT_HARMLESS, "a log storage setting" },
	{ "log_compression_cpus", FIO_OPT_HARMLESS, "a log storage setting" },
	{ "log_entries", FIO_OPT_HARMLESS, "a log buffer size" },
	{ "log_max_value", FIO_OPT_HARMLESS, "a log column setting" },
	{ "log_store_compressed", FIO_OPT_HARMLESS, "a log storage setting" },
	{ "log_unix_epoch", FIO_OPT_HARMLESS, "a log timestamp setting" },
	{ "max_open_zones", FIO_OPT_NOT_BUILT, OF_ZBD },
	{ "mss", FIO_OPT_NOT_BUILT, OF_NET },
	{ "namenode", FIO_OPT_NOT_BUILT, OF_HDFS },
	{ "nfs_url", FIO_OPT_NOT_BUILT, OF_NFS },
	{ "no_completion_thread", FIO_OPT_NOT_BUILT, OF_WINDOWS },
	{ "nodelay", FIO_OPT_NOT_BUILT, OF_NET },
	{ "numruns", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile, which fio 3.33 ignores even when it runs" },
	{ "object_class", FIO_OPT_NOT_BUILT, OF_DFS },
	{ "per_job_logs", FIO_OPT_HARMLESS, "a log-naming setting" },
	{ "percentage_sequential", FIO_OPT_UNSUPPORTED, "deprecated in fio, which refuses it" },
	{ "pingpong", FIO_OPT_NOT_BUILT, OF_NET },
	{ "pool", FIO_OPT_NOT_BUILT, OF_POOL },
	{ "port", FIO_OPT_NOT_BUILT, OF_NET_RDMA_MORE },
	{ "prep", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "profile", FIO_OPT_UNSUPPORTED,
	  "in a job file fio 3.33 stores it and runs no profile; give --profile=NAME on the "
	  "command line" },
	{ "proto", FIO_OPT_NOT_BUILT, OF_NET },
	{ "protocol", FIO_OPT_NOT_BUILT, OF_NET },
	{ "rbdname", FIO_OPT_NOT_BUILT, OF_RBD },
	{ "read-req-num-512-blocks", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "read_beyond_wp", FIO_OPT_NOT_BUILT, OF_ZBD },
	{ "read_iolog_chunked", FIO_OPT_HARMLESS,
	  "fio's way to read a log in pieces; iogauge reads it whole, and the I/Os are the same" },
	{ "readfua", FIO_OPT_NOT_BUILT, OF_SG },
	{ "rwmixcycle", FIO_OPT_UNSUPPORTED, "deprecated in fio, which refuses it" },
	{ "serverip", FIO_OPT_NOT_BUILT, OF_RPMA },
	{ "sg_write_mode", FIO_OPT_NOT_BUILT, OF_SG },
	{ "single-instance", FIO_OPT_NOT_BUILT, OF_GLUSTER },
	{ "single_instance", FIO_OPT_NOT_BUILT, OF_HDFS },
	{ "skip_bad", FIO_OPT_NOT_BUILT, OF_MTD },
	{ "slat_percentiles", FIO_OPT_HARMLESS,
	  "a report setting; iogauge reports the percentiles it reports" },
	{ "stream_id", FIO_OPT_NOT_BUILT, OF_SG },
	{ "svcl", FIO_OPT_NOT_BUILT, OF_DFS },
	{ "test-duration", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "threads", FIO_OPT_HARMLESS,
	  "an option of fio's tiobench profile that fio itself ignores (it is not 'thread')" },
	{ "threads-per-queue", FIO_OPT_HARMLESS,
	  "an option of fio's act profile, which fio ignores unless that profile runs" },
	{ "touch_objects", FIO_OPT_NOT_BUILT, OF_RADOS },
	{ "ttl", FIO_OPT_NOT_BUILT, OF_NET },
	{ "uri", FIO_OPT_NOT_BUILT, OF_NBD },
	{ "verb", FIO_OPT_NOT_BUILT, OF_RDMA },
	{ "verifysort", FIO_OPT_HARMLESS, "deprecated in fio, which ignores it" },
	{ "verifysort_nr", FIO_OPT_HARMLESS, "deprecated in fio, which ignores it" },
	{ "volume", FIO_OPT_NOT_BUILT, OF_GLUSTER },
	{ "window_size", FIO_OPT_NOT_BUILT, OF_NET },
	{ "writefua", FIO_OPT_NOT_BUILT, OF_SG },
	{ "xnvme_admin", FIO_OPT_NOT_BUILT, OF_XNVME },
	{ "xnvme_async", FIO_OPT_NOT_BUILT, OF_XNVME },
	{ "xnvme_be", FIO_OPT_NOT_BUILT, OF_XNVME },
	{ "xnvme_dev_nsid", FIO_OPT_NOT_BUILT, OF_XNVME },
	{ "xnvme_iovec", FIO_OPT_NOT_BUILT, OF_XNVME },
	{ "xnvme_sync", FIO_OPT_NOT_BUILT, OF_XNVME },
	{ "zone_reset_frequency", FIO_OPT_NOT_BUILT, OF_ZBD },
	{ "zone_reset_threshold", FIO_OPT_NOT_BUILT, OF_ZBD },
	{ "zonecapacity", FIO_OPT_NOT_BUILT, OF_ZBD },
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

/* fio 3.33's engines that iogauge will not build, sorted, and what each is
 * for: iogauge does I/O to local files and block devices through the
 * kernel's own interfaces. */
static const struct {
	const char *name;
	const char *what;
} fio_engines_not_built[] = {
	{ "cpp_null", "fio's engine for testing C++ linkage of external engines" },
	{ "dev-dax", "fio's engine for persistent memory (device DAX)" },
	{ "dfs", "fio's engine for DAOS pools" },
	{ "e4defrag", "fio's engine for ext4 online defragmentation" },
	{ "gfapi", "fio's engine for GlusterFS volumes" },
	{ "gfapi_async", "fio's engine for GlusterFS volumes" },
	{ "http", "fio's engine for HTTP, S3 and Swift object stores" },
	{ "ime_aio", "fio's engine for DDN's IME burst buffers" },
	{ "ime_psync", "fio's engine for DDN's IME burst buffers" },
	{ "ime_psyncv", "fio's engine for DDN's IME burst buffers" },
	{ "io_uring_cmd", "fio's engine for NVMe passthrough" },
	{ "libcufile", "fio's engine for GPU memory (NVIDIA cuFile)" },
	{ "libhdfs", "fio's engine for HDFS clusters" },
	{ "libiscsi", "fio's engine for iSCSI targets" },
	{ "libpmem", "fio's engine for persistent memory (PMDK)" },
	{ "librpma_apm_client", "fio's engine for persistent memory over RDMA" },
	{ "librpma_apm_server", "fio's engine for persistent memory over RDMA" },
	{ "librpma_gpspm_client", "fio's engine for persistent memory over RDMA" },
	{ "librpma_gpspm_server", "fio's engine for persistent memory over RDMA" },
	{ "libzbc", "fio's engine for zoned block devices (libzbc)" },
	{ "mtd", "fio's engine for raw flash (MTD) devices" },
	{ "nbd", "fio's engine for NBD servers" },
	{ "net", "fio's engine for network sockets" },
	{ "netsplice", "fio's engine for network sockets" },
	{ "nfs", "fio's engine for NFS servers (libnfs)" },
	{ "pmemblk", "fio's engine for persistent memory (PMDK)" },
	{ "rados", "fio's engine for Ceph clusters" },
	{ "rbd", "fio's engine for Ceph block devices" },
	{ "rdma", "fio's engine for RDMA networks" },
	{ "sg", "fio's engine for SCSI generic passthrough" },
	{ "solarisaio", "fio's engine for Solaris" },
	{ "windowsaio", "fio's engine for Windows" },
	{ "xnvme", "fio's engine for NVMe passthrough and other xNVMe back ends" },
};

static int engine_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

const char *fio_value_not_built(const char *name, const char *val)
{
	const char *const *hit;

	if (!strcmp(name, "iomem") && !strcmp(val, "cudamalloc"))
		return "fio's buffer memory in a GPU (CUDA)";
	if (strcmp(name, "ioengine"))
		return NULL;
	/* fio loads any other name as a shared library: external:PATH. */
	if (!strncmp(val, "external", 8) || strchr(val, '/'))
		return "an external fio engine (a shared library fio loads)";
	hit = bsearch(val, fio_engines_not_built, ARRAY_SIZE(fio_engines_not_built),
		      sizeof(fio_engines_not_built[0]), engine_cmp);
	return hit ? fio_engines_not_built[(size_t)((const char *)hit -
						    (const char *)fio_engines_not_built) /
					   sizeof(fio_engines_not_built[0])]
			       .what
		   : NULL;
}

const char *fio_value_unsupported(const char *name, const char *val)
{
	size_t i;

	if (!strcmp(name, "ioengine")) {
		for (i = 0; i < ARRAY_SIZE(fio_engines); i++)
			if (!strcmp(val, fio_engines[i]))
				return "a fio I/O engine";
	} else if (!strcmp(name, "zonemode") && !strcmp(val, "zbd")) {
		return "fio's mode for zoned block devices (write pointers, zone resets)";
	}
	return NULL;
}
