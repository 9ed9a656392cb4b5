"""ctypes declarations of the C API (include/hdgcl/*.h) and the error check.

The structs below mirror the C headers field by field; tests/test_solve.py
compares every field of the result against `hdgcl solve --json`, so a layout
that drifted from the header fails there.
"""
from __future__ import annotations

import ctypes
import os
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_double, c_int, c_int8,
                    c_int32, c_int64, c_size_t, c_uint, c_uint64, c_void_p)
from pathlib import Path

__all__ = ["lib", "Error", "check"]


class Error(RuntimeError):
    """A failure of the C library: `status` is its code name (e.g. "HDGCL_ERROR_MESH")
    and the message is hdgcl_last_error()'s one line."""

    def __init__(self, message: str, status: str = "HDGCL_ERROR_ARGUMENT"):
        super().__init__(message)
        self.status = status


# --- structs ---

class DeviceInfo(Structure):
    _fields_ = [("platform_index", c_int), ("device_index", c_int),
                ("platform", c_char * 128), ("vendor", c_char * 128), ("name", c_char * 128),
                ("version", c_char * 128), ("driver", c_char * 128),
                ("is_gpu", c_bool), ("is_cpu", c_bool),
                ("compute_units", c_uint), ("clock_mhz", c_uint),
                ("global_mem", c_uint64), ("local_mem", c_uint64), ("max_alloc", c_uint64),
                ("max_work_group", c_size_t), ("fp64", c_bool)]


class TagName(Structure):
    _fields_ = [("dim", c_int), ("tag", c_int32), ("name", c_char * 64)]


class MeshStruct(Structure):
    _fields_ = [("type", c_int), ("dim", c_int), ("verts_per_element", c_int),
                ("faces_per_element", c_int), ("verts_per_face", c_int),
                ("num_vertices", c_int32), ("coords", POINTER(c_double)),
                ("num_elements", c_int32), ("elem_verts", POINTER(c_int32)),
                ("elem_tags", POINTER(c_int32)),
                ("num_faces", c_int32), ("num_interior_faces", c_int32),
                ("face_verts", POINTER(c_int32)), ("face_elems", POINTER(c_int32)),
                ("face_local", POINTER(c_int8)), ("face_orient", POINTER(c_int8)),
                ("face_tags", POINTER(c_int32)), ("elem_faces", POINTER(c_int32)),
                ("elem_face_orient", POINTER(c_int8)),
                ("num_tag_names", c_int32), ("tag_names", POINTER(TagName)),
                ("geometry_order", c_int), ("nodes_per_element", c_int),
                ("elem_nodes", POINTER(c_double)),
                # mixed meshes (include/hdgcl/mesh.h): type ranges
                ("num_types", c_int), ("types", c_int * 4), ("type_first", c_int32 * 5)]


class StageStats(Structure):
    _fields_ = [("name", c_char_p), ("seconds", c_double), ("flops", c_double),
                ("bytes", c_double)]


class Output(Structure):
    _fields_ = [("label", c_char_p), ("names", c_char_p), ("num_values", c_int),
                ("values", c_double * 12)]


NUM_STAGES = 6

# void (*hdgcl_progress_fn)(void *data, const char *line)
PROGRESS_FN = ctypes.CFUNCTYPE(None, c_void_p, c_char_p)
# hdgcl_step_fn: (data, solver, step, time) -> status
STEP_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_int, c_double)


class MemoryUse(Structure):
    _fields_ = [("name", c_char_p), ("bytes", c_uint64)]


