// Lab 6: the cross-section of a coaxial cable, the annulus r1 < r < r2 between the
// inner conductor (physical curve "inner", held at u = 1) and the shield ("outer",
// u = 0), physical surface "dielectric" (docs/labs/lab6/coax.json). The capacitance
// per unit length (in units of the permittivity) is the flux through the inner
// conductor, C = 2 pi / ln(r2 / r1) = 9.0647 for r2 / r1 = 2.
//
// Meshes (Gmsh >= 4.8; hdgcl reads straight-sided triangles, so keep the default
// Mesh.ElementOrder = 1): h = 0.3 on the inner circle, 0.6 on the outer one,
//   gmsh -2 -format msh41 -o coax-1.msh coax.geo                 (h as above)
//   gmsh -2 -format msh41 -clscale 0.5 -o coax-2.msh coax.geo    (h / 2)
//   gmsh -2 -format msh41 -clscale 0.25 -o coax-3.msh coax.geo   (h / 4)
r1 = 1;
r2 = 2;
h1 = 0.3;
h2 = 0.6;
Point(1) = {0, 0, 0};
Point(2) = {r1, 0, 0, h1};
Point(3) = {0, r1, 0, h1};
Point(4) = {-r1, 0, 0, h1};
Point(5) = {0, -r1, 0, h1};
Point(6) = {r2, 0, 0, h2};
Point(7) = {0, r2, 0, h2};
Point(8) = {-r2, 0, 0, h2};
Point(9) = {0, -r2, 0, h2};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Circle(5) = {6, 1, 7};
Circle(6) = {7, 1, 8};
Circle(7) = {8, 1, 9};
Circle(8) = {9, 1, 6};
Curve Loop(1) = {5, 6, 7, 8};
Curve Loop(2) = {1, 2, 3, 4};
Plane Surface(1) = {1, 2};
Physical Curve("inner") = {1, 2, 3, 4};
Physical Curve("outer") = {5, 6, 7, 8};
Physical Surface("dielectric") = {1};
