"""Devices, contexts, options and the solver."""
from __future__ import annotations

import ctypes
import math
import os
import re
import weakref
from ctypes import POINTER, byref, c_char_p, c_double, c_int, c_int32, c_void_p
from typing import Any, Mapping

import numpy as np

from ._lib import (PROGRESS_FN, STEP_FN, DeviceInfo, Error, Result, check, encode, lib, name_list,
                   text)
from ._mesh import Mesh

SOLVER_OPTIONS = name_list("hdgcl_solver_options")
CONTEXT_OPTIONS = name_list("hdgcl_context_options")
_libc_free = ctypes.CDLL(None).free
_libc_free.argtypes = [c_void_p]
_libc_free.restype = None
_REFERENCE_MEASURE = {"triangle": 2.0, "quadrilateral": 4.0, "tetrahedron": 4.0 / 3.0,
                      "hexahedron": 8.0}


def version() -> str:
    return text(lib.hdgcl_version())


def _device_dict(d: DeviceInfo) -> dict[str, Any]:
    return {"index": f"{d.platform_index}:{d.device_index}", "platform": text(d.platform),
            "vendor": text(d.vendor), "name": text(d.name), "version": text(d.version),
            "driver": text(d.driver),
            "type": "gpu" if d.is_gpu else "cpu" if d.is_cpu else "other",
            "compute_units": d.compute_units, "clock_mhz": d.clock_mhz,
            "global_mem": d.global_mem, "local_mem": d.local_mem, "max_alloc": d.max_alloc,
            "max_work_group": d.max_work_group, "fp64": bool(d.fp64)}


def devices() -> list[dict[str, Any]]:
    """Every OpenCL device of every platform (hdgcl devices), as dicts; "index" is the
    "P:D" that device="P:D" selects.  [] when there is no OpenCL platform."""
    listing = POINTER(DeviceInfo)()
    count = c_int()
    check(lib.hdgcl_device_list(byref(listing), byref(count)))
    try:
        return [_device_dict(listing[i]) for i in range(count.value)]
    finally:
        if listing:
            _libc_free(ctypes.cast(listing, c_void_p))


def problems() -> list[dict[str, Any]]:
    """The built-in problems: name, description, dim (0: 2D and 3D), default_mesh."""
    out = []
    for i in range(lib.hdgcl_problem_count()):
        p = lib.hdgcl_problem_get(i).contents
        out.append({"name": text(p.name), "description": text(p.description), "dim": p.dim,
                    "default_mesh": text(p.default_mesh)})
    return out


def _option_text(key: str, value: Any) -> str:
    """A Python value as the option's text: True/False -> "true"/"false", floats with
    every digit (repr reads back as the same double), str as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"option {key}: expected a bool, number or string, got "
                    f"{type(value).__name__}")


class _Options:
    """An hdgcl_options database holding key/value pairs."""

    def __init__(self, items: Mapping[str, Any]):
        self.handle = c_void_p()
        check(lib.hdgcl_options_create(byref(self.handle)))
        for key, value in items.items():
            check(lib.hdgcl_options_set(self.handle, encode(key, "option name"),
                                        encode(_option_text(key, value), f"option {key}")))

    def close(self) -> None:
        if self.handle:
            lib.hdgcl_options_destroy(byref(self.handle))

    def __del__(self) -> None:
        self.close()


def _normalise(options: Mapping[str, Any]) -> dict[str, Any]:
    """kwargs (order=3, cheb_degree=4) to the CLI's names (order, cheb-degree); None
    values are left out (the default)."""
    out = {}
    for key, value in options.items():
        if not isinstance(key, str):
            raise TypeError(f"option names are strings, got {key!r}")
        if value is None:
            continue
        out[key.replace("_", "-")] = value
    return out


def _split(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(context options, solver options); an unknown name raises hdgcl.Error from the
    library's own check ("unknown option --foo")."""
    opts = _Options(options)
    lists = (POINTER(c_char_p) * 3)()
    lists[0] = (c_char_p * (len(SOLVER_OPTIONS) + 1))(*[s.encode() for s in SOLVER_OPTIONS],
                                                       None)
    lists[1] = (c_char_p * (len(CONTEXT_OPTIONS) + 1))(*[s.encode() for s in CONTEXT_OPTIONS],
                                                        None)
    lists[2] = None
    try:
        check(lib.hdgcl_options_check_known(opts.handle, lists))
    finally:
        opts.close()
    context = {k: v for k, v in options.items() if k in CONTEXT_OPTIONS}
    return context, {k: v for k, v in options.items() if k not in CONTEXT_OPTIONS}


