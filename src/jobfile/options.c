/* SPDX-License-Identifier: MIT */
/*
 * The option table and the few functions that walk it.  Value syntax lives
 * in optvals.c; cross-option rules live in job.c, not here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "jobfile/units.h"

#define F(field)   .off = offsetof(struct job, field)
#define F2(lo, hi) .off = offsetof(struct job, lo), .off2 = offsetof(struct job, hi)

static const struct opt_enum rw_enums[] = {
	{ "read", RW_READ },
	{ "write", RW_WRITE },
	{ "randread", RW_RANDREAD },
	{ "randwrite", RW_RANDWRITE },
	{ "rw", RW_READWRITE },
	{ "readwrite", RW_READWRITE },
	{ "randrw", RW_RANDRW },
	{ "trim", RW_TRIM },
	{ "randtrim", RW_RANDTRIM },
	{ "trimwrite", RW_TRIMWRITE },
	{ "randtrimwrite", RW_RANDTRIMWRITE },
	{ NULL, 0 },
};

static const struct opt_enum sync_enums[] = {
	{ "none", SYNC_NONE }, { "0", SYNC_NONE },	{ "sync", SYNC_SYNC },
	{ "1", SYNC_SYNC },    { "dsync", SYNC_DSYNC }, { NULL, 0 },
};

static const struct opt_enum lockfile_enums[] = {
	{ "none", LOCKFILE_NONE },
	{ "exclusive", LOCKFILE_EXCLUSIVE },
	{ "readwrite", LOCKFILE_READWRITE },
	{ NULL, 0 },
};

static const struct opt_enum fadvise_enums[] = {
	{ "0", FADV_HINT_NONE },
	{ "1", FADV_HINT_WORKLOAD },
	{ "sequential", FADV_HINT_SEQUENTIAL },
	{ "random", FADV_HINT_RANDOM },
	{ NULL, 0 },
};

static const struct opt_enum exit_what_enums[] = {
	{ "group", EXIT_GROUP },
	{ "stonewall", EXIT_STONEWALL },
	{ "all", EXIT_ALL },
	{ NULL, 0 },
};

static const struct opt_enum iomem_enums[] = {
	{ "malloc", IOMEM_MALLOC },
	{ "mmap", IOMEM_MMAP },
	{ "mmapshared", IOMEM_MMAPSHARED },
	{ "mmaphuge", IOMEM_MMAPHUGE },
	{ "shm", IOMEM_SHM },
	{ "shmhuge", IOMEM_SHMHUGE },
	{ "thp", IOMEM_THP },
	{ NULL, 0 },
};

static const struct opt_enum submit_mode_enums[] = {
	{ "inline", SUBMIT_INLINE },
	{ "offload", SUBMIT_OFFLOAD },
	{ NULL, 0 },
};

static const struct opt_enum rate_process_enums[] = {
	{ "linear", RATE_LINEAR },
	{ "poisson", RATE_POISSON },
	{ NULL, 0 },
};

static const struct opt_enum cpus_policy_enums[] = {
	{ "shared", CPUS_SHARED },
	{ "split", CPUS_SPLIT },
	{ NULL, 0 },
};

static const struct opt_enum sub_block_io_enums[] = {
	{ "scatter", SUBIO_SCATTER },
	{ "copy", SUBIO_COPY },
	{ NULL, 0 },
};

static const struct opt_enum dedupe_mode_enums[] = {
	{ "repeat", DEDUPE_REPEAT },
	{ "working_set", DEDUPE_WORKING_SET },
	{ NULL, 0 },
};

static const struct opt_enum write_hint_enums[] = {
	{ "none", WRITE_HINT_NONE },	   { "short", WRITE_HINT_SHORT },
	{ "medium", WRITE_HINT_MEDIUM },   { "long", WRITE_HINT_LONG },
	{ "extreme", WRITE_HINT_EXTREME }, { NULL, 0 },
};

static const struct opt_enum fallocate_enums[] = {
	{ "none", FALLOC_NONE },	 { "0", FALLOC_NONE },	{ "native", FALLOC_NATIVE },
	{ "posix", FALLOC_POSIX },	 { "1", FALLOC_POSIX }, { "keep", FALLOC_KEEP },
	{ "truncate", FALLOC_TRUNCATE }, { NULL, 0 },
};

static const struct opt_enum unified_enums[] = {
	{ "none", UNIFIED_NONE },
	{ "0", UNIFIED_NONE },
	{ "mixed", UNIFIED_MIXED },
	{ "1", UNIFIED_MIXED },
	{ "both", UNIFIED_BOTH },
	{ "2", UNIFIED_BOTH },
	{ NULL, 0 },
};

static const struct opt_enum unit_base_enums[] = {
	{ "0", 0 },
	{ "8", 8 },
	{ "1", 1 },
	{ NULL, 0 },
};

static const struct opt_enum coe_enums[] = {
	{ "none", COE_NONE },	{ "0", COE_NONE }, { "read", COE_READ },
	{ "write", COE_WRITE }, { "io", COE_IO },  { "verify", COE_VERIFY },
	{ "all", COE_ALL },	{ "1", COE_ALL },  { NULL, 0 },
};

static const struct opt_enum verify_enums[] = {
	{ "0", VERIFY_NONE },
	{ "md5", VERIFY_MD5 },
	{ "crc64", VERIFY_CRC64 },
	{ "crc32c", VERIFY_CRC32C },
	{ "crc32c-intel", VERIFY_CRC32C_INTEL },
	{ "crc32", VERIFY_CRC32 },
	{ "crc16", VERIFY_CRC16 },
	{ "crc7", VERIFY_CRC7 },
	{ "xxhash", VERIFY_XXHASH },
	{ "sha1", VERIFY_SHA1 },
	{ "sha256", VERIFY_SHA256 },
	{ "sha512", VERIFY_SHA512 },
	{ "sha3-224", VERIFY_SHA3_224 },
	{ "sha3-256", VERIFY_SHA3_256 },
	{ "sha3-384", VERIFY_SHA3_384 },
	{ "sha3-512", VERIFY_SHA3_512 },
	{ "meta", VERIFY_META },
	{ "pattern", VERIFY_PATTERN },
	{ "pattern_hdr", VERIFY_PATTERN_HDR },
	{ "null", VERIFY_NULL },
	{ NULL, 0 },
};

static const struct opt_enum clocksource_enums[] = {
	{ "clock_gettime", CLOCKSOURCE_CLOCK_GETTIME },
	{ "gettimeofday", CLOCKSOURCE_GETTIMEOFDAY },
	{ "cpu", CLOCKSOURCE_CPU },
	{ NULL, 0 },
};

static const struct opt_enum think_type_enums[] = {
	{ "complete", THINK_COMPLETE },
	{ "issue", THINK_ISSUE },
	{ NULL, 0 },
};

static const struct opt_enum zonemode_enums[] = {
	{ "none", ZONE_NONE },
	{ "strided", ZONE_STRIDED },
	{ NULL, 0 },
};

static const struct opt_enum random_generator_enums[] = {
	{ "tausworthe", RANDGEN_TAUSWORTHE },
	{ "lfsr", RANDGEN_LFSR },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64 },
	{ NULL, 0 },
};

static const struct opt_enum rw_sequencer_enums[] = {
	{ "sequential", RWSEQ_SEQUENTIAL },
	{ "identical", RWSEQ_IDENTICAL },
	{ NULL, 0 },
};

static const struct opt_enum kb_base_enums[] = {
	{ "1024", 1024 },
	{ "1000", 1000 },
	{ NULL, 0 },
};

/*
 * Sorted by name.  Defaults are text, parsed exactly as a job file's value.
 * Kept one option per row, which clang-format would break into a field a line.
 */
