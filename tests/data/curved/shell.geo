// The spherical shell 1 < r < 2 (tests/test_gmsh_curved.c): physical surfaces 1 inner, 2 outer.
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 2};
Sphere(2) = {0, 0, 0, 1};
BooleanDifference(3) = {Volume{1}; Delete;}{Volume{2}; Delete;};
Physical Surface("inner", 1) = {2};
Physical Surface("outer", 2) = {1};
Physical Volume("shell", 1) = {3};
Mesh.MeshSizeMax = 2.5;
Mesh.MeshSizeMin = 1.5;
