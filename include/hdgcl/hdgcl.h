/* hdgcl: portable OpenCL hybridizable discontinuous Galerkin solver.
 * Umbrella header of the public C API.  Every call returns an hdgcl_status
 * (0 on success); objects come in create/destroy pairs. */
#ifndef HDGCL_HDGCL_H
#define HDGCL_HDGCL_H

#include "hdgcl/device.h"
#include "hdgcl/mesh.h"
#include "hdgcl/options.h"
#include "hdgcl/problem.h"
#include "hdgcl/solver.h"
#include "hdgcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Library version, e.g. "0.1.0". */
const char *hdgcl_version(void);

#ifdef __cplusplus
}
#endif
#endif
