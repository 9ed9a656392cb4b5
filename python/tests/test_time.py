"""Transient problems from Python (docs/time.md): the time figures of the result, the
step callback (every step, its time and solution; an exception stops the integration)
and the refusals."""
from __future__ import annotations

import numpy as np
import pytest

import hdgcl


def test_transient_result_and_steps():
    seen = []

    def on_step(solver, step, time):
        u = solver.u
        assert u.shape == (18, 6)  # square:3, p = 2
        seen.append((step, time, solver.result["errors"]["l2_u"], float(np.abs(u).max())))

    with hdgcl.solve("square:3", device="ref", problem="heat", order=2, scheme="dirk2",
                     time_step=0.1, final_time=0.4, on_step=on_step) as s:
        t = s.result["time"]
        assert t == {"scheme": "dirk2", "steps": 4, "time_step": 0.1, "final_time": 0.4,
                     "stage_solves": 8, "iterations_max": t["iterations_max"]}
        assert [k for k, *_ in seen] == [1, 2, 3, 4]
        assert [round(time, 12) for _, time, *_ in seen] == [0.1, 0.2, 0.3, 0.4]
        assert all(0 < e < 2e-2 for _, _, e, _ in seen)  # 1.07e-2 at t = 0.4
        # the last step is the result, and u = cos(t) sin(pi x) sin(pi y) decays
        assert seen[-1][2] == s.result["errors"]["l2_u"]
        assert seen[-1][3] < seen[0][3]


def test_step_exception_stops_the_solve():
    class Stop(Exception):
        pass

    def on_step(solver, step, time):
        if step == 2:
            raise Stop("enough")

    s = hdgcl.Solver("square:2", device="ref", problem="heat", order=1, time_step=0.1,
                     final_time=1.0)
    with s:
        with pytest.raises(Stop, match="enough"):
            s.solve(on_step=on_step)
        with pytest.raises(TypeError, match="on_step"):
            s.solve(on_step=3)
        s.solve()  # and the solver still works
        assert s.result["time"]["steps"] == 10


def test_time_refusals():
    with pytest.raises(hdgcl.Error, match="problem helmholtz-sin is steady"):
        hdgcl.solve("square:2", device="ref", time_step=0.1)
    with pytest.raises(hdgcl.Error, match="--time-step 0: must be a finite number > 0"):
        hdgcl.solve("square:2", device="ref", problem="heat", time_step=0)
    with hdgcl.Solver("square:2", device="ref", order=1) as s:
        with pytest.raises(hdgcl.Error, match="is steady"):
            s.solve(on_step=lambda *a: None)
