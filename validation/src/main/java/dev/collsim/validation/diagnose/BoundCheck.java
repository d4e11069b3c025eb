package dev.collsim.validation.diagnose;

import dev.collsim.topology.NcclBandwidths;
import dev.collsim.perf.PerfResult;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.DatasetKind;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Compares the best busbw a dataset reached with the bounds of {@link Bounds}: above the physical bound (cannot be
 * true; also above what the header's NICs carry across hosts), below one PCIe link on an NVLink GPU (NVLink unused), below half of the achievable bound (far below).
 * Also flags an algbw above the GPU's memory bandwidth, which no collective can reach (e.g. an in-place reduce on
 * one rank, which moves nothing).
 */
final class BoundCheck implements Check {

    /**
     * Largest size below which a run says nothing about bandwidth, bytes (8 MiB): at 48 GB/s, one PCIe Gen5 x16 link
     * in NCCL's model, 8 MiB takes 175 us, well above NCCL's launch and step latencies of 10-30 us, while a run that
     * stops at 1 MiB or less is bound by latency on any link.
     */
    static final long BANDWIDTH_BOUND_BYTES = 8L << 20;

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
            ev.add(s.at(n.line()));
            out.add(s.finding(Finding.Kind.ABOVE_PHYSICAL_BOUND, Finding.Severity.WARNING, String.format(Locale.ROOT,
                    "busbw %.2f GB/s is above what %s of NICs per host (%.1f GB/s) can carry for %s on %d "
                            + "ranks over %d hosts (bound %.1f GB/s busbw): the number cannot be true, or the header "
                            + "understates the NICs", peak, n.describe(), n.hostGBps(),
                    d.collective().testName(), d.nRanks(), d.nHosts(), nics.getAsDouble()), ev));
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
        if (bound.isPresent() && peak < 0.5 * bound.getAsDouble()) {
            List<Finding.Evidence> ev = new ArrayList<>(at);
            if (!s.singleHost() && s.nic().isPresent()) {
                ev.add(s.at(s.nic().get().line()));
            }
            String what = s.singleHost() ? String.format(Locale.ROOT, "%s intra-host links (%.0f GB/s per GPU in "
                    + "NCCL's model)", s.gpu().get().name(), NcclBandwidths.gpuIntraHost(s.gpu().get()).gbps())
                    : String.format(Locale.ROOT, "%s of NICs per host (%.1f GB/s)", s.nic().get().describe(),
                    s.nic().get().hostGBps());
            out.add(s.finding(Finding.Kind.FAR_BELOW_BOUND, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                    "busbw peaks at %.2f GB/s, %.0f%% of the %.1f GB/s the hardware allows (%s)", peak,
                    100 * peak / bound.getAsDouble(), bound.getAsDouble(), what), ev));
        }
        return out;
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
                                    s.gpu().get().name()), List.of(s.at(p.line()))));
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
        return s.peakPoint().map(p -> List.of(s.at(p.line()))).orElse(List.of(s.at(d.line())));
    }
}
