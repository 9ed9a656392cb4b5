// The annulus 1 < r < 2 for tests/test_gmsh_curved.c: physical curves 1 inner, 2 outer.
// gmsh -2 -order 2 annulus.geo (setNumber "quads" 1: quadrangles)
If (!Exists(quads))
  quads = 0;
EndIf
SetFactory("OpenCASCADE");
Disk(1) = {0, 0, 0, 2};
Disk(2) = {0, 0, 0, 1};
BooleanDifference(3) = {Surface{1}; Delete;}{Surface{2}; Delete;};
Physical Curve("inner", 1) = {2};
Physical Curve("outer", 2) = {1};
Physical Surface("ring", 1) = {3};
Mesh.MeshSizeMax = 0.7;
If (quads)
  Mesh.RecombineAll = 1;
EndIf
