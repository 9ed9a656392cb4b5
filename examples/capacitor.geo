// Concentric-sphere capacitor: the shell 1 < r < 2 (examples/capacitor.json).
// Physical surfaces "inner" (r = 1) and "outer" (r = 2), physical volume "shell".
// Exact capacitance C = 4 pi r1 r2 / (r2 - r1) = 8 pi.
//
// Regenerate the committed mesh (Gmsh >= 4.8, e.g. Debian's gmsh package):
//   gmsh -3 -format msh41 -o examples/capacitor.msh examples/capacitor.geo
// Only straight-sided (first-order) tetrahedra are read, so keep the default
// Mesh.ElementOrder = 1. A finer mesh: add -clscale 0.5.
SetFactory("OpenCASCADE");
r1 = 1;
r2 = 2;
Sphere(1) = {0, 0, 0, r2};
Sphere(2) = {0, 0, 0, r1};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };

eps = 1e-3;
inner() = Surface In BoundingBox{-r1 - eps, -r1 - eps, -r1 - eps, r1 + eps, r1 + eps, r1 + eps};
all() = Boundary{ Volume{3}; };
outer() = all();
outer() -= inner();
Physical Surface("inner") = {inner()};
Physical Surface("outer") = {outer()};
Physical Volume("shell") = {3};

// Element size grows with r: 0.25 on the inner sphere, 0.5 on the outer one
// (the inner sphere's polyhedral error weighs 4x the outer's in C).
Field[1] = MathEval;
Field[1].F = "0.25 * Sqrt(x^2 + y^2 + z^2)";
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
