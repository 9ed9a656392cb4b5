// Paper 001's electrostatics domain (../shared/papers/001, eq. 28): the box
// (-10, 10)^3 minus a right circular cone of base radius R = 0.254 and height
// L = 1.27 at the origin, aligned with the x axis. The paper leaves open which
// end is at the origin; here the base's centre is (Gmsh's Cone convention) and
// the tip is at (L, 0, 0). Physical surfaces "cone" and "box", physical volume
// "air". examples/cone-in-box.json holds the cone at u = 1, the box at u = 0.
//
// Regenerate the committed mesh (Gmsh >= 4.8, e.g. Debian's gmsh package):
//   gmsh -3 -format msh41 -o examples/cone-in-box.msh examples/cone-in-box.geo
// The elements are first order (hdgcl reads straight-sided tetrahedra only),
// small (h0) at the cone, growing linearly with the distance d from it:
// h = h0 + g d, at most hmax. The paper's mesh has 104,429 tets; this one is
// coarse on purpose (a few thousand tets).
SetFactory("OpenCASCADE");
R = 0.254;
L = 1.27;
Box(1) = {-10, -10, -10, 20, 20, 20};
Cone(2) = {0, 0, 0, L, 0, 0, R, 0};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };

eps = 1e-3;
cone() = Surface In BoundingBox{-eps, -R - eps, -R - eps, L + eps, R + eps, R + eps};
all() = Boundary{ Volume{3}; };
box() = all();
box() -= cone();
Physical Surface("cone") = {cone()};
Physical Surface("box") = {box()};
Physical Volume("air") = {3};

h0 = 0.08;
g = 0.5;
hmax = 5;
Field[1] = Distance;
Field[1].SurfacesList = {cone()};
Field[2] = MathEval;
Field[2].F = Sprintf("Min(%g + %g * F1, %g)", h0, g, hmax);
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