class Context:
    """One compute device (hdgcl_context_create): device is "auto" (default, or
    $HDGCL_DEVICE), "gpu", "cpu", "ref", a vendor or platform name, or "P:D".  Options:
    no_cache, cache_dir, verbose, profile, max_device_memory.  progress: a function
    called with a one-line status during the long steps (kernel compilation on a cold
    cache, the timed trials, the Krylov iterations), e.g. print."""

    def __init__(self, device: str | None = None, progress: Any = None, **options: Any):
        opts = _normalise(options)
        unknown = [k for k in opts if k not in CONTEXT_OPTIONS]
        if unknown:
            raise Error(f"unknown option --{unknown[0]} (context options: "
                        f"{', '.join(CONTEXT_OPTIONS)})")
        self.handle = c_void_p()
        self._solvers: weakref.WeakSet = weakref.WeakSet()
        o = _Options(opts)
        try:
            spec = None if device is None else encode(device, "device")
            check(lib.hdgcl_context_create(spec, o.handle, byref(self.handle)))
        finally:
            o.close()
        if progress is not None:
            if not callable(progress):
                self.close()
                raise TypeError(f"progress: expected a function of one string, got "
                                f"{type(progress).__name__}")

            def relay(_data: Any, line: bytes) -> None:
                try:
                    progress(text(line))
                except Exception:  # an exception cannot cross the C library
                    pass
            self._progress = PROGRESS_FN(relay)  # kept alive as long as the context
            check(lib.hdgcl_context_set_progress(self.handle,
                                                 ctypes.cast(self._progress, c_void_p), None))
        info = DeviceInfo()
        check(lib.hdgcl_context_info(self.handle, byref(info)))
        self.device = _device_dict(info)
        self.is_reference = bool(lib.hdgcl_context_is_reference(self.handle))

    def close(self) -> None:
        """Frees the device; the solvers made on it are closed first."""
        for solver in list(getattr(self, "_solvers", ())):
            solver.close()
        if getattr(self, "handle", None):
            lib.hdgcl_context_destroy(byref(self.handle))

    def __del__(self) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<hdgcl.Context {self.device['name']}>"


def _context_for(device: str | Context | None, options: Mapping[str, Any],
                 progress: Any = None) -> Context:
    """The given Context, or a new one for this solve (as the CLI: its memory high water
    is this solve's; pass a Context to share compiled kernels between solves)."""
    if isinstance(device, Context):
        if progress is not None:
            raise ValueError("progress belongs to the context: pass it to hdgcl.Context(...)")
        if options:
            raise ValueError(f"option --{next(iter(options))} belongs to the context: pass it "
                             "to hdgcl.Context(...), not with a Context")
        return device
    if device is not None and not isinstance(device, str):
        raise TypeError(f"device: expected a string or hdgcl.Context, got "
                        f"{type(device).__name__}")
    return Context(device, progress, **options)


def _stage_rate(amount: float, seconds: float) -> float:
    return amount / seconds * 1e-9 if seconds > 0 else 0.0