/* clang-format off */
const struct opt_def opt_table[OPT_NR] = {
	[OPT_ACK_BUFFER] = { .name = "ack_buffer", .kind = &opt_kind_size, F(ack_buffer), .def = "0",
	  .help = "iogauge crash: acknowledge a write once it is in a user-space buffer of this size (0: none)" },
	[OPT_ALLOW_FILE_CREATE] = { .name = "allow_file_create", .kind = &opt_kind_bool, F(allow_file_create), .def = "1",
	  .flags = OPTF_BARE, .help = "files that do not exist may be created (0: such a file is an error)" },
	[OPT_ALLOW_MOUNTED_WRITE] = { .name = "allow_mounted_write", .kind = &opt_kind_bool, F(allow_mounted_write), .def = "0",
	  .flags = OPTF_BARE,
	  .help = "write a block device that is mounted or holds a filesystem or volume" },
	[OPT_ALLRANDREPEAT] = { .name = "allrandrepeat", .kind = &opt_kind_bool, F(allrandrepeat), .def = "0",
	  .help = "seed every random generator from fio's fixed seeds, randrepeat or not" },
	[OPT_ATOMIC] = { .name = "atomic", .kind = &opt_kind_bool, F(atomic), .def = "0", .flags = OPTF_BARE,
	  .help = "fio's O_ATOMIC, which Linux has not got: direct=1, as fio 3.33 makes it" },
	[OPT_BLOCKALIGN] = { .name = "blockalign", .alias = "ba", .kind = &opt_kind_size_ddir, F(blockalign), .def = "0",
	  .help = "alignment of random offsets per direction (0: the block size)" },
	[OPT_BS] = { .name = "bs", .alias = "blocksize", .kind = &opt_kind_size_ddir, F(bs), .min = 1,
	  .def = "4k", .help = "block size, or read,write,trim sizes" },
	[OPT_BS_IS_SEQ_RAND] = { .name = "bs_is_seq_rand", .kind = &opt_kind_bool, F(bs_is_seq_rand), .def = "0",
	  .help = "bs's read sizes for sequential I/Os, its write sizes for random ones" },
	[OPT_BS_UNALIGNED] = { .name = "bs_unaligned", .alias = "blocksize_unaligned", .kind = &opt_kind_bool, F(bs_unaligned), .def = "0",
	  .flags = OPTF_BARE, .help = "bsrange sizes of any byte count, not only multiples of the low end" },
	[OPT_BSRANGE] = { .name = "bsrange", .alias = "blocksize_range", .kind = &opt_kind_range_ddir,
	  F2(bsrange_min, bsrange_max), .min = 1,
	  .help = "block size range LO-HI per direction, in multiples of LO" },
	[OPT_BSSPLIT] = { .name = "bssplit", .kind = &opt_kind_bssplit, F(bssplit),
	  .help = "weighted block sizes: bs/pct:bs/pct..., per direction with commas" },
	[OPT_BUFFER_COMPRESS_CHUNK] = { .name = "buffer_compress_chunk", .kind = &opt_kind_uint, F(buffer_compress_chunk),
	  .min = 1, .def = "512",
	  .help = "bytes per random-then-zero stretch of a compressible buffer" },
	[OPT_BUFFER_COMPRESS_PERCENTAGE] = { .name = "buffer_compress_percentage", .kind = &opt_kind_pct,
	  F(buffer_compress_percentage), .max = 100, .def = "0",
	  .help = "make write buffers compressible by this percentage" },
	[OPT_BUFFER_PATTERN] = { .name = "buffer_pattern", .kind = &opt_kind_pattern, F(buffer_pattern),
	  .help = "fill write buffers with these bytes: 0xhex, \"text\", decimal, joined" },
	[OPT_BUFFERED] = { .name = "buffered", .kind = &opt_kind_bool, F(direct), .def = "1", .flags = OPTF_INVERT,
	  .help = "use buffered I/O (the inverse of direct)" },
	[OPT_BWAVGTIME] = { .name = "bwavgtime", .kind = &opt_kind_uint, F(bwavgtime), .min = 1, .def = "500",
	  .help = "ms: the window of each bandwidth sample (bw min, max, mean, stddev)" },
	[OPT_CGROUP] = { .name = "cgroup", .kind = &opt_kind_str, F(cgroup),
	  .help = "run the clones in this cgroup (made when missing) of the blkio or cgroup2 mount" },
	[OPT_CGROUP_NODELETE] = { .name = "cgroup_nodelete", .kind = &opt_kind_bool, F(cgroup_nodelete), .def = "0",
	  .help = "keep the cgroup the run made when it ends" },
	[OPT_CGROUP_WEIGHT] = { .name = "cgroup_weight", .kind = &opt_kind_uint, F(cgroup_weight), .min = 100,
	  .max = 1000, .help = "the cgroup's blkio.weight (cgroup v1), 100 to 1000" },
	[OPT_CLAT_PERCENTILES] = { .name = "clat_percentiles", .kind = &opt_kind_bool, F(clat_percentiles), .def = "1",
	  .help = "report completion latency percentiles" },
	[OPT_CLOCKSOURCE] = { .name = "clocksource", .kind = &opt_kind_enum, F(clocksource), .enums = clocksource_enums,
	  .def = "clock_gettime",
	  .help = "the run's clock: clock_gettime (monotonic), gettimeofday, cpu (the TSC)" },
	[OPT_CONTINUE_ON_ERROR] = { .name = "continue_on_error", .kind = &opt_kind_enum, F(continue_on_error),
	  .enums = coe_enums, .def = "none", .help = "which I/O errors to count and go on past" },
	[OPT_CPUMASK] = { .name = "cpumask", .kind = &opt_kind_u64, F(cpumask), .min = 1, .max = 0xffffffffu,
	  .help = "CPUs the job's threads may run on, as bits of a number: 0x3 is CPUs 0 and 1" },
	[OPT_CPUS_ALLOWED] = { .name = "cpus_allowed", .kind = &opt_kind_cpus, F(cpus_allowed),
	  .help = "CPUs the job's threads may run on: 0,5,8-15" },
	[OPT_CPUS_ALLOWED_POLICY] = { .name = "cpus_allowed_policy", .kind = &opt_kind_enum, F(cpus_allowed_policy),
	  .enums = cpus_policy_enums, .def = "shared",
	  .help = "shared: every clone may use all of cpus_allowed; split: one CPU each" },
	[OPT_CREATE_FSYNC] = { .name = "create_fsync", .kind = &opt_kind_bool, F(create_fsync), .def = "1",
	  .flags = OPTF_BARE, .help = "fsync a file after laying it out" },
	[OPT_CREATE_ON_OPEN] = { .name = "create_on_open", .kind = &opt_kind_bool, F(create_on_open), .def = "0",
	  .help = "create files when first opened rather than up front" },
	[OPT_CREATE_ONLY] = { .name = "create_only", .kind = &opt_kind_bool, F(create_only), .def = "0",
	  .flags = OPTF_BARE, .help = "only lay the files out: no I/O" },
	[OPT_CREATE_SERIALIZE] = { .name = "create_serialize", .kind = &opt_kind_bool, F(create_serialize), .def = "1",
	  .flags = OPTF_BARE, .help = "lay files out before any job runs (0: as the job starts)" },
	[OPT_DEDUPE_GLOBAL] = { .name = "dedupe_global", .kind = &opt_kind_bool, F(dedupe_global), .def = "0",
	  .help = "dedupe working sets made of every job's buffers (working_set)" },
	[OPT_DEDUPE_MODE] = { .name = "dedupe_mode", .kind = &opt_kind_enum, F(dedupe_mode), .enums = dedupe_mode_enums,
	  .def = "repeat", .help = "a duplicate repeats: the buffer before (repeat) or one of a set (working_set)" },
	[OPT_DEDUPE_PERCENTAGE] = { .name = "dedupe_percentage", .kind = &opt_kind_pct, F(dedupe_percentage),
	  .max = 100, .def = "0", .help = "% of write buffers that repeat one written before" },
	[OPT_DEDUPE_WORKING_SET_PERCENTAGE] = { .name = "dedupe_working_set_percentage", .kind = &opt_kind_pct,
	  F(dedupe_working_set_percentage), .max = 100, .def = "5",
	  .help = "working_set: % of size whose buffers duplicates repeat" },
	[OPT_DESCRIPTION] = { .name = "description", .kind = &opt_kind_str, F(description),
	  .help = "free text describing the job" },
	[OPT_DIRECT] = { .name = "direct", .kind = &opt_kind_bool, F(direct), .def = "0",
	  .help = "use O_DIRECT (bypass the page cache)" },
	[OPT_DIRECTORY] = { .name = "directory", .kind = &opt_kind_str_list, F(directory),
	  .help = "folder(s) for the job's files, colon-separated" },
	[OPT_DISABLE_BW_MEASUREMENT] = { .name = "disable_bw_measurement", .alias = "disable_bw", .kind = &opt_kind_bool,
	  F(disable_bw), .def = "0", .help = "no per-I/O bandwidth log entries (part of gtod_reduce)" },
	[OPT_DISABLE_CLAT] = { .name = "disable_clat", .kind = &opt_kind_bool, F(disable_clat), .def = "0",
	  .help = "no completion latency (part of gtod_reduce)" },
	[OPT_DISABLE_LAT] = { .name = "disable_lat", .kind = &opt_kind_bool, F(disable_lat), .def = "0",
	  .help = "no total latency (part of gtod_reduce)" },
	[OPT_DISABLE_SLAT] = { .name = "disable_slat", .kind = &opt_kind_bool, F(disable_slat), .def = "0",
	  .help = "no submission latency (part of gtod_reduce)" },
	[OPT_DO_VERIFY] = { .name = "do_verify", .kind = &opt_kind_bool, F(do_verify), .def = "1",
	  .help = "run the verify phase after writing when verify is set" },
	[OPT_END_FSYNC] = { .name = "end_fsync", .kind = &opt_kind_bool, F(end_fsync), .def = "0",
	  .help = "fsync the files when the write phase ends" },
	[OPT_ERROR_DUMP] = { .name = "error_dump", .kind = &opt_kind_bool, F(error_dump), .def = "0",
	  .help = "list every error passed over, not only the first" },
	[OPT_EXEC_POSTRUN] = { .name = "exec_postrun", .kind = &opt_kind_str, F(exec_postrun),
	  .help = "a shell command each clone runs after its I/O (output: NAME.postrun.txt)" },
	[OPT_EXEC_PRERUN] = { .name = "exec_prerun", .kind = &opt_kind_str, F(exec_prerun),
	  .help = "a shell command each clone runs before its I/O (output: NAME.prerun.txt)" },
	[OPT_EXIT_WHAT] = { .name = "exit_what", .kind = &opt_kind_enum, F(exit_what), .enums = exit_what_enums,
	  .def = "group", .help = "what exitall ends: group, stonewall (the running jobs) or all" },
	[OPT_EXITALL] = { .name = "exitall", .kind = &opt_kind_bool, F(exitall), .def = "0", .flags = OPTF_BARE,
	  .help = "when any job ends, end the others of its group (set in one job, for all)" },
	[OPT_EXITALL_ON_ERROR] = { .name = "exitall_on_error", .kind = &opt_kind_bool, F(exitall_on_error), .def = "0",
	  .flags = OPTF_BARE, .help = "when one job fails, end the others of its group" },
	[OPT_EXPERIMENTAL_VERIFY] = { .name = "experimental_verify", .kind = &opt_kind_bool, F(experimental_verify),
	  .def = "0", .help = "read back the blocks in the order written (fio's replay), not by offset" },
	[OPT_FADVISE_HINT] = { .name = "fadvise_hint", .kind = &opt_kind_enum, F(fadvise_hint), .enums = fadvise_enums,
	  .def = "1", .help = "posix_fadvise the files: 1 as the workload, sequential, random, 0" },
	[OPT_FALLOCATE] = { .name = "fallocate", .kind = &opt_kind_enum, F(fallocate), .enums = fallocate_enums,
	  .def = "native", .help = "how files are preallocated when laid out" },
	[OPT_FDATASYNC] = { .name = "fdatasync", .kind = &opt_kind_uint, F(fdatasync), .def = "0",
	  .help = "fdatasync every N writes (0: never)" },
	[OPT_FILE_APPEND] = { .name = "file_append", .kind = &opt_kind_bool, F(file_append), .def = "0",
	  .flags = OPTF_BARE, .help = "the I/O region starts at the file's end" },
	[OPT_FILE_SERVICE_TYPE] = { .name = "file_service_type", .kind = &opt_kind_file_service, F(file_service),
	  .def = "roundrobin", .help = "how the next file is chosen: roundrobin, sequential, random (:N I/Os each), zipf, pareto, normal" },
	[OPT_FILENAME] = { .name = "filename", .kind = &opt_kind_str_list, F(filename),
	  .help = "file(s) to use, colon-separated (\\: for a literal colon)" },
	[OPT_FILENAME_FORMAT] = { .name = "filename_format", .kind = &opt_kind_str, F(filename_format),
	  .def = "$jobname.$jobnum.$filenum", .help = "how file names are made when filename is unset" },
	[OPT_FILESIZE] = { .name = "filesize", .kind = &opt_kind_range, F2(filesize_min, filesize_max), .min = 1,
	  .help = "size of each file, or a LO-HI range picked per file" },
	[OPT_FILL_DEVICE] = { .name = "fill_device", .alias = "fill_fs", .kind = &opt_kind_bool, F(fill_device), .def = "0",
	  .flags = OPTF_BARE, .help = "write until the device or filesystem is full (ENOSPC ends the job)" },
	[OPT_FLOW] = { .name = "flow", .kind = &opt_kind_uint, F(flow), .max = 1000, .def = "0",
	  .help = "weight of the job among those sharing its flow_id (0: in no flow)" },
	[OPT_FLOW_ID] = { .name = "flow_id", .kind = &opt_kind_uint, F(flow_id), .def = "0",
	  .help = "the flow whose I/O the job's flow weight shares" },
	[OPT_FLOW_SLEEP] = { .name = "flow_sleep", .kind = &opt_kind_time, F(flow_sleep), .unit = NSEC_PER_USEC,
	  .def = "0", .help = "pause after the flow holds the job back (bare numbers in us)" },
	[OPT_FSYNC] = { .name = "fsync", .kind = &opt_kind_uint, F(fsync), .def = "0",
	  .help = "fsync every N writes (0: never)" },
	[OPT_FSYNC_ON_CLOSE] = { .name = "fsync_on_close", .kind = &opt_kind_bool, F(fsync_on_close), .def = "0",
	  .help = "fsync each file before it is closed" },
	[OPT_FSYNC_WINDOW] = { .name = "fsync_window", .kind = &opt_kind_time, F(fsync_window), .unit = NSEC_PER_USEC,
	  .def = "0", .help = "iogauge crash: one fsync for the writes of each window this long (bare numbers in us; 0: off)" },
	[OPT_GID] = { .name = "gid", .kind = &opt_kind_uint, F(gid), .max = 4294967294u,
	  .help = "the group ID each clone takes before its I/O (setgid)" },
	[OPT_GROUP_REPORTING] = { .name = "group_reporting", .kind = &opt_kind_bool, F(group_reporting), .def = "0",
	  .flags = OPTF_BARE, .help = "report each group as one" },
	[OPT_GTOD_REDUCE] = { .name = "gtod_reduce", .kind = &opt_kind_bool, F(gtod_reduce), .def = "0",
	  .help = "no latencies, for fewer clock reads: sets the disable_* options" },
	[OPT_HUGEPAGE_SIZE] = { .name = "hugepage-size", .kind = &opt_kind_size_pct, F(hugepage_size),
	  .help = "iomem=mmaphuge, shmhuge: round the buffers up to this (default: the system's huge page)" },
	[OPT_IGNORE_ERROR] = { .name = "ignore_error", .kind = &opt_kind_errors, F(ignore_error),
	  .help = "errnos to pass over: READ,WRITE,VERIFY lists of E names or numbers, colon-separated" },
	[OPT_INVALIDATE] = { .name = "invalidate", .kind = &opt_kind_bool, F(invalidate), .def = "1",
	  .help = "drop the files' page cache before I/O" },
	[OPT_IO_SIZE] = { .name = "io_size", .alias = "io_limit", .kind = &opt_kind_size_pct, F(io_size),
	  .help = "bytes of I/O to do, apart from the region size" },
	[OPT_IO_SUBMIT_MODE] = { .name = "io_submit_mode", .kind = &opt_kind_enum, F(io_submit_mode),
	  .enums = submit_mode_enums, .def = "inline",
	  .help = "who submits: the job's thread (inline); offload warns and runs inline" },
	[OPT_IODEPTH] = { .name = "iodepth", .kind = &opt_kind_uint, F(iodepth), .min = 1, .max = 65536,
	  .def = "1", .help = "I/Os kept in flight (async engines)" },
	[OPT_IODEPTH_BATCH_COMPLETE_MAX] = { .name = "iodepth_batch_complete_max", .kind = &opt_kind_uint,
	  F(iodepth_batch_complete_max), .max = 65536, .def = "0",
	  .help = "most completions reaped at once (below the min: the min)" },
	[OPT_IODEPTH_BATCH_COMPLETE_MIN] = { .name = "iodepth_batch_complete_min", .alias = "iodepth_batch_complete",
	  .kind = &opt_kind_uint, F(iodepth_batch_complete_min), .max = 65536, .def = "1",
	  .help = "fewest completions waited for at once (0: poll)" },
	[OPT_IODEPTH_BATCH_SUBMIT] = { .name = "iodepth_batch_submit", .alias = "iodepth_batch", .kind = &opt_kind_uint,
	  F(iodepth_batch_submit), .max = 65536, .def = "1",
	  .help = "I/Os submitted at once (0: iodepth)" },
	[OPT_IODEPTH_LOW] = { .name = "iodepth_low", .kind = &opt_kind_uint, F(iodepth_low), .max = 65536, .def = "0",
	  .help = "once the queue is full, let it drain to this many before filling it (0: iodepth)" },
	[OPT_IOENGINE] = { .name = "ioengine", .kind = &opt_kind_engine, F(ioengine), .def = "psync",
	  .help = "how I/O is issued (--list-engines)" },
	[OPT_IOMEM] = { .name = "iomem", .alias = "mem", .kind = &opt_kind_enum, F(iomem), .enums = iomem_enums,
	  .def = "malloc",
	  .help = "I/O buffer memory: malloc, mmap, mmapshared, mmaphuge, shm, shmhuge, thp" },
	[OPT_IOMEM_ALIGN] = { .name = "iomem_align", .alias = "mem_align", .kind = &opt_kind_uint, F(mem_align),
	  .def = "0", .help = "start the I/O buffers this many bytes past a page boundary" },
	[OPT_IOPSAVGTIME] = { .name = "iopsavgtime", .kind = &opt_kind_uint, F(iopsavgtime), .min = 1, .def = "500",
	  .help = "ms: the window of each IOPS sample (iops min, max, mean, stddev)" },
	[OPT_IOSCHEDULER] = { .name = "ioscheduler", .kind = &opt_kind_str, F(ioscheduler),
	  .help = "the I/O scheduler of the disks under the files while the job runs" },
	[OPT_KB_BASE] = { .name = "kb_base", .kind = &opt_kind_enum, F(kb_base), .enums = kb_base_enums,
	  .def = "1024", .help = "what k means in sizes: 1024 (fio's default) or 1000" },
	[OPT_LAT_PERCENTILES] = { .name = "lat_percentiles", .kind = &opt_kind_bool, F(lat_percentiles), .def = "0",
	  .help = "report total latency percentiles" },
	[OPT_LATENCY_PERCENTILE] = { .name = "latency_percentile", .kind = &opt_kind_float, F(latency_percentile),
	  .max = 100, .def = "100", .help = "% of a latency_window's I/Os that must meet latency_target" },
	[OPT_LATENCY_RUN] = { .name = "latency_run", .kind = &opt_kind_bool, F(latency_run), .def = "0",
	  .help = "keep adjusting the depth to latency_target instead of ending at the one found" },
	[OPT_LATENCY_TARGET] = { .name = "latency_target", .kind = &opt_kind_time, F(latency_target),
	  .unit = NSEC_PER_USEC, .def = "0",
	  .help = "find the deepest queue whose I/Os meet this total latency (us; 0: off)" },
	[OPT_LATENCY_WINDOW] = { .name = "latency_window", .kind = &opt_kind_time, F(latency_window),
	  .unit = NSEC_PER_USEC, .def = "0", .help = "how long each depth is tried for latency_target (us)" },
	[OPT_LOCKFILE] = { .name = "lockfile", .kind = &opt_kind_enum, F(lockfile), .enums = lockfile_enums, .def = "none",
	  .help = "lock a file shared by clones around each I/O: none, exclusive, readwrite" },
	[OPT_LOCKMEM] = { .name = "lockmem", .kind = &opt_kind_size_pct, F(lockmem), .def = "0",
	  .help = "memory each clone locks (mlock) while it runs, to leave the rest less" },
	[OPT_LOG_AVG_MSEC] = { .name = "log_avg_msec", .kind = &opt_kind_uint, F(log_avg_msec), .def = "0",
	  .help = "average log entries over this many ms (0: every I/O)" },
	[OPT_LOG_HIST_COARSENESS] = { .name = "log_hist_coarseness", .kind = &opt_kind_uint, F(log_hist_coarseness), .max = 6,
	  .def = "0", .help = "merge histogram log bins 2^N at a time (0..6)" },
	[OPT_LOG_HIST_MSEC] = { .name = "log_hist_msec", .kind = &opt_kind_uint, F(log_hist_msec), .def = "0",
	  .help = "write a histogram log line every this many ms (0: none)" },
	[OPT_LOG_OFFSET] = { .name = "log_offset", .kind = &opt_kind_bool, F(log_offset), .def = "0", .help = "add each I/O's offset to the per-I/O logs" },
	[OPT_LOG_PRIO] = { .name = "log_prio", .kind = &opt_kind_bool, F(log_prio), .def = "0",
	  .help = "the per-I/O logs' last column: each I/O's priority (else 1 for realtime, 0 not)" },
	[OPT_LOOPS] = { .name = "loops", .kind = &opt_kind_uint, F(loops), .min = 1, .def = "1",
	  .help = "run the workload this many times" },
	[OPT_MAX_LATENCY] = { .name = "max_latency", .kind = &opt_kind_time_ddir, F(max_latency),
	  .unit = NSEC_PER_USEC, .def = "0",
	  .help = "fail the job when an I/O's total latency passes this, per direction (us; 0: none)" },
	[OPT_MERGE_BLKTRACE_FILE] = { .name = "merge_blktrace_file", .kind = &opt_kind_str, F(merge_blktrace_file),
	  .help = "read_iolog's blktrace traces (A:B:...) merged by time into this file, then replayed" },
	[OPT_MERGE_BLKTRACE_ITERS] = { .name = "merge_blktrace_iters", .kind = &opt_kind_merge_list,
	  F(merge_blktrace_iters), .help = "merge_blktrace_file: how often each trace runs (N:N:...)" },
	[OPT_MERGE_BLKTRACE_SCALARS] = { .name = "merge_blktrace_scalars", .kind = &opt_kind_merge_list,
	  F(merge_blktrace_scalars), .help = "merge_blktrace_file: each trace's times in % (N:N:...)" },
	[OPT_NAME] = { .name = "name", .kind = &opt_kind_str, F(name),
	  .help = "the job's name (the section name unless set)" },
	[OPT_NEW_GROUP] = { .name = "new_group", .kind = &opt_kind_bool, F(new_group), .def = "0", .flags = OPTF_BARE,
	  .help = "start a new reporting group" },
	[OPT_NICE] = { .name = "nice", .kind = &opt_kind_int, F(nice), .min = (uint64_t)-20, .max = 19, .def = "0",
	  .help = "CPU nice value of the job's clones (-20..19)" },
	[OPT_NORANDOMMAP] = { .name = "norandommap", .kind = &opt_kind_bool, F(norandommap), .def = "0",
	  .flags = OPTF_BARE, .help = "random offsets may repeat or skip blocks" },
	[OPT_NRFILES] = { .name = "nrfiles", .alias = "nr_files", .kind = &opt_kind_uint, F(nrfiles), .min = 1,
	  .max = 1000000, .def = "1", .help = "files per job" },
	[OPT_NUMA_CPU_NODES] = { .name = "numa_cpu_nodes", .kind = &opt_kind_str, F(numa_cpu_nodes),
	  .help = "run on the CPUs of these NUMA nodes: 0, 0-1, all" },
	[OPT_NUMA_MEM_POLICY] = { .name = "numa_mem_policy", .kind = &opt_kind_str, F(numa_mem_policy),
	  .help = "memory policy: default, local, prefer:N, bind:NODES, interleave[:NODES]" },
	[OPT_NUMBER_IOS] = { .name = "number_ios", .kind = &opt_kind_u64, F(number_ios), .def = "0",
	  .help = "end the job after this many I/Os, times loops (0: no limit; not with time_based)" },
	[OPT_NUMJOBS] = { .name = "numjobs", .kind = &opt_kind_uint, F(numjobs), .min = 1, .max = JOB_MAX_NUMJOBS,
	  .def = "1", .help = "clones of this job" },
	[OPT_OFFSET] = { .name = "offset", .alias = "fileoffset", .kind = &opt_kind_size_pct, F(offset), .def = "0",
	  .help = "start of the I/O region in each file" },
	[OPT_OFFSET_ALIGN] = { .name = "offset_align", .kind = &opt_kind_size, F(offset_align), .def = "0",
	  .help = "round a percentage offset up to this (0: the smallest block size)" },
	[OPT_OFFSET_INCREMENT] = { .name = "offset_increment", .kind = &opt_kind_size_pct, F(offset_increment), .def = "0",
	  .help = "added to offset for each clone" },
	[OPT_OFFSET_RANK_INCREMENT] = { .name = "offset_rank_increment", .kind = &opt_kind_size_pct,
	  F(offset_rank_increment), .def = "0", .help = "iogauge: added to offset for each MPI rank" },
	[OPT_OPENDIR] = { .name = "opendir", .kind = &opt_kind_str, F(opendir),
	  .help = "use every regular file below this directory" },
	[OPT_OPENFILES] = { .name = "openfiles", .kind = &opt_kind_uint, F(openfiles), .max = 1000000, .def = "0",
	  .help = "most files open at once (0: all of nrfiles)" },
	[OPT_OVERWRITE] = { .name = "overwrite", .kind = &opt_kind_bool, F(overwrite), .def = "0", .flags = OPTF_BARE,
	  .help = "a file too short is truncated and laid out whole, not extended" },
	[OPT_PERCENTAGE_RANDOM] = { .name = "percentage_random", .kind = &opt_kind_u64_ddir, F(percentage_random),
	  .max = 100, .def = "100",
	  .help = "% of a random job's I/Os at random offsets, per direction; the rest follow the last" },
	[OPT_PERCENTILE_LIST] = { .name = "percentile_list", .kind = &opt_kind_percentiles, F(percentile_list),
	  .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	  .help = "percentiles to report, colon-separated" },
	[OPT_PRE_READ] = { .name = "pre_read", .kind = &opt_kind_bool, F(pre_read), .def = "0",
	  .help = "read the files into the page cache first" },
	[OPT_PRIO] = { .name = "prio", .kind = &opt_kind_uint, F(prio), .max = 7, .def = "0",
	  .help = "I/O priority level of the job's clones, 0 (highest) to 7 (ioprio_set)" },
	[OPT_PRIOCLASS] = { .name = "prioclass", .kind = &opt_kind_uint, F(prioclass), .max = 3, .def = "0",
	  .help = "I/O priority class of the job's clones: 1 realtime, 2 best-effort, 3 idle" },
	[OPT_RAMP_TIME] = { .name = "ramp_time", .kind = &opt_kind_time, F(ramp_time), .unit = NSEC_PER_SEC,
	  .def = "0", .help = "run this long before measuring" },
	[OPT_RANDOM_DISTRIBUTION] = { .name = "random_distribution", .kind = &opt_kind_rand_dist, F(random_distribution),
	  .def = "random", .help = "random, zipf:T, pareto:H, normal:S, zoned:..., zoned_abs:..." },
	[OPT_RANDOM_GENERATOR] = { .name = "random_generator", .kind = &opt_kind_enum, F(random_generator),
	  .enums = random_generator_enums, .def = "tausworthe",
	  .help = "random offsets: tausworthe, lfsr (each block once, no map), tausworthe64" },
	[OPT_RANDREPEAT] = { .name = "randrepeat", .kind = &opt_kind_bool, F(randrepeat), .def = "1",
	  .help = "the same random sequence on every run" },
	[OPT_RANDSEED] = { .name = "randseed", .kind = &opt_kind_u64, F(randseed), .def = "0x89",
	  .help = "seed of the random generators" },
	[OPT_RATE] = { .name = "rate", .kind = &opt_kind_size_ddir, F(rate), .def = "0",
	  .help = "bandwidth cap in bytes/s per direction (0: none)" },
	[OPT_RATE_CYCLE] = { .name = "rate_cycle", .alias = "ratecycle", .kind = &opt_kind_uint, F(rate_cycle),
	  .def = "1000", .help = "ms over which rate_min and rate_iops_min are measured" },
	[OPT_RATE_IGNORE_THINKTIME] = { .name = "rate_ignore_thinktime", .kind = &opt_kind_bool, F(rate_ignore_thinktime),
	  .def = "0", .help = "a think moves the rate's schedule on: no catching up after it" },
	[OPT_RATE_IOPS] = { .name = "rate_iops", .kind = &opt_kind_u64_ddir, F(rate_iops), .def = "0",
	  .help = "IOPS cap per direction (0: none)" },
	[OPT_RATE_IOPS_MIN] = { .name = "rate_iops_min", .kind = &opt_kind_u64_ddir, F(rate_iops_min), .def = "0",
	  .help = "fail the job when its IOPS falls below this, per direction (0: none)" },
	[OPT_RATE_MIN] = { .name = "rate_min", .alias = "ratemin", .kind = &opt_kind_size_ddir, F(rate_min), .def = "0",
	  .help = "fail the job when its bandwidth falls below this, bytes/s per direction (0: none)" },
	[OPT_RATE_PROCESS] = { .name = "rate_process", .kind = &opt_kind_enum, F(rate_process),
	  .enums = rate_process_enums, .def = "linear", .help = "arrival pattern under a rate cap" },
	[OPT_READ_IOLOG] = { .name = "read_iolog", .kind = &opt_kind_str, F(read_iolog),
	  .help = "issue the I/Os of fio's iolog FILE (version 2 or 3) instead of a pattern" },
	[OPT_REFILL_BUFFERS] = { .name = "refill_buffers", .kind = &opt_kind_bool, F(refill_buffers), .def = "0",
	  .flags = OPTF_BARE, .help = "new buffer contents for every write" },
	[OPT_REPLAY_ALIGN] = { .name = "replay_align", .kind = &opt_kind_u64, F(replay_align), .def = "0",
	  .help = "read_iolog: round each offset down to a multiple of this (0: as logged)" },
	[OPT_REPLAY_NO_STALL] = { .name = "replay_no_stall", .kind = &opt_kind_bool, F(replay_no_stall),
	  .def = "0", .flags = OPTF_BARE, .help = "read_iolog: issue at once, without the log's times" },
	[OPT_REPLAY_REDIRECT] = { .name = "replay_redirect", .kind = &opt_kind_str, F(replay_redirect),
	  .help = "read_iolog: every I/O to this file or device instead of the logged ones" },
	[OPT_REPLAY_SCALE] = { .name = "replay_scale", .kind = &opt_kind_u64, F(replay_scale), .min = 1,
	  .def = "1", .help = "read_iolog: divide each offset by this" },
	[OPT_REPLAY_SKIP] = { .name = "replay_skip", .kind = &opt_kind_replay_skip, F(replay_skip),
	  .help = "blktrace replay: leave out these (read,write,trim,sync)" },
	[OPT_REPLAY_TIME_SCALE] = { .name = "replay_time_scale", .kind = &opt_kind_uint, F(replay_time_scale),
	  .min = 1, .def = "100", .help = "read_iolog: the log's times in % (200: twice as fast)" },
	[OPT_ROUNDS] = { .name = "rounds", .kind = &opt_kind_uint, F(rounds), .min = 1, .max = 1000000, .def = "5",
	  .help = "iogauge crash: how many times the writer is killed" },
	[OPT_RUNTIME] = { .name = "runtime", .alias = "timeout", .kind = &opt_kind_time, F(runtime),
	  .unit = NSEC_PER_SEC, .def = "0", .help = "stop after this long (0: no limit)" },
	[OPT_RW] = { .name = "rw", .alias = "readwrite", .kind = &opt_kind_rw, F(rw), .enums = rw_enums,
	  .def = "read", .help = "I/O pattern, with an optional :N suffix" },
	[OPT_RW_SEQUENCER] = { .name = "rw_sequencer", .kind = &opt_kind_enum, F(rw_sequencer),
	  .enums = rw_sequencer_enums, .def = "sequential",
	  .help = "rw=randread:N: the I/Os between random ones follow the last (sequential) or repeat it (identical)" },
	[OPT_RWMIXREAD] = { .name = "rwmixread", .kind = &opt_kind_pct, F(rwmix_read), .max = 100, .def = "50",
	  .help = "% of mixed I/O that reads" },
	[OPT_RWMIXWRITE] = { .name = "rwmixwrite", .kind = &opt_kind_pct, F(rwmix_write), .max = 100, .def = "50",
	  .help = "% of mixed I/O that writes" },
	[OPT_SCRAMBLE_BUFFERS] = { .name = "scramble_buffers", .kind = &opt_kind_bool, F(scramble_buffers), .def = "1",
	  .flags = OPTF_BARE,
	  .help = "write the offset and a sequence number into each 512-byte block written" },
	[OPT_SEED] = { .name = "seed", .kind = &opt_kind_u64, F(seed), .def = "1",
	  .help = "iogauge crash: the seed of the moments the writer is killed" },
	[OPT_SERIALIZE_OVERLAP] = { .name = "serialize_overlap", .kind = &opt_kind_bool, F(serialize_overlap),
	  .def = "0", .help = "hold back an I/O that overlaps one in flight (writes and trims, iodepth above 1)" },
	[OPT_SIGNIFICANT_FIGURES] = { .name = "significant_figures", .kind = &opt_kind_uint, F(sig_figs), .min = 1,
	  .max = 10, .def = "4", .help = "digits of the figures in the Run status group lines" },
	[OPT_SIZE] = { .name = "size", .kind = &opt_kind_size_pct, F(size),
	  .help = "bytes of I/O region per job, or a % of the file" },
	[OPT_SOFTRANDOMMAP] = { .name = "softrandommap", .kind = &opt_kind_bool, F(softrandommap), .def = "0",
	  .flags = OPTF_BARE, .help = "a random map that cannot be allocated: go on without one (not exit 1)" },
	[OPT_STARTDELAY] = { .name = "startdelay", .kind = &opt_kind_time_range, F2(startdelay_min, startdelay_max),
	  .unit = NSEC_PER_SEC, .def = "0", .help = "wait this long (or LO-HI) before starting" },
	[OPT_STATS] = { .name = "stats", .kind = &opt_kind_bool, F(stats), .def = "1",
	  .flags = OPTF_BARE, .help = "0: leave the job out of the report, and its logs empty" },
	[OPT_STEADYSTATE] = { .name = "steadystate", .alias = "ss", .kind = &opt_kind_steady, F(steadystate),
	  .def = "iops_slope:0.01%", .help = "end the job when steady: iops, iops_slope, bw, bw_slope :limit or :N%" },
	[OPT_STEADYSTATE_DURATION] = { .name = "steadystate_duration", .alias = "ss_dur", .kind = &opt_kind_time,
	  F(ss_dur), .unit = NSEC_PER_SEC, .def = "0",
	  .help = "steadystate's window, in whole seconds (0: no steadystate)" },
	[OPT_STEADYSTATE_RAMP_TIME] = { .name = "steadystate_ramp_time", .alias = "ss_ramp", .kind = &opt_kind_time,
	  F(ss_ramp), .unit = NSEC_PER_SEC, .def = "0", .help = "time before steadystate's samples start" },
	[OPT_STONEWALL] = { .name = "stonewall", .alias = "wait_for_previous", .kind = &opt_kind_bool, F(stonewall),
	  .def = "0", .flags = OPTF_BARE, .help = "wait for earlier jobs; starts a new group" },
	[OPT_STRIDE] = { .name = "stride", .kind = &opt_kind_uint, F(stride), .def = "0",
	  .help = "iogauge: SQLIO's stripe factor, blocks between I/Os of a run (0: off)" },
	[OPT_SUB_BLOCK_IO] = { .name = "sub_block_io", .kind = &opt_kind_enum, F(sub_block_io),
	  .enums = sub_block_io_enums, .def = "scatter",
	  .help = "iogauge: sub_blocks by one vectored I/O (scatter) or a copy (copy)" },
	[OPT_SUB_BLOCKS] = { .name = "sub_blocks", .kind = &opt_kind_uint, F(sub_blocks), .min = 1, .max = 1024,
	  .def = "1", .help = "iogauge: each I/O's buffer as N pieces apart (SQLIO's -m)" },
	[OPT_SYNC] = { .name = "sync", .kind = &opt_kind_enum, F(sync), .enums = sync_enums, .def = "none",
	  .help = "open with O_SYNC (sync, 1) or O_DSYNC (dsync)" },
	[OPT_SYNC_FILE_RANGE] = { .name = "sync_file_range", .kind = &opt_kind_str, F(sync_file_range),
	  .help = "sync_file_range(2) every N writes: wait_before,write,wait_after[:N]" },
	[OPT_THINKTIME] = { .name = "thinktime", .kind = &opt_kind_time, F(thinktime), .unit = NSEC_PER_USEC,
	  .def = "0", .help = "pause after every thinktime_blocks I/Os (bare numbers in us)" },
	[OPT_THINKTIME_BLOCKS] = { .name = "thinktime_blocks", .kind = &opt_kind_uint, F(thinktime_blocks), .min = 1,
	  .def = "1", .help = "I/Os issued between thinks" },
	[OPT_THINKTIME_BLOCKS_TYPE] = { .name = "thinktime_blocks_type", .kind = &opt_kind_enum, F(thinktime_blocks_type),
	  .enums = think_type_enums, .def = "complete",
	  .help = "what thinktime_blocks counts: complete (I/Os completed, fio's default) or issue" },
	[OPT_THINKTIME_IOTIME] = { .name = "thinktime_iotime", .kind = &opt_kind_time, F(thinktime_iotime), .unit = NSEC_PER_SEC,
	  .def = "0", .help = "also think after this long of I/O (bare numbers in s; 0: off)" },
	[OPT_THINKTIME_SPIN] = { .name = "thinktime_spin", .kind = &opt_kind_time, F(thinktime_spin),
	  .unit = NSEC_PER_USEC, .def = "0", .help = "part of thinktime spent spinning, not sleeping" },
	[OPT_THREAD] = { .name = "thread", .kind = &opt_kind_bool, F(thread), .def = "0", .flags = OPTF_BARE,
	  .help = "run the clones as threads of one process, not a process each" },
	[OPT_TIME_BASED] = { .name = "time_based", .kind = &opt_kind_bool, F(time_based), .def = "0",
	  .flags = OPTF_BARE, .help = "repeat the workload until runtime ends" },
	[OPT_TRIM_BACKLOG] = { .name = "trim_backlog", .kind = &opt_kind_u64, F(trim_backlog), .def = "0",
	  .max = 1u << 24, .help = "with trim_percentage: trim the blocks picked every N writes" },
	[OPT_TRIM_BACKLOG_BATCH] = { .name = "trim_backlog_batch", .kind = &opt_kind_uint, F(trim_backlog_batch),
	  .def = "0", .help = "trims per trim_backlog pass (0: trim_backlog)" },
	[OPT_TRIM_PERCENTAGE] = { .name = "trim_percentage", .kind = &opt_kind_pct, F(trim_percentage), .max = 100,
	  .def = "0", .help = "% of the blocks written (with verify) to trim again, then check" },
	[OPT_TRIM_VERIFY_ZERO] = { .name = "trim_verify_zero", .kind = &opt_kind_bool, F(trim_verify_zero), .def = "1",
	  .help = "check that blocks trimmed read back as zeros (0: do not read them)" },
	[OPT_UID] = { .name = "uid", .kind = &opt_kind_uint, F(uid), .max = 4294967294u,
	  .help = "the user ID each clone takes before its I/O (setuid)" },
	[OPT_UNIFIED_RW_REPORTING] = { .name = "unified_rw_reporting", .kind = &opt_kind_enum,
	  F(unified_rw_reporting), .enums = unified_enums, .def = "none",
	  .help = "report reads, writes and trims apart (none), as one 'mixed' (mixed), or both" },
	[OPT_UNIQUE_FILENAME] = { .name = "unique_filename", .kind = &opt_kind_bool, F(unique_filename), .def = "1",
	  .flags = OPTF_BARE, .help = "fio's client prefix on file names (no client mode here: no effect)" },
	[OPT_UNIT_BASE] = { .name = "unit_base", .kind = &opt_kind_enum, F(unit_base),
	  .enums = unit_base_enums, .def = "0",
	  .help = "rates of the text report in bytes (0: auto, 8) or bits (1)" },
	[OPT_UNLINK] = { .name = "unlink", .kind = &opt_kind_bool, F(unlink), .def = "0",
	  .help = "remove the files this run created when it ends" },
	[OPT_UNLINK_EACH_LOOP] = { .name = "unlink_each_loop", .kind = &opt_kind_bool, F(unlink_each_loop), .def = "0",
	  .flags = OPTF_BARE, .help = "remove the files before each loop after the first; writes make them again" },
	[OPT_VERIFY] = { .name = "verify", .kind = &opt_kind_enum, F(verify), .enums = verify_enums, .def = "0",
	  .help = "checksum written blocks and check them" },
	[OPT_VERIFY_ASYNC] = { .name = "verify_async", .kind = &opt_kind_uint, F(verify_async), .def = "0",
	  .max = 64, .help = "threads that check the blocks read back (0: the job's own)" },
	[OPT_VERIFY_ASYNC_CPUS] = { .name = "verify_async_cpus", .kind = &opt_kind_cpu_list, F(verify_async_cpus),
	  .help = "CPUs the verify_async threads may run on: 0,5,8-15" },
	[OPT_VERIFY_BACKLOG] = { .name = "verify_backlog", .kind = &opt_kind_uint, F(verify_backlog), .def = "0",
	  .max = 1u << 24, .help = "read back and check every N writes; 0: all at the end" },
	[OPT_VERIFY_BACKLOG_BATCH] = { .name = "verify_backlog_batch", .kind = &opt_kind_uint, F(verify_backlog_batch),
	  .def = "0", .max = 1u << 24,
	  .help = "blocks read back per verify_backlog pass; 0: verify_backlog's count" },
	[OPT_VERIFY_DUMP] = { .name = "verify_dump", .kind = &opt_kind_bool, F(verify_dump), .def = "0",
	  .help = "dump a block that fails verify, as read and as expected, into files" },
	[OPT_VERIFY_FATAL] = { .name = "verify_fatal", .kind = &opt_kind_bool, F(verify_fatal), .def = "0",
	  .help = "fio: stop at a block's first bad chunk (a bad block ends the job anyway)" },
	[OPT_VERIFY_INTERVAL] = { .name = "verify_interval", .kind = &opt_kind_uint, F(verify_interval),
	  .min = 2 * 48, .help = "a verify header every N bytes of a block (default: the block)" },
	[OPT_VERIFY_OFFSET] = { .name = "verify_offset", .kind = &opt_kind_uint, F(verify_offset), .def = "0",
	  .help = "put each verify header N bytes into its block, swapped with the data there" },
	[OPT_VERIFY_ONLY] = { .name = "verify_only", .kind = &opt_kind_bool, F(verify_only), .def = "0",
	  .flags = OPTF_BARE, .help = "do not write: read back and check what the job would write" },
	[OPT_VERIFY_PATTERN] = { .name = "verify_pattern", .kind = &opt_kind_pattern, F(verify_pattern),
	  .help = "bytes for verify=pattern: 0xhex, \"text\", decimal, %o (the offset)" },
	[OPT_VERIFY_STATE_LOAD] = { .name = "verify_state_load", .kind = &opt_kind_bool, F(verify_state_load),
	  .def = "0", .help = "verify_only: read back only as many writes as verify_state_save saved" },
	[OPT_VERIFY_STATE_SAVE] = { .name = "verify_state_save", .kind = &opt_kind_bool, F(verify_state_save),
	  .def = "0", .help = "save how many writes the job issued, in local-JOB-N-verify.state" },
	[OPT_WAIT_FOR] = { .name = "wait_for", .kind = &opt_kind_str, F(wait_for),
	  .help = "start after the named earlier job ends" },
	[OPT_WITNESS] = { .name = "witness", .kind = &opt_kind_str, F(witness),
	  .help = "iogauge crash: send acknowledgements to iogauge witness at HOST:PORT/RUN, not to the parent" },
	[OPT_WRITE_BARRIER] = { .name = "write_barrier", .kind = &opt_kind_uint, F(write_barrier), .def = "0",
	  .help = "fio's barrier every N writes: its libpmem engine's alone; no engine here has one" },
	[OPT_WRITE_BW_LOG] = { .name = "write_bw_log", .kind = &opt_kind_str, F(write_bw_log), .flags = OPTF_BARE,
	  .help = "log bandwidth to PREFIX_bw.N.log" },
	[OPT_WRITE_HINT] = { .name = "write_hint", .kind = &opt_kind_enum, F(write_hint), .enums = write_hint_enums,
	  .help = "the files' expected data life: none, short, medium, long, extreme" },
	[OPT_WRITE_HIST_LOG] = { .name = "write_hist_log", .kind = &opt_kind_str, F(write_hist_log), .flags = OPTF_BARE,
	  .help = "log latency histograms to PREFIX_clat_hist.N.log" },
	[OPT_WRITE_IOLOG] = { .name = "write_iolog", .kind = &opt_kind_str, F(write_iolog),
	  .help = "append each I/O issued to FILE in fio's iolog format (version 3)" },
	[OPT_WRITE_IOPS_LOG] = { .name = "write_iops_log", .kind = &opt_kind_str, F(write_iops_log), .flags = OPTF_BARE,
	  .help = "log IOPS to PREFIX_iops.N.log" },
	[OPT_WRITE_LAT_LOG] = { .name = "write_lat_log", .kind = &opt_kind_str, F(write_lat_log), .flags = OPTF_BARE,
	  .help = "log latencies to PREFIX_{slat,clat,lat}.N.log" },
	[OPT_ZERO_BUFFERS] = { .name = "zero_buffers", .kind = &opt_kind_bool, F(zero_buffers), .def = "0",
	  .flags = OPTF_BARE, .help = "fill write buffers with zeros" },
	[OPT_ZONEMODE] = { .name = "zonemode", .kind = &opt_kind_enum, F(zonemode), .enums = zonemode_enums,
	  .def = "none", .help = "none, or strided: zonesize bytes in each zone of zonerange, zoneskip apart" },
	[OPT_ZONERANGE] = { .name = "zonerange", .kind = &opt_kind_size, F(zonerange), .def = "0",
	  .help = "span of a zone (0: zonesize)" },
	[OPT_ZONESIZE] = { .name = "zonesize", .kind = &opt_kind_size, F(zonesize), .def = "0",
	  .help = "bytes of I/O in a zone before moving to the next (sets zonemode=strided)" },
	[OPT_ZONESKIP] = { .name = "zoneskip", .kind = &opt_kind_size, F(zoneskip), .def = "0",
	  .help = "bytes skipped after each zone's span" },
};
/* clang-format on */

