/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kmemtrace binary ABI as read from /sys/kernel/debug/kmemtrace/cpu<N>,
 * and the pure parser over it: framing, decoding, feature trailers,
 * validation, and the merge of the per-CPU streams by sequence number.
 *
 * Nothing here makes a system call, so the host tests and the fuzzer run
 * the same code as the tool.
 */
#ifndef KMT_ABI_H
#define KMT_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ABI major version this reader understands (debugfs abi_version). */
#define KMT_ABI_VERSION		1

/*
 * Wire layout, native endian, packed.  Core, 24 bytes:
 *	u8 event_id, u8 type_id, u16 event_size, s32 seq,
 *	u64 call_site, u64 ptr
 * Alloc part (event_id 0), 24 more bytes:
 *	u64 bytes_req, u64 bytes_alloc, u32 gfp_flags, s32 target
 * Then feature trailers up to event_size:
 *	u16 feature_size (with its 3-byte header), u8 feature_id, data
 */
#define KMT_CORE_SIZE		24
#define KMT_ALLOC_SIZE		48
#define KMT_TRAILER_HDR		3
/* event_size is a u16, so a 64 KiB read buffer always holds a record. */
#define KMT_MAX_RECORD		65535

#define KMT_OFF_EVENT_ID	0
#define KMT_OFF_TYPE_ID		1
#define KMT_OFF_SIZE		2
#define KMT_OFF_SEQ		4
#define KMT_OFF_CALL_SITE	8
#define KMT_OFF_PTR		16
#define KMT_OFF_BYTES_REQ	24
#define KMT_OFF_BYTES_ALLOC	32
#define KMT_OFF_GFP		40
#define KMT_OFF_TARGET		44

enum kmt_event_id {
	KMT_EVENT_ALLOC	= 0,
	KMT_EVENT_FREE	= 1,
	KMT_NR_EVENTS
};

enum kmt_type_id {
	KMT_TYPE_KMALLOC	= 0,	/* kmalloc / kfree */
	KMT_TYPE_CACHE		= 1,	/* kmem_cache_alloc / kmem_cache_free */
	KMT_TYPE_PAGES		= 2,	/* __get_free_pages and friends */
	KMT_NR_TYPES
};

/* Lowest x86_64 kernel address: call sites and non-NULL ptrs are above. */
#define KMT_KERNEL_MIN		0xffff800000000000ULL

/* Why kmt_next() called a record malformed (struct kmt_record.err). */
enum kmt_err {
	KMT_E_NONE = 0,
	KMT_E_SHORT,		/* event_size < 24: framing is lost */
	KMT_E_ALLOC_SHORT,	/* alloc record with event_size < 48 */
	KMT_E_TRAILER,		/* trailer size < 3 or past event_size */
};

/*
 * One decoded record.  @trailers points into the caller's buffer, which
 * must outlive the record.  Records with an unknown event or type id have
 * only their core decoded (@unknown) and no trailers walked.
 */
struct kmt_record {
	uint8_t		event_id;
	uint8_t		type_id;
	uint16_t	size;
	int32_t		seq;
	uint64_t	call_site;
	uint64_t	ptr;
	/* Alloc part; zero for frees. */
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint32_t	gfp_flags;
	int32_t		target;
	/* Bytes after the mandatory part, and how many trailers they hold. */
	const uint8_t	*trailers;
	uint16_t	trailers_len;
	uint16_t	nr_trailers;
	bool		unknown;
	uint8_t		err;		/* enum kmt_err */
	int		cpu;		/* its channel; set by the caller */
};

struct kmt_trailer {
	uint8_t		id;
	uint16_t	size;		/* including the 3-byte header */
	const uint8_t	*data;
	uint16_t	data_len;
};

enum kmt_status {
	KMT_OK = 0,		/* a record; skip @consumed bytes */
	KMT_INCOMPLETE,		/* need more bytes; nothing consumed */
	KMT_MALFORMED,		/* see rec->err; @consumed 0 if framing lost */
};

