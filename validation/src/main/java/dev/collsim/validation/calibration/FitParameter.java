package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.topology.NetworkClass;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link PerformanceParameters} fields calibration can fit, with the range a fit may move them in. The
 * per-channel Simple cap and the NVLS scale are fitted for one GPU generation (the data's); the others are
 * generation-independent. The {@code bwEfficiency*} ranges reach past 1 (to 1.5) so that data faster than the model
 * moves a fitted efficiency above 1 inside its range, where {@link FitAcceptance} refuses it by name ("&gt; 1: faster
 * than the link") on every path (calibrate with or without {@code --fit}, {@code --profiles}, accuracy: all fit
 * through {@link FitLadder}); calibrate prints such a value with its refusal beneath it, and never writes it.
 */
public enum FitParameter {
    /** launchOverheadUs, microseconds, [0, 100]. */
    LAUNCH_OVERHEAD_US("launchOverheadUs", "launch", "us", 0, 100),
    /** latencyScale, factor on NCCL's latency, [0.05, 20]. */
    LATENCY_SCALE("latencyScale", "latScale", "factor", 0.05, 20),
    /** bwEfficiencySimple, fraction, [0.05, 1.5]. */
    BW_EFFICIENCY_SIMPLE("bwEfficiencySimple", "effSimple", "fraction", 0.05, 1.5),
    /** bwEfficiencyLL128, fraction, [0.05, 1.5]. */
    BW_EFFICIENCY_LL128("bwEfficiencyLL128", "effLL128", "fraction", 0.05, 1.5),
    /** bwEfficiencyLL, fraction, [0.05, 1.5]. */
    BW_EFFICIENCY_LL("bwEfficiencyLL", "effLL", "fraction", 0.05, 1.5),
    /** perChannelCapSimple of the data's generation, GB/s, [1, 500]. */
    PER_CHANNEL_CAP_SIMPLE("perChannelCapSimple", "capSimple", "GB/s", 1, 500),
    /** netStepUs, microseconds per network send of NCCL's proxy, [0, 100]. */
    NET_STEP_US("netStepUs", "netStep", "us", 0, 100),
    /**
     * nvlsBwScale of the data's generation, factor on NCCL's NVLS bandwidth, [0.5, 2]; fitted only when named
     * ({@code --fit}), not in calibrate's default set: on NVLS-only data it moves the time as the Simple efficiency
     * does.
     */
    NVLS_BW_SCALE("nvlsBwScale", "nvlsScale", "factor", 0.5, 2),
    /**
     * bwEfficiencyNet, fraction of the link-limited bandwidth of calls between nodes, [0.05, 1.5]; not in
     * calibrate's default set (on data between nodes only it moves the time as the Simple efficiency does): the
     * shipped network-class profiles fit it in the Simple efficiency's place ({@link FitLadder#network()}), so that
     * their fit leaves one-node (NVLink, PCIe) traffic alone.
     */
    BW_EFFICIENCY_NET("bwEfficiencyNet", "effNet", "fraction", 0.05, 1.5),
    /**
     * The socket class's TCP stream rate (netClasses SOCKET streamGBps), GB/s, [0.1, 100]; fitted only when named
     * ({@code --fit}): it moves calls over NCCL's socket transport only (simulator {@code perf.SocketStreams}), and
     * is a property of the hosts (CPU, kernel), so a socket cluster's own run sets it.
     */
    SOCKET_STREAM_GBPS("socketStreamGBps", "stream", "GB/s", 0.1, 100);

    private final String field;
    private final String label;
    private final String unit;
    private final double lo;
    private final double hi;

    FitParameter(String field, String label, String unit, double lo, double hi) {
        this.field = field;
        this.label = label;
        this.unit = unit;
        this.lo = lo;
        this.hi = hi;
    }

    /** @return the PerformanceParameters field name (profile YAML key) */
    public String field() {
        return field;
    }

    /** @return a short name for tables (launch, latScale, effSimple, effLL128, effLL, capSimple, netStep, nvlsScale,
     *         effNet, stream) */
    public String label() {
        return label;
    }

    /**
     * @return the value's unit, as each constant's javadoc gives it: us, GB/s (1e9 B/s), factor (a multiplier) or
     *         fraction (of a bandwidth)
     */
    public String unit() {
        return unit;
    }

    /**
     * @param field a PerformanceParameters field name
     * @return the parameter fitted under that name
     * @throws IllegalArgumentException when no parameter has that field name
     */
    public static FitParameter ofField(String field) {
        for (FitParameter f : values()) {
            if (f.field.equals(field)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown fitted parameter '" + field + "'");
    }

    /** @return lowest allowed value */
    public double lo() {
        return lo;
    }

    /** @return highest allowed value */
    public double hi() {
        return hi;
    }

    /** @return this parameter's value in p (for the cap: of generation g) */
    public double get(PerformanceParameters p, GpuGeneration g) {
        return switch (this) {
            case LAUNCH_OVERHEAD_US -> p.launchOverheadUs();
            case LATENCY_SCALE -> p.latencyScale();
            case BW_EFFICIENCY_SIMPLE -> p.bwEfficiencySimple();
            case BW_EFFICIENCY_LL128 -> p.bwEfficiencyLL128();
            case BW_EFFICIENCY_LL -> p.bwEfficiencyLL();
            case PER_CHANNEL_CAP_SIMPLE -> p.perChannelCapSimple().get(g.ordinal());
            case NET_STEP_US -> p.netStepUs();
            case NVLS_BW_SCALE -> p.nvlsBwScale().get(g.ordinal());
            case BW_EFFICIENCY_NET -> p.bwEfficiencyNet();
            case SOCKET_STREAM_GBPS -> p.streamGBps(NetworkClass.SOCKET);
        };
    }

    /**
     * @param p the parameters
     * @param g generation whose cap to set
     * @param v the new value (clamped into [lo, hi])
     * @return a copy with this parameter set
     */
    public PerformanceParameters with(PerformanceParameters p, GpuGeneration g, double v) {
        double x = Math.max(lo, Math.min(hi, v));
        List<Double> caps = new ArrayList<>(p.perChannelCapSimple());
        if (this == PER_CHANNEL_CAP_SIMPLE) {
            caps.set(g.ordinal(), x);
        }
        List<Double> nvls = new ArrayList<>(p.nvlsBwScale());
        if (this == NVLS_BW_SCALE) {
            nvls.set(g.ordinal(), x);
        }
        if (this == SOCKET_STREAM_GBPS) {
            return p.withStreamGBps(NetworkClass.SOCKET, x);
        }
        return new PerformanceParameters(
                this == LAUNCH_OVERHEAD_US ? x : p.launchOverheadUs(),
                this == LATENCY_SCALE ? x : p.latencyScale(),
                this == BW_EFFICIENCY_LL ? x : p.bwEfficiencyLL(),
                this == BW_EFFICIENCY_LL128 ? x : p.bwEfficiencyLL128(),
                this == BW_EFFICIENCY_SIMPLE ? x : p.bwEfficiencySimple(),
                p.perChannelCapLL(), p.perChannelCapLL128(), caps, p.pipelineFillChunks(), p.p2pBaseLatencyUs(),
                p.localCopyGBps(), this == NET_STEP_US ? x : p.netStepUs(), p.perChannelCapNvls(), nvls,
                p.netClasses(), p.nvlsLoopUs(), this == BW_EFFICIENCY_NET ? x : p.bwEfficiencyNet(),
                p.bwEfficiencyNvlink(), p.bwEfficiencyPcie());
    }
}
