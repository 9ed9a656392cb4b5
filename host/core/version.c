#include "hdgcl/hdgcl.h"

const char *hdgcl_version(void) { return HDGCL_VERSION_STRING; }
