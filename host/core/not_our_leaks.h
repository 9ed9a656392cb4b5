/* Open MPI keeps (or loses, in plugins it unloads before the leak check, so
 * that no stack names them) allocations made by MPI_Init and MPI_Finalize.
 * They are not ours: LeakSanitizer ignores what is allocated between
 * NOT_OUR_LEAKS_BEGIN and NOT_OUR_LEAKS_END (__lsan_disable/__lsan_enable),
 * and everything else stays checked.  No-ops without AddressSanitizer. */
#ifndef HDGCL_HOST_NOT_OUR_LEAKS_H
#define HDGCL_HOST_NOT_OUR_LEAKS_H

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#define NOT_OUR_LEAKS_BEGIN() __lsan_disable()
#define NOT_OUR_LEAKS_END() __lsan_enable()
#else
#define NOT_OUR_LEAKS_BEGIN() ((void)0)
#define NOT_OUR_LEAKS_END() ((void)0)
#endif

#endif
