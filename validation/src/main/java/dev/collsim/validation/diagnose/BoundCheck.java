package dev.collsim.validation.diagnose;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.perf.PerfResult;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.NetworkLog;
import dev.collsim.validation.ingest.DatasetKind;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Compares the best busbw a dataset reached with the bounds of {@link Bounds}: above the physical bound (cannot be
 * true; also above what the header's NICs carry across hosts), below one PCIe link on an NVLink GPU (NVLink unused), below half of the achievable bound (far below;
 * with the whole number of NICs a flat top is worth, {@link NicPlateau}).
 * Also flags an algbw above the GPU's memory bandwidth, which no collective can reach (e.g. an in-place reduce on
 * one rank, which moves nothing), and a step between two sizes whose added bytes move faster than the NICs allow
 * ({@link #marginal}).
 */
final class BoundCheck implements Check {

    /**
     * Largest size below which a run says nothing about bandwidth, bytes (8 MiB): at 48 GB/s, one PCIe Gen5 x16 link
     * in NCCL's model, 8 MiB takes 175 us, well above NCCL's launch and step latencies of 10-30 us, while a run that
     * stops at 1 MiB or less is bound by latency on any link.
     */
    static final long BANDWIDTH_BOUND_BYTES = 8L << 20;

    /**
     * Smallest size of the added-bytes check, bytes (1 MiB): the size from which the accuracy figures are taken;
     * below it a step's added time is of the order of NCCL's launch and per-step latencies (10-30 us), so its rate
     * says nothing about bandwidth.
     */
    static final long MARGINAL_FROM_BYTES = 1L << 20;

    /** Share of the achievable bound below which a run is far below it: half ({@link Bounds#achievable}). */
    static final double FAR_BELOW_SHARE = 0.5;

    /**
     * @param s a subject
     * @return the achievable bound ({@link Bounds#achievable}) when the run is judged on bandwidth (not a footer alone,
     *         2 ranks or more, a summary or a sweep reaching {@link #BANDWIDTH_BOUND_BYTES}) and its peak busbw is
     *         under {@link #FAR_BELOW_SHARE} of it; empty otherwise
     */
    static OptionalDouble farBelow(Subject s) {
        Dataset d = s.dataset();
        double peak = d.peakBusBw().orElse(Double.NaN);
        if (d.kind() == DatasetKind.FOOTER_ONLY || Double.isNaN(peak) || d.nRanks() < 2 || d.kind() != DatasetKind.SUMMARY
                && d.largest().map(p -> p.sizeBytes() < BANDWIDTH_BOUND_BYTES).orElse(false)) {
            return OptionalDouble.empty();
        }
        OptionalDouble bound = Bounds.achievable(s);
        return bound.isPresent() && peak < FAR_BELOW_SHARE * bound.getAsDouble() ? bound : OptionalDouble.empty();
    }

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        Dataset d = s.dataset();
        if (d.kind() == DatasetKind.FOOTER_ONLY) {
            return out;
        }
        memory(s, out);
        double peak = d.peakBusBw().orElse(Double.NaN);
        if (Double.isNaN(peak) || d.nRanks() < 2) {
            return out;
        }
        marginal(s, out);
        List<Finding.Evidence> at = evidenceOfPeak(s);
        OptionalDouble upper = Bounds.impossibleAbove(s);
        if (upper.isPresent() && peak > upper.getAsDouble()) {
            out.add(s.finding(Finding.Kind.ABOVE_PHYSICAL_BOUND, Finding.Severity.WARNING, String.format(Locale.ROOT,
                    "busbw %.2f GB/s is above what %s can carry (%.1f GB/s per GPU per direction, bound %.1f GB/s "
                            + "busbw for %s on %d ranks): the number cannot be a real measurement of this setup",
                    peak, s.gpu().get().name(), s.gpu().get().intraHostPhysical().gbps(), upper.getAsDouble(),
                    d.collective().testName(), d.nRanks()), at));
            return out;
        }
        OptionalDouble nics = Bounds.impossibleAboveNics(s);
        if (nics.isPresent() && peak > nics.getAsDouble()) {
            HeaderNics n = s.nic().get();
            List<Finding.Evidence> ev = new ArrayList<>(at);
            if (n.line() > 0) {
                ev.add(s.at(n.line()));
            }
            out.add(s.finding(Finding.Kind.ABOVE_PHYSICAL_BOUND, Finding.Severity.WARNING, String.format(Locale.ROOT,
                    "busbw %.2f GB/s is above what %s of NICs per host (%.1f GB/s) can carry for %s on %d "
                            + "ranks over %d hosts (bound %.1f GB/s busbw): the number cannot be true, or %s "
                            + "understates the NICs", peak, n.describe(), n.hostGBps(),
                    d.collective().testName(), d.nRanks(), d.nHosts(), nics.getAsDouble(),
                    n.line() > 0 ? "the header" : "the cluster given with -c"), ev));
            return out;
        }
        if (d.kind() != DatasetKind.SUMMARY && d.largest().map(p -> p.sizeBytes() < BANDWIDTH_BOUND_BYTES).orElse(false)) {
            return out;
        }
        if (s.gpu().isPresent() && s.gpu().get().hasNvlink() && s.singleHost()
                && peak < NcclBandwidths.gpuPcie(s.gpu().get()).gbps()) {
            out.add(s.finding(Finding.Kind.NVLINK_NOT_USED, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                    "busbw peaks at %.2f GB/s on %s, below even one PCIe Gen%d x16 link (%.0f GB/s in NCCL's model) "
                            + "although these GPUs have %d NVLinks (%.0f GB/s): traffic is not using NVLink "
                            + "(P2P off, or routed through PCIe/host memory)", peak, s.gpu().get().name(),
                    s.gpu().get().pcieGen().number(), NcclBandwidths.gpuPcie(s.gpu().get()).gbps(), s.gpu().get().nvlinks(),
                    NcclBandwidths.gpuNvlink(s.gpu().get()).gbps()), at));
            return out;
        }
        OptionalDouble bound = Bounds.achievable(s);
        if (bound.isEmpty()) {
            out.add(unjudged(s, peak, at));
        } else if (peak < FAR_BELOW_SHARE * bound.getAsDouble()) {
            List<Finding.Evidence> ev = new ArrayList<>(at);
            if (!s.singleHost() && s.nic().isPresent() && s.nic().get().line() > 0) {
                ev.add(s.at(s.nic().get().line()));
            }
            String what = s.singleHost() ? String.format(Locale.ROOT, "%s intra-host links (%.0f GB/s per GPU in "
                    + "NCCL's model)", s.gpu().get().name(), NcclBandwidths.gpuIntraHost(s.gpu().get()).gbps())
                    : String.format(Locale.ROOT, "%s of NICs per host (%.1f GB/s)", s.nic().get().describe(),
                    s.nic().get().hostGBps());
            Optional<NicPlateau.Plateau> flat = NicPlateau.of(s);
            flat.ifPresent(p -> ev.add(s.at(p.points().get(0))));
            out.add(s.finding(Finding.Kind.FAR_BELOW_BOUND, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                    "busbw peaks at %.2f GB/s, %.0f%% of the %.1f GB/s NCCL ring bound (%s)%s", peak,
                    100 * peak / bound.getAsDouble(), bound.getAsDouble(), what,
                    flat.map(p -> NicPlateau.sentence(p, s)).orElse("")), ev));
        }
        return out;
    }

    /**
     * A sweep that reaches the bandwidth range ({@link #BANDWIDTH_BOUND_BYTES}) but has no achievable bound: a GPU
     * the hardware database does not know, or hosts whose NICs the file does not state (a plain nccl-tests log names
     * none: only a {@code #@ interconnect} header line does, {@link HeaderNics}). Said, so that "no problem found"
     * never stands for "not looked at": a 2x8 H100 all_reduce at 10 GB/s busbw said nothing else.
     */
    private static Finding unjudged(Subject s, double peak, List<Finding.Evidence> at) {
        Dataset d = s.dataset();
        String why;
        if (s.gpu().isEmpty()) {
            why = d.gpuModel().isEmpty() ? "the file names no GPU model (no '#  Rank ... device' lines)"
                    : "GPU '" + d.gpuModel() + "' is not in collsim's hardware database";
        } else if (listedWithoutSpeed(d.log().net())) {
            NetworkLog net = d.log().net();
            List<NetworkLog.Device> dev = net.usedDevices();
            why = String.format(Locale.ROOT, "the NCCL INFO log lists %d NIC(s) per host (%s, line %d) but not their"
                    + " speed, and the file does not state it (a header line such as '#@ interconnect: %dx 400 Gb/s',"
                    + " NICs per host x speed, does; or name the cluster it ran on: collsim diagnose -c CLUSTER"
                    + " FILE)", net.nicCount(), dev.stream().map(x -> x.name() + (x.linkLayer().isEmpty() ? ""
                    : " " + x.linkLayer())).collect(Collectors.joining(", ")), dev.get(0).line(), net.nicCount());
        } else {
            why = "the file does not state the NICs of its " + (d.nHosts() > 1 ? d.nHosts() + " " : "") + "hosts (a"
                    + " header line such as '#@ interconnect: 8x 400 Gb/s', NICs per host x speed, does; or name the"
                    + " cluster it ran on: collsim diagnose -c CLUSTER FILE)";
        }
        return s.finding(Finding.Kind.BOUND_UNKNOWN, Finding.Severity.INFO, String.format(Locale.ROOT,
                "busbw peaks at %.2f GB/s; not judged against the hardware's bound: %s", peak, why), at);
    }

    /** @return true when the INFO log lists the NICs NCCL used (by name, {@code NET/IB : Using ...}) but no speed */
    private static boolean listedWithoutSpeed(NetworkLog net) {
        return !net.usedDevices().isEmpty() && net.ofiNics() == 0 && net.nicGbits().isEmpty();
    }

    /**
     * Between two consecutive sizes the added bytes take the added time: (s2 - s1) / (t2 - t1) is the rate of the
     * added bytes, as algbw, and with nccl-tests' bus factor a busbw. A steady collective cannot move them faster
     * than the hosts' NICs carry ({@link Bounds#impossibleAboveNics}, with its 5 % slack), so a step above that bound
     * says the smaller size's time is not on the steady line: it is inflated (noise, or a slower algorithm or
     * protocol there). Across hosts only, from 1 MiB (below, the step is inside the launch and step latencies). One
     * finding, at the largest excess.
     */
    static void marginal(Subject s, List<Finding> out) {
        Dataset d = s.dataset();
        OptionalDouble nics = Bounds.impossibleAboveNics(s);
        if (nics.isEmpty()) {
            return;
        }
        List<PerfPoint> pts = new ArrayList<>(d.points());
        pts.removeIf(p -> Double.isNaN(p.bestTimeUs()) || p.sizeBytes() < MARGINAL_FROM_BYTES);
        pts.sort(Comparator.comparingLong(PerfPoint::sizeBytes));
        double factor = BusBandwidth.factor(d.collective(), d.nRanks());
        PerfPoint worstAt = null;
        PerfPoint worstNext = null;
        double worst = nics.getAsDouble();
        for (int i = 0; i + 1 < pts.size(); i++) {
            PerfPoint a = pts.get(i);
            PerfPoint b = pts.get(i + 1);
            double dt = b.bestTimeUs() - a.bestTimeUs();
            double busBw = dt > 0 ? (b.sizeBytes() - a.sizeBytes()) / (dt * 1e3) * factor : 0;
            if (b.sizeBytes() > a.sizeBytes() && busBw > worst) {
                worst = busBw;
                worstAt = a;
                worstNext = b;
            }
        }
        if (worstAt != null) {
            OptionalDouble ringBound = Bounds.ringBelowNics(s);
            String ring = ringBound.isEmpty() ? "" : String.format(Locale.ROOT, "; NCCL's ring across hosts allows"
                    + " %.1f, the bound compare prints", ringBound.getAsDouble());
            out.add(s.finding(Finding.Kind.STEP_ABOVE_NIC_BOUND, Finding.Severity.INFO, String.format(Locale.ROOT,
                    "going from %d to %d bytes adds %.1f us: the added bytes move at %.1f GB/s busbw, above the "
                            + "%.1f GB/s the hosts' NICs allow any algorithm (their %.1f GB/s bound plus 5 %% for timing"
                            + " noise%s): the"
                            + " time at %d bytes is off the steady line (noise, or a slower algorithm or protocol "
                            + "there), so the model's miss there is not a rate",
                    worstAt.sizeBytes(), worstNext.sizeBytes(), worstNext.bestTimeUs() - worstAt.bestTimeUs(), worst,
                    nics.getAsDouble(), nics.getAsDouble() / Bounds.SLACK, ring, worstAt.sizeBytes()),
                    List.of(s.at(worstAt), s.at(worstNext))));
        }
    }

    private static void memory(Subject s, List<Finding> out) {
        if (s.gpu().isEmpty()) {
            return;
        }
        double mem = s.gpu().get().memoryGBps();
        for (PerfPoint p : s.dataset().points()) {
            for (PerfResult t : new PerfResult[] {p.outOfPlace(), p.inPlace()}) {
                if (t != null && t.algBw() > mem) {
                    out.add(s.finding(Finding.Kind.ABOVE_PHYSICAL_BOUND, Finding.Severity.WARNING,
                            String.format(Locale.ROOT, "algbw %.2f GB/s at %d bytes exceeds the %.0f GB/s memory "
                                    + "bandwidth of %s: the operation moved no data (e.g. in-place on one rank), "
                                    + "so its algbw/busbw are not bandwidths", t.algBw(), p.sizeBytes(), mem,
                                    s.gpu().get().name()), List.of(s.at(p))));
                    return;
                }
            }
        }
    }

    private static List<Finding.Evidence> evidenceOfPeak(Subject s) {
        Dataset d = s.dataset();
        if (d.kind() == DatasetKind.SUMMARY) {
            return List.of(s.at(d.line()));
        }
        return s.peakPoint().map(p -> List.of(s.at(p))).orElse(List.of(s.at(d.line())));
    }
}
