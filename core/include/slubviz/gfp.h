/* gfp flags, with the kernel's bit meanings (include/linux/gfp_types.h).
 * Only the bits the model looks at are distinct; values are our own. */
#ifndef SLUBVIZ_GFP_H
#define SLUBVIZ_GFP_H

#include <stddef.h>
#include <stdint.h>

#define __GFP_DMA            0x00001u
#define __GFP_HIGHMEM        0x00002u
#define __GFP_DMA32          0x00004u
#define __GFP_MOVABLE        0x00008u
#define __GFP_RECLAIMABLE    0x00010u
#define __GFP_HIGH           0x00020u
#define __GFP_IO             0x00040u
#define __GFP_FS             0x00080u
#define __GFP_ZERO           0x00100u
#define __GFP_DIRECT_RECLAIM 0x00400u
#define __GFP_KSWAPD_RECLAIM 0x00800u
#define __GFP_WRITE          0x01000u
#define __GFP_NOWARN         0x02000u
#define __GFP_RETRY_MAYFAIL  0x04000u
#define __GFP_NOFAIL         0x08000u
#define __GFP_NORETRY        0x10000u
#define __GFP_MEMALLOC       0x20000u
#define __GFP_COMP           0x40000u
#define __GFP_NOMEMALLOC     0x80000u
#define __GFP_HARDWALL       0x100000u
#define __GFP_THISNODE       0x200000u
#define __GFP_ACCOUNT        0x400000u
#define __GFP_NO_OBJ_EXT     0x800000u

#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC    (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL    (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT    (__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)
#define GFP_NOIO      (__GFP_RECLAIM)
#define GFP_NOFS      (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER      (__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA       __GFP_DMA
#define GFP_DMA32     __GFP_DMA32

/* mempool_alloc()'s first attempt: the caller's flags without direct reclaim
 * and IO, plus NOMEMALLOC|NORETRY|NOWARN (mm/mempool.c). */
static inline uint32_t svz_gfp_mempool_first(uint32_t gfp)
{
	return (gfp & ~(__GFP_DIRECT_RECLAIM | __GFP_IO)) | __GFP_NOMEMALLOC |
	       __GFP_NORETRY | __GFP_NOWARN;
}

/* gfpflags_allow_blocking(): direct reclaim allowed. */
static inline int svz_gfp_allow_blocking(uint32_t gfp) { return !!(gfp & __GFP_DIRECT_RECLAIM); }
/* gfpflags_allow_spinning(): any reclaim bit set (false only for
 * kmalloc_nolock()-style contexts). */
static inline int svz_gfp_allow_spinning(uint32_t gfp) { return !!(gfp & __GFP_RECLAIM); }

/* Parse "GFP_KERNEL|__GFP_ZERO", "mempool(GFP_NOIO)", "0" ...
 * Names are the kernel's. Returns 0 or -1 with the offending name in err. */
int svz_gfp_parse(const char *s, uint32_t *out, char *err, size_t errlen);
/* Kernel-style rendering, as ftrace prints gfp_flags (e.g. "GFP_KERNEL|__GFP_ZERO"). */
void svz_gfp_format(uint32_t gfp, char *buf, size_t len);

#endif
