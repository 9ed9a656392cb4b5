"""hdgcl from Python: the HDG solver's C library through ctypes.

    import hdgcl
    hdgcl.devices()                                   # OpenCL devices, as dicts
    mesh = hdgcl.Mesh.from_spec("square:16")          # or read_gmsh, from_arrays, from_meshio
    s = hdgcl.solve(mesh, order=3, precond="jacobi")  # options by the CLI's names
    s.result["errors"]["l2_u"], s.u.shape             # the --json dict, numpy arrays
    A, b = s.matrix()                                 # scipy.sparse trace system

docs/python.md describes the whole package.  Failures of the library raise hdgcl.Error
with its one-line message.
"""
from . import plot  # matplotlib is imported by the plot functions, not here
from ._lib import Error
from ._mesh import Mesh
from ._solve import (CONTEXT_OPTIONS, SOLVER_OPTIONS, Context, Solver, convergence, devices,
                     problems, refine_spec, solve, version)

__version__ = version()
__all__ = ["Error", "Mesh", "Context", "Solver", "solve", "convergence", "devices", "problems",
           "refine_spec", "version", "SOLVER_OPTIONS", "CONTEXT_OPTIONS", "plot"]