/*
 * Frame and decode the record at the start of @buf.  On KMT_OK and on a
 * KMT_MALFORMED record whose event_size is still usable, *@consumed is
 * event_size and the caller may go on after it; on KMT_E_SHORT it is 0
 * and the rest of the stream cannot be framed.  A record cut off by the
 * end of @buf is KMT_INCOMPLETE, so a caller can keep those bytes and
 * retry once more arrived.
 */
enum kmt_status kmt_next(const void *buf, size_t len, struct kmt_record *rec,
			 size_t *consumed);

/*
 * Walk @rec's trailers: start with *@off = 0.  Returns 1 with @t filled,
 * 0 at the end, -1 on a malformed trailer.
 */
int kmt_trailer_next(const struct kmt_record *rec, size_t *off,
		     struct kmt_trailer *t);

/* Encode @rec's core (and alloc part) into @buf; returns bytes or 0. */
size_t kmt_encode(const struct kmt_record *rec, void *buf, size_t len);

/* Validation rules, as bits of kmt_validate()'s result. */
enum kmt_violation {
	KMT_V_EVENT_ID		= 1 << 0,	/* unknown event id */
	KMT_V_TYPE_ID		= 1 << 1,	/* unknown type id */
	KMT_V_SIZE		= 1 << 2,	/* event_size too small */
	KMT_V_TRAILER		= 1 << 3,	/* a malformed trailer */
	KMT_V_CALL_SITE		= 1 << 4,	/* call_site not kernel text */
	KMT_V_PTR		= 1 << 5,	/* ptr not NULL nor kernel */
	KMT_V_BYTES_REQ		= 1 << 6,	/* alloc with bytes_req == 0 */
	KMT_V_BYTES_ALLOC	= 1 << 7,	/* bytes_alloc < bytes_req */
	KMT_V_NR		= 8
};

/* The ids are not errors by themselves: unknown records are skipped. */
#define KMT_V_UNKNOWN_IDS	(KMT_V_EVENT_ID | KMT_V_TYPE_ID)

/* Every rule @rec breaks (0 if none); unknown ids skip the field rules. */
unsigned int kmt_validate(const struct kmt_record *rec);
const char *kmt_violation_name(unsigned int bit);
const char *kmt_err_name(unsigned int err);
const char *kmt_type_name(unsigned int type_id);

/* (int32_t)(a - b) without signed overflow. */
static inline int32_t kmt_seq_diff(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b);
}

/* One CPU's records, in the order they were read. */
struct kmt_stream {
	const struct kmt_record	*recs;
	size_t			nr;
};

/*
 * A merged record: @key is its seq unwrapped to 64 bits, so the order
 * stays right across any number of wraparounds as long as neighbouring
 * records of one CPU, and the first records of the CPUs, are less than
 * 2^31 numbers apart.
 */
struct kmt_merged {
	const struct kmt_record	*rec;
	int64_t			key;
};

/*
 * Merge @nr streams into one array ordered by key (ties keep stream,
 * then read order).  *@out is malloc()ed; returns 0 or -ENOMEM.
 */
int kmt_merge(const struct kmt_stream *streams, size_t nr,
	      struct kmt_merged **out, size_t *nr_out);

struct kmt_seq_stats {
	size_t		records;
	uint64_t	missing;	/* seqs inside the range not read */
	uint64_t	duplicates;	/* records whose seq was seen before */
	int32_t		first;		/* seq of the first and last record */
	int32_t		last;
	int64_t		first_key;
	int64_t		last_key;
};

/* Called for each hole (@count numbers after @after) and each repeat. */
struct kmt_seq_ops {
	void	(*hole)(void *ctx, const struct kmt_merged *after,
			uint64_t count);
	void	(*dup)(void *ctx, const struct kmt_merged *first,
		       const struct kmt_merged *again);
	void	*ctx;
};

void kmt_seq_scan(const struct kmt_merged *m, size_t nr,
		  struct kmt_seq_stats *st, const struct kmt_seq_ops *ops);

/*
 * debugfs abi_version text: 0 if this reader can read it (its major is
 * at most KMT_ABI_VERSION), 1 if newer, -1 if it is not a version.
 * *@major gets the leading integer (saturated) when there is one.
 */
int kmt_abi_check(const char *text, size_t len, unsigned long *major);

#endif /* KMT_ABI_H */
