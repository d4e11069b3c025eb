package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModel;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.validation.ingest.Dataset;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * Bus-bandwidth bounds of a dataset's hardware, GB/s.
 *
 * <p>Upper (impossible-above) bound: each GPU injects at most its link bandwidth per direction, so algbw x
 * bytes-per-rank-factor cannot exceed it. With in-switch reduction (NVLS) an AllReduce moves each byte once per
 * GPU, so its busbw can reach 2(n-1)/n x the link (that is how H100 NVLS reports 476 GB/s busbw on 450 GB/s links);
 * every other case is bounded by the link itself (nccl-tests 2.19.6 {@code doc/PERFORMANCE.md}: busbw is the
 * per-rank link traffic of the ring algorithm). The datasheet peak is used, with 5% slack. Across hosts the host's
 * NICs as the header states them bound it too ({@link #impossibleAboveNics}).
 *
 * <p>Achievable bound: the smaller of the intra-host figure in NCCL's model (NVLink links x per-link bw, or the
 * PCIe x16 figure) and, across hosts, the host's NICs as the simulator bounds them for NCCL's algorithms
 * ({@link PhysicalBound#nicBusBw} with the Ring algorithm: a ring leaves each host once per channel, so its busbw is
 * at most the host's total NIC bandwidth; AllToAll: the host's NIC bandwidth shared by its g GPUs, scaled by
 * (n-1)/(n-g); Gather/Scatter: only the (n-g)/n S addressed off the root's host crosses its NICs).
 */
final class Bounds {

    /**
     * The factor above an impossible-above bound that a measurement may still reach before it is called impossible:
     * 5 % for timing noise and datasheet rounding (collsim's choice; no external source).
     */
    static final double SLACK = 1.05;

    private static final Pattern MNNVL = Pattern.compile("mnnvl|multi-node nvlink|nvl(36|72)");

    private Bounds() {
    }

    /** @return busbw above which a measurement on this hardware cannot be true, if the GPU is known */
    static OptionalDouble impossibleAbove(Subject s) {
        if (s.gpu().isEmpty() || s.dataset().nRanks() < 2) {
            return OptionalDouble.empty();
        }
        GpuModel g = s.gpu().get();
        Dataset d = s.dataset();
        double link = g.intraHostPhysical().gbps();
        if (link <= 0) {
            return OptionalDouble.empty();
        }
        double factor = d.collective() == Collective.ALL_REDUCE && (g.nvls() || !s.singleHost())
                ? BusBandwidth.factor(d.collective(), d.nRanks()) : 1.0;
        return OptionalDouble.of(SLACK * link * factor);
    }

    /**
     * @return busbw above which a run over several hosts cannot be true with the NICs its header states, GB/s: the
     *         least a host must move over its NICs for any algorithm ({@link PhysicalBound#nicBusBw} with the hosts
     *         spanned, not the ring); for AllReduce in-network reduction (SHARP/CollNet) lets a host send and receive
     *         only S, so busbw there is at most busBwFactor x the host's NICs. 5% slack, as for the link bound.
     *         None when the header names multi-node NVLink (MNNVL, NVL72): there hosts share one NVLink domain and
     *         traffic between them need not cross the NICs.
     */
    static OptionalDouble impossibleAboveNics(Subject s) {
        Dataset d = s.dataset();
        int n = d.nRanks();
        int perHost = d.gpusPerHost();
        String hw = (d.header().text("interconnect") + " " + d.header().text("hardware")).toLowerCase(Locale.ROOT);
        if (s.nic().isEmpty() || d.nHosts() < 2 || n <= perHost || MNNVL.matcher(hw).find()) {
            return OptionalDouble.empty();
        }
        double host = s.nic().get().hostGBps();
        double bound = d.collective() == Collective.ALL_REDUCE ? BusBandwidth.factor(d.collective(), n) * host
                : PhysicalBound.nicBusBw(d.collective(), false, n, d.nHosts(), perHost, host);
        return OptionalDouble.of(SLACK * bound);
    }

    /**
     * @return busbw NCCL's Ring algorithm allows on the NICs the header states, GB/s ({@link PhysicalBound#nicBusBw}
     *         with the ring: it leaves each host once per channel), for a collective other than AllReduce whose ring
     *         bound is below {@link #impossibleAboveNics}'s (without its slack): compare's physical busbw bound
     *         for it. Empty otherwise (AllReduce: NCCL's trees reach the any-algorithm bound).
     */
    static OptionalDouble ringBelowNics(Subject s) {
        Dataset d = s.dataset();
        OptionalDouble any = impossibleAboveNics(s);
        if (any.isEmpty() || d.collective() == Collective.ALL_REDUCE) {
            return OptionalDouble.empty();
        }
        double ring = PhysicalBound.nicBusBw(d.collective(), true, d.nRanks(), d.nHosts(), d.gpusPerHost(),
                s.nic().get().hostGBps());
        return ring < any.getAsDouble() / SLACK - 0.05 ? OptionalDouble.of(ring) : OptionalDouble.empty();
    }

    /** @return the busbw the hardware should allow for this dataset, GB/s, if enough is known */
    static OptionalDouble achievable(Subject s) {
        if (s.gpu().isEmpty()) {
            return OptionalDouble.empty();
        }
        Dataset d = s.dataset();
        GpuModel g = s.gpu().get();
        // NVLink-bridge pairs (A100 PCIe, H100 NVL): more than two GPUs must cross PCIe between pairs
        double intra = g.name().contains("bridge") && d.nRanks() > 2 ? NcclBandwidths.gpuPcie(g).gbps()
                : NcclBandwidths.gpuIntraHost(g).gbps();
        if (s.singleHost()) {
            return intra > 0 ? OptionalDouble.of(intra) : OptionalDouble.empty();
        }
        if (s.nic().isEmpty()) {
            return OptionalDouble.empty();
        }
        int n = d.nRanks();
        int perHost = d.gpusPerHost();
        double net = n > perHost ? PhysicalBound.nicBusBw(d.collective(), true, n, Math.max(2, d.nHosts()), perHost,
                s.nic().get().hostGBps()) : s.nic().get().hostGBps();
        return OptionalDouble.of(intra > 0 ? Math.min(intra, net) : net);
    }
}