/* An engine's rows, and how many. */
static unsigned engine_rows(const struct engine_ops *ops)
{
	unsigned n = 0;

	while (ops->options && ops->options[n].name)
		n++;
	return n;
}

unsigned opt_rows(void)
{
	const struct engine_ops *ops;
	unsigned i, n = OPT_NR;

	for (i = 0; (ops = engine_entry(i)); i++)
		n += engine_rows(ops);
	return n;
}

const struct opt_def *opt_at(unsigned i)
{
	const struct engine_ops *ops;
	unsigned k, n;

	if (i < OPT_NR)
		return &opt_table[i];
	i -= OPT_NR;
	for (k = 0; (ops = engine_entry(k)); k++) {
		n = engine_rows(ops);
		if (i < n)
			return &ops->options[i];
		i -= n;
	}
	return NULL;
}

unsigned opt_index(const struct opt_def *o)
{
	const struct engine_ops *ops;
	unsigned k, i = OPT_NR;

	if (!o->engine)
		return (unsigned)(o - opt_table);
	for (k = 0; (ops = engine_entry(k)) && ops != o->engine; k++)
		i += engine_rows(ops);
	return i + (unsigned)(o - o->engine->options);
}

void *opt_field(const struct opt_def *o, const struct job *job, size_t off)
{
	char *base =
		o->engine ? (char *)job->eng_opts + engine_opts_offset(o->engine) : (char *)job;

	return base + off;
}

