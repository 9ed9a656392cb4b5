"""The figures of docs/performance.md (matplotlib, Agg backend, PNG).

Each function draws one figure from data that perf/report.py has already
taken out of the results files, writes it to `path` and returns nothing.
Output is deterministic: no dates or software versions in the PNG metadata,
fixed sizes, fonts and colours, so the same results give the same bytes.
"""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

plt.rcParams.update({
    "font.size": 8,
    "axes.titlesize": 9,
    "legend.fontsize": 7,
    "svg.hashsalt": "hdgcl",
    "path.simplify": True,
})
DPI = 110
# Stacked stages of the pipeline, bottom to top, with fixed colours.
STAGES = ["local", "assemble", "solve", "recover", "transfers"]
STAGE_COLORS = {"local": "#1f77b4", "assemble": "#ff7f0e", "solve": "#2ca02c",
                "recover": "#d62728", "transfers": "#7f7f7f"}
MARKERS = "osD^v<>ph*"


def save(fig, path):
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    plt.close(fig)


def order_color(p, pmax=9):
    return plt.get_cmap("viridis")((p - 1) / max(pmax - 1, 1) * 0.9)


def stage_breakdown(panels, path):
    """Stacked bars of stage time (ms) against the order p, one panel per device.

    panels: [(title, {p: {stage: ms}})] with the stage names of STAGES (a
    missing stage counts as 0)."""
    fig, axes = plt.subplots(1, len(panels), figsize=(3.3 * len(panels), 3.2), squeeze=False)
    for ax, (title, data) in zip(axes[0], panels):
        ps = sorted(data)
        bottom = [0.0] * len(ps)
        for s in STAGES:
            h = [data[p].get(s, 0.0) for p in ps]
            if not any(h):
                continue
            ax.bar(ps, h, bottom=bottom, color=STAGE_COLORS[s], label=s, width=0.75)
            bottom = [b + x for b, x in zip(bottom, h)]
        ax.set_title(title)
        ax.set_xlabel("order p")
        ax.set_xticks(ps)
        ax.set_ylabel("time (ms)")
        ax.grid(axis="y", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=STAGE_COLORS[s]) for s in STAGES]
    fig.legend(handles, STAGES, loc="upper center", ncol=len(STAGES), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    save(fig, path)


def time_accuracy(panels, path, ncols):
    """Time-accuracy (TAS): L2 error against total time, log-log.

    panels: [(title, {p: [(seconds, error), ...] ordered coarse to fine})];
    one colour and marker per p, a line joining the meshes of one p."""
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols + 0.6, 3.0 * nrows), squeeze=False)
    pmax = max([max(d) for _, d in panels if d] + [1])
    for i, (title, data) in enumerate(panels):
        ax = axes[i // ncols][i % ncols]
        for p in sorted(data):
            pts = data[p]
            ax.loglog([t for t, _ in pts], [e for _, e in pts], "-", marker=MARKERS[(p - 1) % len(MARKERS)],
                      color=order_color(p, pmax), ms=4, lw=1, label="p = %d" % p)
        ax.set_title(title)
        ax.set_xlabel("total time (s)")
        ax.set_ylabel("L2 error of u")
        ax.grid(True, which="major", alpha=0.3)
    for j in range(len(panels), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    # One legend for all panels, right of them, so that no panel's points are hidden.
    ps = sorted({p for _, d in panels for p in d})
    fig.legend([plt.Line2D([], [], color=order_color(p, pmax), marker=MARKERS[(p - 1) % len(MARKERS)], ms=4)
                for p in ps], ["p = %d" % p for p in ps], loc="center right", frameon=False)
    fig.tight_layout(rect=(0, 0, 1 - 0.6 / (3.6 * ncols + 0.6), 1))
    save(fig, path)


def cross_vendor(meshes, ref, path):
    """Total time against p per mesh and device (top), speedup of `ref` (bottom).

    meshes: [(title, {device: {p: seconds}})], device labels in a fixed order."""
    fig, axes = plt.subplots(2, len(meshes), figsize=(3.4 * len(meshes), 5.6), squeeze=False)
    devices = []
    for _, data in meshes:
        devices += [d for d in data if d not in devices]
    color = {d: "C%d" % i for i, d in enumerate(devices)}
    for col, (title, data) in enumerate(meshes):
        top, bot = axes[0][col], axes[1][col]
        for i, d in enumerate(devices):
            if d not in data:
                continue
            ps = sorted(data[d])
            top.semilogy(ps, [1e3 * data[d][p] for p in ps], "-", marker=MARKERS[i], color=color[d], ms=4,
                         label=d)
            if d != ref and ref in data:
                qs = [p for p in ps if p in data[ref]]
                bot.plot(qs, [data[d][p] / data[ref][p] for p in qs], "-", marker=MARKERS[i],
                             color=color[d], ms=4, label="over " + d)
        top.set_title(title)
        top.set_ylabel("total time (ms)")
        bot.set_ylabel("speedup of %s" % ref)
        bot.set_ylim(bottom=0)
        for ax in (top, bot):
            ax.set_xlabel("order p")
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(loc="best")
    fig.tight_layout()
    save(fig, path)


def roofline(title, ceilings, points, path):
    """Roofline: min(peak FP64, intensity x copy bandwidth), points placed on it.

    ceilings: [(label, copy_gbs, peak_gflops)] (distinct peaks measured with the
    cases); points: [(label, group, flops_per_byte, gflops, is_stage)], `group`
    (the case) picks the colour."""
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    xs = [x for _, _, x, _, _ in points]
    ridges = [g / b for _, b, g in ceilings]
    lo = 10 ** math.floor(math.log10(min(xs + ridges) / 2))
    hi = 10 ** math.ceil(math.log10(max(xs + ridges) * 2))
    for i, (label, bw, peak) in enumerate(ceilings):
        ridge = peak / bw
        ax.loglog([lo, ridge, hi], [lo * bw, peak, peak], "-", color="k", lw=1.5 if i == 0 else 0.8,
                  alpha=1.0 if i == 0 else 0.5)
        ax.annotate(label, (hi, peak), xytext=(-4, 3 - 10 * i), textcoords="offset points", ha="right",
                    va="bottom" if i == 0 else "top", fontsize=7)
    groups = []
    for _, g, _, _, _ in points:
        if g not in groups:
            groups.append(g)
    for label, g, x, y, is_stage in points:
        c = "C%d" % (groups.index(g) % 10)
        ax.loglog([x], [y], "s" if is_stage else "o", color=c, ms=5, mfc="none" if is_stage else c)
        ax.annotate(label, (x, y), xytext=(4, -3), textcoords="offset points", fontsize=6, color=c)
    if len(groups) > 1:
        ax.legend([plt.Line2D([], [], color="C%d" % (i % 10), marker="o", ls="") for i in range(len(groups))],
                  groups, loc="lower right")
    ax.set_xlim(lo, hi)
    ax.set_xlabel("arithmetic intensity (flop / byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(title + "  (squares: pipeline stages; dots: kernels)")
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    save(fig, path)