def _real(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None  # null in the CLI's JSON


def _result_dict(r: Result, mesh: Mesh, device: Mapping[str, Any]) -> dict[str, Any]:
    """The object `hdgcl solve --json` writes (host/cli/report_json.c), key for key."""
    d: dict[str, Any] = {"hdgcl_version": version(), "problem": text(r.problem),
                         "mesh": mesh.source, "element_type": mesh.cell_type,
                         "order": r.order, "tau": _real(r.tau)}
    if not math.isnan(r.mu_min):
        d["mu"] = [_real(r.mu_min), _real(r.mu_max)]
        d["lambda"] = [_real(r.lambda_min), _real(r.lambda_max)]
    d["device"] = {k: device[k] for k in ("name", "platform", "vendor", "driver", "type",
                                          "compute_units")}
    d.update({"elements": r.num_elements, "faces": r.num_faces,
              "trace_unknown_faces": r.num_unknown_faces, "element_dofs": r.element_dofs,
              "trace_dofs": r.trace_dofs, "h": _real(r.h), "solver": text(r.solver),
              "precond": text(r.precond)})
    if r.restart:
        d["restart"] = r.restart
    if r.cheb_degree:
        d.update({"cheb_degree": r.cheb_degree, "eig_min": _real(r.eig_min),
                  "eig_max": _real(r.eig_max)})
    d["format"] = text(r.format)
    if r.local_invert:
        for key in ("local_invert", "local_invert_wg", "local_invert_source", "local_schur",
                    "local_schur_source", "local_schur_stage", "local_schur_wg",
                    "local_element_wg", "local_element_grid", "local_element_source",
                    "local_gemm_z", "local_gemm_z_source", "local_gemm_k",
                    "local_gemm_k_source"):
            value = getattr(r, key)
            d[key] = (text(value) or "") if isinstance(value, (bytes, type(None))) else value
    if r.postprocess:
        d["postprocess"] = text(r.postprocess)
        d["postprocess_wg"] = r.postprocess_wg
    d["iterations"] = r.iterations
    if r.scheme:  # a transient problem: iterations is the sum over its stage solves
        d["time"] = {"scheme": text(r.scheme), "steps": r.time_steps,
                     "time_step": _real(r.time_step), "final_time": _real(r.final_time),
                     "stage_solves": r.stage_solves, "iterations_max": r.iterations_max}
        if r.newton_steps_all > 0:
            d["time"]["newton_steps"] = r.newton_steps_all
    if r.newton_history:  # Newton's method (docs/nonlinear.md): iterations sums its steps
        d["newton"] = {"steps": r.newton_steps, "rtol": _real(r.newton_rtol),
                       "residual_history": [_real(r.newton_history[i])
                                            for i in range(r.newton_steps + 1)],
                       "iterations": [r.newton_iterations[i] for i in range(r.newton_steps)]}
        if r.newton_steps_all > r.newton_steps and not r.scheme:  # neo-hookean's load steps
            d["newton"]["steps_all_load_steps"] = r.newton_steps_all
        if r.ptc_steps > 0:  # --ptc true (docs/nonlinear.md section 10)
            d["newton"]["ptc"] = {"pseudo_steps": r.ptc_steps, "dt_first": _real(r.ptc_dt_first),
                                  "dt_last": _real(r.ptc_dt_last)}
    d.update({"rtol": _real(r.rtol), "residual": _real(r.residual),
              "residual_history": [_real(r.history[i]) for i in range(r.history_length)]})
    errors = {k: _real(getattr(r, k)) for k in ("l2_u", "l2_q", "l2_ustar", "linf_u", "norm_u",
                                                 "norm_q", "ustar_check")}
    errors["ustar_retries"] = r.ustar_retries
    if not math.isnan(r.l2_p) or not math.isnan(r.tip_deflection):
        errors.update({"l2_p": _real(r.l2_p), "norm_p": _real(r.norm_p)})
    if not math.isnan(r.tip_deflection):
        errors.update({"tip_deflection": _real(r.tip_deflection),
                       "beam_deflection": _real(r.beam_deflection)})
    d["errors"] = errors
    if r.num_outputs:
        d["outputs"] = [{"label": text(o.label), "names": text(o.names),
                         "values": [_real(o.values[k]) for k in range(o.num_values)]}
                        for o in (r.outputs[i] for i in range(r.num_outputs))]
    d["stages"] = [{"name": text(s.name), "seconds": _real(s.seconds), "flops": _real(s.flops),
                    "bytes": _real(s.bytes), "gflops": _real(_stage_rate(s.flops, s.seconds)),
                    "gbs": _real(_stage_rate(s.bytes, s.seconds))} for s in r.stages]
    solve_seconds = r.stages[3].seconds
    d.update({"repeat": 1, "total_seconds": _real(r.total_seconds),
              "setup_seconds": _real(r.setup_seconds),
              "precond_seconds": _real(r.precond_seconds),
              "seconds_per_iteration": _real((solve_seconds - r.precond_seconds) / r.iterations
                                             if r.iterations else 0.0),
              "memory_high_water_bytes": r.device_memory_high_water})
    if r.num_memory_uses > 0:  # the high water by buffer name, largest first
        d["memory_buffers"] = [{"name": text(m.name), "bytes": m.bytes}
                               for m in (r.memory_uses[i] for i in range(r.num_memory_uses))]
    d.update({"chunk_elements": r.chunk_elements, "chunks": r.num_chunks})
    if r.curved_elements or r.straight_elements:  # element batches of a curved mesh
        d.update({"straight_elements": r.straight_elements, "curved_elements": r.curved_elements})
    return d


def _basis_size(shape: str, p: int) -> int:
    return {"segment": p + 1, "triangle": (p + 1) * (p + 2) // 2,
            "quadrilateral": (p + 1) ** 2, "tetrahedron": (p + 1) * (p + 2) * (p + 3) // 6,
            "hexahedron": (p + 1) ** 3}[shape]


_FACE_SHAPE = {"triangle": "segment", "quadrilateral": "segment", "tetrahedron": "triangle",
               "hexahedron": "quadrilateral"}


class Solver:
    """One solve of one problem on one mesh (hdgcl_solver_*); hdgcl.solve() makes one.

    After solve(): `result` (dict, as `hdgcl solve --json`), the solution arrays `u`, `q`,
    `ustar`, `trace` (and `pressure` for elasticity) and `matrix()`.  Shapes, with E
    elements, F faces, d the dimension, Np/Np1/Nf the sizes of the degree p / p+1 element
    and degree p face bases, c = d components for elasticity:
        scalar problems  u (E, Np)     q (E, d, Np)     ustar (E, Np1)     trace (F, Nf)
        elasticity       u (E, c, Np)  q (E, c, d, Np)  ustar (E, c, Np1)  trace (F, c, Nf)
    The values are coefficients in hdgcl's orthonormal bases (docs/formulation.md); u_mean,
    u_at_vertices() and ustar_at_vertices() evaluate them.
    """

    def __init__(self, mesh: Mesh | str, device: str | Context | None = None,
                 progress: Any = None, **options: Any):
        if isinstance(mesh, (str, os.PathLike)):
            mesh = Mesh.from_spec(mesh)
        if not isinstance(mesh, Mesh):
            raise TypeError(f"mesh: expected an hdgcl.Mesh or a spec string, got "
                            f"{type(mesh).__name__}")
        self.mesh = mesh
        self.handle = c_void_p()
        opts = _normalise(options)
        context_opts, solver_opts = _split(opts)
        self.context = _context_for(device, context_opts, progress)
        self._options = _Options(solver_opts)
        if not self.context.handle:
            raise ValueError("solver: its context is closed")
        mesh._m  # raises if the mesh is closed
        check(lib.hdgcl_solver_create(self.context.handle, mesh._handle, self._options.handle,
                                      byref(self.handle)))
        # the C solver keeps pointers to both: closing either closes it first
        self.context._solvers.add(self)
        mesh._solvers.add(self)
        check(lib.hdgcl_options_check_unused(self._options.handle))
        self.result: dict[str, Any] | None = None
        self._solution: dict[str, np.ndarray] = {}

    def solve(self, on_step: Any = None) -> "Solver":
        """Solves.  A transient problem (docs/time.md) calls on_step(solver, step, time)
        after each time step, with `result` and the solution arrays those of that step;
        an exception it raises stops the integration and is raised here."""
        if on_step is None:
            check(lib.hdgcl_solver_solve(self._live()))
        else:
            self._solve_with_steps(on_step)
        self._take_result()
        return self

    def _take_result(self) -> None:
        r = POINTER(Result)()
        check(lib.hdgcl_solver_result(self.handle, byref(r)))
        self._raw = r.contents
        self.result = _result_dict(self._raw, self.mesh, self.context.device)
        self._solution = {}

    def _solve_with_steps(self, on_step: Any) -> None:
        if not callable(on_step):
            raise TypeError(f"on_step: expected a function (solver, step, time), got "
                            f"{type(on_step).__name__}")
        raised: list[BaseException] = []

        def step(_data: Any, _solver: Any, number: int, time: float) -> int:
            try:
                self._take_result()
                on_step(self, number, time)
                return 0
            except BaseException as exc:  # noqa: BLE001 - handed back after the C call
                raised.append(exc)
                return 1  # HDGCL_ERROR_ARGUMENT: ends the integration

        fn = STEP_FN(step)
        check(lib.hdgcl_solver_set_step_callback(self._live(), fn, None))
        try:
            status = lib.hdgcl_solver_solve(self.handle)
        finally:
            lib.hdgcl_solver_set_step_callback(self.handle, STEP_FN(), None)
            self.result = None
        if raised:
            raise raised[0]
        check(status)

    def _live(self) -> c_void_p:
        if not self.handle:
            raise ValueError("solver: already closed (or its mesh or context was)")
        return self.handle

    def _solved(self) -> Result:
        if self.result is None:
            raise ValueError("solver: call solve() first")
        self._live()
        return self._raw

    @property
    def is_vector(self) -> bool:
        """Elasticity (displacement with d components) rather than a scalar problem."""
        return not math.isnan(self._solved().mu_min)

    @property
    def sizes(self) -> dict[str, int]:
        """Np, Np1, Nf (basis sizes), components, dim."""
        r = self._solved()
        cell = self.mesh.cell_type
        m = self.mesh._m
        if m.num_types > 1:  # a mixed mesh: rows of the widest type, the last (docs/geometry.md)
            cell = text(lib.hdgcl_element_type_name(m.types[m.num_types - 1]))
        return {"Np": _basis_size(cell, r.order), "Np1": _basis_size(cell, r.order + 1),
                "Nf": _basis_size(_FACE_SHAPE[cell], r.order),
                "components": self.mesh.dim if self.is_vector else 1, "dim": self.mesh.dim}

    def _fetch(self) -> dict[str, np.ndarray]:
        if not self._solution:
            r = self._solved()
            u, q, us, tr = (POINTER(c_double)() for _ in range(4))
            check(lib.hdgcl_solver_solution(self._live(), byref(u), byref(q), byref(us),
                                            byref(tr)))
            s = self.sizes
            E, F, d = r.num_elements, self.mesh.num_faces, s["dim"]
            c = (s["components"],) if self.is_vector else ()
            shapes = {"u": (E, *c, s["Np"]), "q": (E, *c, d, s["Np"]),
                      "ustar": (E, *c, s["Np1"]), "trace": (F, *c, s["Nf"])}
            for name, pointer in (("u", u), ("q", q), ("ustar", us), ("trace", tr)):
                self._solution[name] = np.ctypeslib.as_array(pointer,
                                                             shape=shapes[name]).copy()
        return self._solution

    @property
    def u(self) -> np.ndarray:
        return self._fetch()["u"]

    @property
    def q(self) -> np.ndarray:
        return self._fetch()["q"]

    @property
    def ustar(self) -> np.ndarray:
        return self._fetch()["ustar"]

    @property
    def trace(self) -> np.ndarray:
        return self._fetch()["trace"]

    @property
    def pressure(self) -> np.ndarray:
        """(E, Np) pressure of an elasticity problem; hdgcl.Error for scalar ones."""
        self._solved()
        p = POINTER(c_double)()
        check(lib.hdgcl_solver_pressure(self._live(), byref(p)))
        return np.ctypeslib.as_array(p, shape=(self.mesh.num_elements,
                                               self.sizes["Np"])).copy()

    @property
    def materials(self) -> tuple[np.ndarray, np.ndarray]:
        """(mu, lambda), the Lame parameters of each element, (E,) each, of an elasticity
        problem; hdgcl.Error for scalar ones."""
        self._solved()
        mu, lam = POINTER(c_double)(), POINTER(c_double)()
        check(lib.hdgcl_solver_materials(self._live(), byref(mu), byref(lam)))
        E = self.mesh.num_elements
        return (np.ctypeslib.as_array(mu, shape=(E,)).copy(),
                np.ctypeslib.as_array(lam, shape=(E,)).copy())

    def stress_at_vertices(self) -> np.ndarray:
        """The Cauchy stress of an elasticity problem at each element's vertices,
        (E, verts_per_element, 3, 3): sigma = mu (H + H^T - tr(H) I) - p I from the
        displacement gradient H (q) and the pressure p (docs/elasticity.md (E12)); in 2D
        plane strain, sigma_zz = -lambda / (mu + lambda) p (as the VTU output)."""
        if not self.is_vector:
            raise Error(f"stress: problem {self.result['problem']} is scalar",
                        "HDGCL_ERROR_ARGUMENT")
        from ._basis import vertex_values
        values = vertex_values(self.mesh.cell_type, self.result["order"])  # (V, Np)
        h = np.moveaxis(self.q @ values.T, -1, 1)  # (E, V, c, d)
        p = self.pressure @ values.T  # (E, V)
        mu, lam = self.materials
        d = self.mesh.dim
        E, V = p.shape
        sigma = np.zeros((E, V, 3, 3))
        tr = np.trace(h, axis1=2, axis2=3)
        sigma[:, :, :d, :d] = mu[:, None, None, None] * (h + np.swapaxes(h, 2, 3))
        for i in range(3):
            sigma[:, :, i, i] -= mu[:, None] * tr * (i < d) + p
        if d == 2:
            sigma[:, :, 2, 2] = -(lam / (mu + lam))[:, None] * p
        return sigma

    def von_mises_at_vertices(self) -> np.ndarray:
        """The von Mises stress sqrt(3/2 s:s) (s the deviator of the stress) at each
        element's vertices, (E, verts_per_element) (docs/elasticity.md (E16))."""
        sigma = self.stress_at_vertices()
        mean = np.trace(sigma, axis1=2, axis2=3) / 3.0
        dev = sigma - mean[..., None, None] * np.eye(3)
        return np.sqrt(1.5 * np.sum(dev * dev, axis=(2, 3)))

    @property
    def u_mean(self) -> np.ndarray:
        """Mean of u over each reference element, (E,) or (E, c): u's first coefficient
        times the constant basis function; the element's mean where the element map is
        affine (triangles, tetrahedra, parallelograms)."""
        phi0 = 1.0 / math.sqrt(_REFERENCE_MEASURE[self.mesh.cell_type])
        return self.u[..., 0] * phi0

    def u_at_vertices(self) -> np.ndarray:
        """u at each element's vertices, (E, verts_per_element) (scalar problems) or
        (E, verts_per_element, c): the element's own polynomial, so discontinuous."""
        return self._at_vertices(self.u, self.result["order"])

    def ustar_at_vertices(self) -> np.ndarray:
        """The postprocessed u* (degree p + 1) at each element's vertices, shaped as
        u_at_vertices()."""
        return self._at_vertices(self.ustar, self.result["order"] + 1)

    def _at_vertices(self, coefficients: np.ndarray, degree: int) -> np.ndarray:
        from ._basis import vertex_values
        values = vertex_values(self.mesh.cell_type, degree)  # (V, N)
        at = coefficients @ values.T  # (E, V) or (E, c, V)
        return np.moveaxis(at, -1, 1) if self.is_vector else at

    def matrix(self) -> tuple[Any, np.ndarray]:
        """(A, b): the assembled trace system as a scipy.sparse CSR matrix of
        (rows * nf) x (rows * nf), rows the unknown faces (Dirichlet faces are not
        unknowns) and nf the face block size, and its right-hand side.  Row u * nf + m is
        mode m of face row u, as in `hdgcl solve --export-matrix`."""
        import scipy.sparse
        self._solved()
        rows, slots, nf = c_int(), c_int(), c_int()
        values, rhs = POINTER(c_double)(), POINTER(c_double)()
        columns = POINTER(c_int32)()
        check(lib.hdgcl_solver_matrix(self._live(), byref(rows), byref(slots), byref(nf),
                                      byref(values), byref(columns), byref(rhs)))
        R, S, N = rows.value, slots.value, nf.value
        n = R * N
        if n == 0:
            return scipy.sparse.csr_matrix((0, 0)), np.zeros(0)
        vals = np.ctypeslib.as_array(values, shape=(R, S, N, N))
        cols = np.ctypeslib.as_array(columns, shape=(R, S))
        b = np.ctypeslib.as_array(rhs, shape=(n,)).copy()
        u, sl = np.nonzero(cols >= 0)
        c = cols[u, sl].astype(np.int64)
        m, k = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
        row = (u[:, None, None] * N + m[None]).ravel()
        col = (c[:, None, None] * N + k[None]).ravel()
        A = scipy.sparse.csr_matrix((vals[u, sl].ravel(), (row, col)), shape=(n, n))
        return A, b

    def write_vtu(self, path: str | os.PathLike, subdivisions: int = 0) -> None:
        """ParaView file of u, q and u* (hdgcl_solver_write_vtu)."""
        self._solved()
        check(lib.hdgcl_solver_write_vtu(self._live(), encode(path, "VTU file"),
                                         int(subdivisions)))

    def export_matrix(self, prefix: str | os.PathLike) -> None:
        """PREFIX.mtx and PREFIX.rhs.mtx (MatrixMarket), as --export-matrix."""
        self._solved()
        check(lib.hdgcl_solver_export_matrix(self._live(), encode(prefix, "matrix prefix")))

    def close(self) -> None:
        if getattr(self, "handle", None):
            lib.hdgcl_solver_destroy(byref(self.handle))
        if getattr(self, "_options", None):
            self._options.close()

    def __enter__(self) -> "Solver":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def _default_mesh(problem: Any) -> str:
    for p in problems():
        if p["name"] == problem:
            return p["default_mesh"]
    return "square:8"


def solve(mesh: Mesh | str | None = None, device: str | Context | None = None,
          options: Mapping[str, Any] | None = None, on_step: Any = None,
          **kwargs: Any) -> Solver:
    """Solves a problem as `hdgcl solve` does and returns the solved Solver.

    mesh: an hdgcl.Mesh, a spec ("square:16") or a .msh path; default the problem's own
    (as the CLI).  device: as --device, or an hdgcl.Context.  progress: a function of one
    line (e.g. print) told of kernel compilation and trials.  Options by the CLI's names,
    as keywords (order=3, precond="jacobi", cheb_degree=4, problem_file="my.json") or in
    `options` (for names such as "problem-file" written as on the command line).
    on_step: for a transient problem, a function (solver, step, time) called after each
    time step (Solver.solve).
    """
    merged = dict(options or {})
    merged.update(kwargs)
    merged = _normalise(merged)  # names checked before they become keywords below
    if mesh is None:
        mesh = _default_mesh(merged.get("problem", "helmholtz-sin"))
    return Solver(mesh, device, **merged).solve(on_step)


def refine_spec(spec: str, factor: int) -> str:
    """"square:8x4,diag=alt" -> "square:16x8,diag=alt" for factor 2 (as --convergence)."""
    if ":" not in spec or ".msh" in spec:
        raise ValueError(f"convergence needs a generated mesh (e.g. square:4), not {spec!r}")
    head, rest = spec.split(":", 1)
    counts, sep, tail = rest.partition(",")
    counts = re.sub(r"\d+", lambda m: str(int(m.group()) * factor), counts)
    return f"{head}:{counts}{sep}{tail}"


def convergence(mesh: str, levels: int = 4, device: str | Context | None = None,
                **options: Any) -> dict[str, Any]:
    """`hdgcl solve --convergence LEVELS`: solves on the mesh spec refined 1, 2, 4, ...
    times and returns {"runs": [result dicts], "rates": [{"u", "q", "ustar"}, ...]}, the
    rates log(e_{k-1}/e_k) / log(h_{k-1}/h_k) from the second run on (as --json)."""
    if not isinstance(levels, int) or not 1 <= levels <= 12:
        raise ValueError(f"levels: expected an integer 1..12, got {levels!r}")
    runs = []
    for k in range(levels):
        with Solver(refine_spec(mesh, 1 << k), device, **options) as s:
            runs.append(s.solve().result)
    rates = []
    for prev, run in zip(runs, runs[1:]):
        lh = math.log(prev["h"] / run["h"])
        rate = {}
        for key, err in (("u", "l2_u"), ("q", "l2_q"), ("ustar", "l2_ustar")):
            a, b = prev["errors"][err], run["errors"][err]
            rate[key] = math.log(a / b) / lh if a and b else None
        rates.append(rate)
    return {"runs": runs, "rates": rates}
