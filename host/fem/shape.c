/* Reference shapes: dimension, measure and name (see shape.h). */
#include "fem/shape.h"

int hdgcl_shape_dim(hdgcl_shape shape) {
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: return 1;
  case HDGCL_SHAPE_TRIANGLE:
  case HDGCL_SHAPE_QUADRILATERAL: return 2;
  case HDGCL_SHAPE_TETRAHEDRON:
  case HDGCL_SHAPE_HEXAHEDRON: return 3;
  }
  return 0;
}

double hdgcl_shape_measure(hdgcl_shape shape) {
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: return 2.0;
  case HDGCL_SHAPE_TRIANGLE: return 2.0;
  case HDGCL_SHAPE_QUADRILATERAL: return 4.0;
  case HDGCL_SHAPE_TETRAHEDRON: return 4.0 / 3.0;
  case HDGCL_SHAPE_HEXAHEDRON: return 8.0;
  }
  return 0.0;
}

const char *hdgcl_shape_name(hdgcl_shape shape) {
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: return "segment";
  case HDGCL_SHAPE_TRIANGLE: return "triangle";
  case HDGCL_SHAPE_QUADRILATERAL: return "quadrilateral";
  case HDGCL_SHAPE_TETRAHEDRON: return "tetrahedron";
  case HDGCL_SHAPE_HEXAHEDRON: return "hexahedron";
  }
  return "unknown shape";
}