class Result(Structure):
    _fields_ = [("problem", c_char_p), ("device", c_char * 256), ("solver", c_char_p),
                ("precond", c_char_p), ("format", c_char_p), ("restart", c_int),
                ("cheb_degree", c_int), ("eig_min", c_double), ("eig_max", c_double),
                ("order", c_int), ("tau", c_double),
                ("num_elements", c_int64), ("num_faces", c_int64),
                ("num_unknown_faces", c_int64), ("element_dofs", c_int64),
                ("trace_dofs", c_int64), ("h", c_double), ("iterations", c_int),
                ("rtol", c_double), ("residual", c_double), ("history_length", c_int),
                ("history", POINTER(c_double)),
                ("l2_u", c_double), ("l2_q", c_double), ("l2_ustar", c_double),
                ("linf_u", c_double), ("norm_u", c_double), ("norm_q", c_double),
                ("precond_seconds", c_double), ("setup_seconds", c_double),
                ("total_seconds", c_double), ("stages", StageStats * NUM_STAGES),
                ("device_memory_high_water", c_uint64), ("chunk_elements", c_int64),
                ("num_chunks", c_int),
                ("local_invert", c_char_p), ("local_invert_wg", c_int),
                ("local_invert_source", c_char_p), ("local_schur", c_char_p),
                ("local_schur_source", c_char_p), ("local_schur_stage", c_int),
                ("local_schur_wg", c_int), ("local_element_wg", c_int),
                ("local_element_grid", c_int), ("local_element_source", c_char_p),
                ("local_gemm_z", c_char_p), ("local_gemm_z_source", c_char_p),
                ("local_gemm_k", c_char_p), ("local_gemm_k_source", c_char_p),
                ("l2_p", c_double), ("norm_p", c_double),
                ("tip_deflection", c_double), ("beam_deflection", c_double),
                ("mu_min", c_double), ("mu_max", c_double),
                ("lambda_min", c_double), ("lambda_max", c_double),
                ("postprocess", c_char_p), ("postprocess_wg", c_int),
                ("num_outputs", c_int), ("outputs", POINTER(Output)),
                ("ustar_check", c_double), ("ustar_retries", c_int),
                # transient problems (docs/time.md); NULL and 0 for steady ones
                ("scheme", c_char_p), ("time_steps", c_int), ("stage_solves", c_int),
                ("iterations_max", c_int), ("time_step", c_double), ("final_time", c_double),
                # Newton's method (docs/nonlinear.md); 0 and NULL for a linear solve
                ("newton_steps", c_int), ("newton_steps_all", c_int),
                ("newton_history", POINTER(c_double)), ("newton_iterations", POINTER(c_int)),
                ("newton_rtol", c_double),
                # element batches of a curved mesh on a device; 0 otherwise
                ("straight_elements", c_int64), ("curved_elements", c_int64),
                # pseudo-transient continuation (--ptc true); 0 and NaN without it
                ("ptc_steps", c_int), ("ptc_dt_first", c_double), ("ptc_dt_last", c_double),
                # Neo-Hookean load steps (docs/nonlinear.md section 11); 0, NULL, NaN otherwise
                ("load_steps", c_int), ("line_search_halvings", c_int),
                ("line_search_halvings_j", c_int), ("load_newton_steps", POINTER(c_int)),
                ("load_history", POINTER(c_double)), ("loaded_face_u", c_double * 3),
                # device memory at the high water by buffer name, largest first
                ("num_memory_uses", c_int), ("memory_uses", POINTER(MemoryUse))]


class ProblemInfo(Structure):
    _fields_ = [("name", c_char_p), ("description", c_char_p), ("dim", c_int),
                ("default_mesh", c_char_p)]


# --- the library ---

def _find_library() -> str:
    """$HDGCL_LIBRARY, else the libhdgcl.so installed beside this module."""
    env = os.environ.get("HDGCL_LIBRARY")
    if env:
        if not Path(env).is_file():
            raise ImportError(f"HDGCL_LIBRARY={env}: no such file")
        return env
    here = Path(__file__).resolve().parent
    for name in ("libhdgcl.so", "libhdgcl.dylib", "hdgcl.dll"):
        if (here / name).is_file():
            return str(here / name)
    raise ImportError(f"libhdgcl not found in {here} (install the package with pip, or set "
                      "HDGCL_LIBRARY to a built libhdgcl.so)")


lib = ctypes.CDLL(_find_library())

