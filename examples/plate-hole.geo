// Kirsch's problem: a square plate 2L x 2L with a central circular hole of radius
// a, pulled along x by a uniform traction T on x = +-L (examples/plate-hole.json).
// By symmetry only the quarter x > 0, y > 0 is meshed: rollers (symmetry
// conditions) on the cut edges "left" (x = 0: ux = 0) and "bottom" (y = 0: uy = 0),
// the traction on "right" (x = L), free "top" (y = L) and "hole" (r = a); physical
// surface "plate". For a small hole in a large plate the hoop stress at the top of
// the hole, (0, a), is 3 T (Kirsch 1898); here a / L = 0.1.
//
// Regenerate the committed mesh (Gmsh >= 4.8, e.g. Debian's gmsh package):
//   gmsh -2 -format msh41 -o examples/plate-hole.msh examples/plate-hole.geo
// Only straight-sided (first-order) triangles are read, so keep the default
// Mesh.ElementOrder = 1. A finer mesh: add -clscale 0.5.
a = 1;
L = 10;
h_hole = 0.1;  // element size on the hole (16 segments on the quarter circle)
h_far = 1.5;   // ... at the far corners
Point(1) = {0, 0, 0, h_hole};
Point(2) = {a, 0, 0, h_hole};
Point(3) = {L, 0, 0, h_far};
Point(4) = {L, L, 0, h_far};
Point(5) = {0, L, 0, h_far};
Point(6) = {0, a, 0, h_hole};
Line(1) = {2, 3};
Line(2) = {3, 4};
Line(3) = {4, 5};
Line(4) = {5, 6};
Circle(5) = {6, 1, 2};
Curve Loop(1) = {1, 2, 3, 4, 5};
Plane Surface(1) = {1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Curve("hole") = {5};
Physical Surface("plate") = {1};
