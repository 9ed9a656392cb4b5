// A square plate with a round hole, for the anisotropic diffusion example
// (examples/anisotropic.json): the square (-1, 1)^2 minus the disk of radius
// 0.3 at the origin.  Physical curves "outer" (the four sides) and "hole"
// (the circle), physical surface "plate".
//
// Regenerate the committed mesh (Gmsh >= 4.8, e.g. Debian's gmsh package):
//   gmsh -2 -format msh41 -o examples/anisotropic.msh examples/anisotropic.geo
// Straight-sided (first-order) triangles only: keep Mesh.ElementOrder = 1.
SetFactory("OpenCASCADE");
r = 0.3;
Rectangle(1) = {-1, -1, 0, 2, 2};
Disk(2) = {0, 0, 0, r};
BooleanDifference(3) = { Surface{1}; Delete; }{ Surface{2}; Delete; };

eps = 1e-3;
hole() = Curve In BoundingBox{-r - eps, -r - eps, -eps, r + eps, r + eps, eps};
all() = Boundary{ Surface{3}; };
outer() = all();
outer() -= hole();
Physical Curve("outer") = {outer()};
Physical Curve("hole") = {hole()};
Physical Surface("plate") = {3};

// Element size 0.2, 0.08 on the hole (a few hundred triangles).
Mesh.MeshSizeMax = 0.2;
MeshSize{ PointsOf{ Curve{hole()}; } } = 0.08;
