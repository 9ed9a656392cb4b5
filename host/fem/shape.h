/* Reference shapes: segment [-1,1]; triangle (-1,-1),(1,-1),(-1,1);
 * quadrilateral [-1,1]^2; tetrahedron (-1,-1,-1),(1,-1,-1),(-1,1,-1),(-1,-1,1);
 * hexahedron [-1,1]^3.  Measures: 2, 2, 4, 4/3, 8. */
#ifndef HDGCL_HOST_SHAPE_H
#define HDGCL_HOST_SHAPE_H

typedef enum hdgcl_shape {
  HDGCL_SHAPE_SEGMENT = 0,
  HDGCL_SHAPE_TRIANGLE,
  HDGCL_SHAPE_QUADRILATERAL,
  HDGCL_SHAPE_TETRAHEDRON,
  HDGCL_SHAPE_HEXAHEDRON
} hdgcl_shape;

/* An invalid shape value gives dimension 0, measure 0, name "unknown shape". */
int hdgcl_shape_dim(hdgcl_shape shape);
double hdgcl_shape_measure(hdgcl_shape shape);
const char *hdgcl_shape_name(hdgcl_shape shape);

#endif
