// The unit cube, straight-sided, for tests/test_gmsh_curved.c: high-order nodes
// on straight edges, so each element's map is affine (tets) or trilinear (hexes).
If (!Exists(hexes))
  hexes = 0;
EndIf
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Physical Surface("sides", 1) = {1, 2, 3, 4, 5, 6};
Physical Volume("cube", 1) = {1};
Transfinite Curve{:} = 3;
Transfinite Surface{:};
Transfinite Volume{:};
If (hexes)
  Recombine Surface{:};
  Mesh.RecombineAll = 1;
EndIf