const struct opt_def *opt_find(const char *name)
{
	const struct engine_ops *ops;
	unsigned lo = 0, hi = OPT_NR, i, k;

	/* The names are sorted (test_options checks): halve; the aliases
	 * are not, and few. */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = strcmp(opt_table[mid].name, name);

		if (!c)
			return &opt_table[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = 0; i < OPT_NR; i++)
		if (opt_table[i].alias && !strcmp(opt_table[i].alias, name))
			return &opt_table[i];
	for (k = 0; (ops = engine_entry(k)); k++)
		for (i = 0; ops->options && ops->options[i].name; i++)
			if (!strcmp(ops->options[i].name, name))
				return &ops->options[i];
	return NULL;
}

const char *opt_enum_name(enum opt_id id, int value)
{
	const struct opt_enum *e;

	for (e = opt_table[id].enums; e && e->name; e++)
		if (e->value == value)
			return e->name;
	return "?";
}

const char *opt_suggest(const char *name)
{
	struct util_nearest n = UTIL_NEAREST_INIT;
	unsigned i;

	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);

		util_nearest_offer(&n, name, o->name);
		if (o->alias)
			util_nearest_offer(&n, name, o->alias);
	}
	return n.best;
}

int opt_apply(const struct opt_def *o, struct job *job, const char *val, bool bare, char **cause)
{
	if (bare) {
		if (o->kind == &opt_kind_bool && (o->flags & OPTF_BARE))
			val = "1";
		else if (o->flags & OPTF_BARE)
			val = "";
		else {
			*cause = xasprintf("'%s' needs a value (%s=VALUE)", o->name, o->name);
			return -EINVAL;
		}
	}
	return o->kind->parse(o, job, val, cause);
}

void opt_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	o->kind->format(o, job, sb);
}

void origin_format(const struct origin *o, const char *optname, struct strbuf *sb)
{
	switch (o->kind) {
	case ORIGIN_DEFAULT:
		strbuf_adds(sb, "default");
		break;
	case ORIGIN_FILE:
		strbuf_adds(sb, o->file);
		strbuf_addc(sb, ':');
		strbuf_addu(sb, o->line);
		break;
	case ORIGIN_CMDLINE:
		strbuf_addf(sb, "--%s", optname);
		break;
	case ORIGIN_SET:
		strbuf_addf(sb, "--set %s", optname);
		break;
	}
}