_P = POINTER
_prototypes = {
    # status.h, hdgcl.h
    "hdgcl_status_name": (c_char_p, [c_int]),
    "hdgcl_last_error": (c_char_p, []),
    "hdgcl_clear_error": (None, []),
    "hdgcl_version": (c_char_p, []),
    # device.h
    "hdgcl_device_list": (c_int, [_P(_P(DeviceInfo)), _P(c_int)]),
    "hdgcl_device_match": (c_int, [c_char_p, _P(DeviceInfo), c_int, _P(c_int)]),
    "hdgcl_context_create": (c_int, [c_char_p, c_void_p, _P(c_void_p)]),
    "hdgcl_context_destroy": (c_int, [_P(c_void_p)]),
    "hdgcl_context_info": (c_int, [c_void_p, _P(DeviceInfo)]),
    "hdgcl_context_is_reference": (c_bool, [c_void_p]),
    "hdgcl_context_set_progress": (c_int, [c_void_p, c_void_p, c_void_p]),
    # options.h
    "hdgcl_options_create": (c_int, [_P(c_void_p)]),
    "hdgcl_options_destroy": (c_int, [_P(c_void_p)]),
    "hdgcl_options_set": (c_int, [c_void_p, c_char_p, c_char_p]),
    "hdgcl_options_check_known": (c_int, [c_void_p, _P(_P(c_char_p))]),
    "hdgcl_options_check_unused": (c_int, [c_void_p]),
    # mesh.h
    "hdgcl_mesh_create_from_spec": (c_int, [c_char_p, _P(_P(MeshStruct))]),
    "hdgcl_mesh_read_gmsh": (c_int, [c_char_p, _P(_P(MeshStruct))]),
    "hdgcl_mesh_create_from_arrays": (c_int, [c_int, c_int32, _P(c_double), c_int32,
                                              _P(c_int32), _P(c_int32), c_int32, _P(c_int32),
                                              _P(c_int32), _P(_P(MeshStruct))]),
    "hdgcl_mesh_write_gmsh": (c_int, [_P(MeshStruct), c_char_p, c_int]),
    "hdgcl_mesh_write_gmsh_binary": (c_int, [_P(MeshStruct), c_char_p]),
    "hdgcl_mesh_set_tag_name": (c_int, [_P(MeshStruct), c_int, c_int32, c_char_p]),
    "hdgcl_mesh_destroy": (c_int, [_P(_P(MeshStruct))]),
    "hdgcl_element_type_name": (c_char_p, [c_int]),
    # problem.h
    "hdgcl_problem_count": (c_int, []),
    "hdgcl_problem_get": (_P(ProblemInfo), [c_int]),
    # solver.h
    "hdgcl_solver_create": (c_int, [c_void_p, _P(MeshStruct), c_void_p, _P(c_void_p)]),
    "hdgcl_solver_solve": (c_int, [c_void_p]),
    "hdgcl_solver_result": (c_int, [c_void_p, _P(_P(Result))]),
    "hdgcl_solver_solution": (c_int, [c_void_p, _P(_P(c_double)), _P(_P(c_double)),
                                      _P(_P(c_double)), _P(_P(c_double))]),
    "hdgcl_solver_pressure": (c_int, [c_void_p, _P(_P(c_double))]),
    "hdgcl_solver_materials": (c_int, [c_void_p, _P(_P(c_double)), _P(_P(c_double))]),
    "hdgcl_solver_matrix": (c_int, [c_void_p, _P(c_int), _P(c_int), _P(c_int),
                                    _P(_P(c_double)), _P(_P(c_int32)), _P(_P(c_double))]),
    "hdgcl_solver_export_matrix": (c_int, [c_void_p, c_char_p]),
    "hdgcl_solver_write_vtu": (c_int, [c_void_p, c_char_p, c_int]),
    "hdgcl_solver_destroy": (c_int, [_P(c_void_p)]),
    "hdgcl_solver_set_step_callback": (c_int, [c_void_p, STEP_FN, c_void_p]),
}
for _name, (_restype, _argtypes) in _prototypes.items():
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _argtypes


def check(status: int) -> None:
    """Raises Error with hdgcl_last_error()'s message unless status is HDGCL_SUCCESS."""
    if status != 0:
        message = (lib.hdgcl_last_error() or b"").decode("utf-8", "replace")
        name = (lib.hdgcl_status_name(status) or b"").decode()
        lib.hdgcl_clear_error()
        raise Error(message or name, name)


def text(b: bytes | None) -> str | None:
    return None if b is None else b.decode("utf-8", "replace")


def name_list(symbol: str) -> list[str]:
    """A NULL-terminated `const char *const NAME[]` of the library."""
    array = ctypes.cast(ctypes.addressof(c_char_p.in_dll(lib, symbol)), _P(c_char_p))
    names, i = [], 0
    while array[i] is not None:
        names.append(array[i].decode())
        i += 1
    return names


def encode(s: str | os.PathLike, what: str) -> bytes:
    """A Python string or path as the C string the library takes."""
    if isinstance(s, os.PathLike):
        s = os.fspath(s)
    if not isinstance(s, str):
        raise TypeError(f"{what}: expected a string or path, got {type(s).__name__}")
    if "\0" in s:
        raise ValueError(f"{what}: contains a NUL character")
    return s.encode("utf-8")
