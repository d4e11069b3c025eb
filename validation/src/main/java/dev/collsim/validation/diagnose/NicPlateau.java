package dev.collsim.validation.diagnose;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A run across hosts whose busbw stops growing at a whole number of its hosts' NICs: the largest sizes sit on a flat
 * top (each within {@link #FLAT} of the largest size's busbw, at least {@link #MIN_POINTS} points over at least
 * {@link #MIN_SPAN}x in size), and that top is k NICs' worth of NCCL's ring for some k below the NICs per host: the
 * ring's busbw bound on the stated NICs ({@link PhysicalBound#nicBusBw}, as {@link Bounds#achievable}) divided by
 * the NICs, times k ({@link #MAX_NICS} at most), times a share of the line rate between {@link #SHARE_LOW} and
 * {@link Bounds#SLACK}. A rate that
 * stays there however large the message is a rate limit, not a latency, and its size is that of k links: the traffic
 * leaves each host on k NICs (NCCL_IB_HCA, NICs down or trained slower, GPU-NIC affinity lost, NICs a VM does not
 * pass through).
 */
final class NicPlateau {

    /** Relative spread of a flat top around the largest size's busbw: 10 % (collsim's choice; timing noise). */
    static final double FLAT = 0.10;

    /** Fewest points of a flat top: 3 (two points are a step, not a plateau). */
    static final int MIN_POINTS = 3;

    /** Smallest ratio of the largest to the smallest size of a flat top: 4 (two doublings). */
    static final long MIN_SPAN = 4;

    /**
     * The lowest share of a NIC's line rate that a healthy run moves per NIC used: 0.8, the per-NIC busbw of the bare
     * metal NIC scaling of NVIDIA/nccl-tests#380 (80 GB/s busbw on one of 4 400 Gb/s NICs for 2 x 8 H200, a two-node
     * tree: 2 x 50 GB/s at line rate, 0.80); NCCL's maintainer in NVIDIA/nccl-tests#290 expects 46-48 GB/s of a 400
     * Gb/s NDR NIC (0.92-0.96), and collsim's RoCE share is 0.89 ({@code NetClassDefaults.ROCE_LINE_RATE_SHARE}).
     */
    static final double SHARE_LOW = 0.8;

    /**
     * The most NICs a plateau is read as: 3, the largest k whose band [{@link #SHARE_LOW} k, {@link Bounds#SLACK} k]
     * of one NIC's worth overlaps neither neighbour's (1.05 k below 0.8 (k + 1) holds up to k = 3); from 4 the bands
     * overlap and any level is some whole number of NICs.
     */
    static final int MAX_NICS = 3;

    private NicPlateau() {
    }

    /**
     * What the plateau says.
     *
     * @param level  the flat top's busbw, GB/s (median of its points' best busbw)
     * @param nics   k, the whole number of NICs whose worth the top is
     * @param perNic one NIC's worth of busbw for NCCL's ring at line rate, GB/s
     * @param points the flat top's points, smallest size first
     */
    record Plateau(double level, int nics, double perNic, List<PerfPoint> points) {
    }

    /** @return the plateau at k of the hosts' NICs, if the run across hosts has one */
    static Optional<Plateau> of(Subject s) {
        Dataset d = s.dataset();
        if (s.nic().isEmpty() || s.singleHost() || d.nHosts() < 2 || d.nRanks() <= d.gpusPerHost()) {
            return Optional.empty();
        }
        HeaderNics nic = s.nic().get();
        List<PerfPoint> top = flatTop(d.points());
        if (top.isEmpty() || nic.count() < 2) {
            return Optional.empty();
        }
        double ring = PhysicalBound.nicBusBw(d.collective(), true, d.nRanks(), d.nHosts(), d.gpusPerHost(),
                nic.hostGBps());
        double perNic = ring / nic.count();
        List<Double> bw = top.stream().map(PerfPoint::peakBusBw).sorted().toList();
        double level = bw.size() % 2 == 1 ? bw.get(bw.size() / 2)
                : (bw.get(bw.size() / 2 - 1) + bw.get(bw.size() / 2)) / 2;
        for (int k = 1; k < nic.count() && k <= MAX_NICS; k++) {
            double share = level / (k * perNic);
            if (share >= SHARE_LOW && share <= Bounds.SLACK) {
                return Optional.of(new Plateau(level, k, perNic, top));
            }
        }
        return Optional.empty();
    }

    /** @return the largest sizes' flat top, smallest size first; empty when there is none */
    static List<PerfPoint> flatTop(List<PerfPoint> points) {
        List<PerfPoint> pts = new ArrayList<>(points);
        pts.removeIf(p -> !(p.peakBusBw() > 0) || p.sizeBytes() < BoundCheck.BANDWIDTH_BOUND_BYTES);
        pts.sort(Comparator.comparingLong(PerfPoint::sizeBytes));
        if (pts.isEmpty()) {
            return List.of();
        }
        double last = pts.get(pts.size() - 1).peakBusBw();
        int from = pts.size() - 1;
        while (from > 0 && Math.abs(pts.get(from - 1).peakBusBw() / last - 1) <= FLAT) {
            from--;
        }
        List<PerfPoint> top = pts.subList(from, pts.size());
        boolean wide = top.get(top.size() - 1).sizeBytes() >= MIN_SPAN * top.get(0).sizeBytes();
        return top.size() >= MIN_POINTS && wide ? List.copyOf(top) : List.of();
    }

    /**
     * @return the sentence the far-below finding adds for a plateau. For AllReduce without NCCL_ALGO=Ring it adds the
     *         tree's reading: a ring sends 2(n-1)/n x S over each host's NICs each way (busbw = the NICs' rate), NCCL's
     *         double binary tree S up and S down (algbw = the NICs' rate, busbw up to 2(n-1)/n x it), as the bare
     *         metal run of NVIDIA/nccl-tests#380 shows: 320 GB/s busbw on 4 x 400 Gb/s (200 GB/s)
     */
    static String sentence(Plateau p, Subject s) {
        Dataset d = s.dataset();
        int n = s.nic().get().count();
        String tree = d.collective() == Collective.ALL_REDUCE && !"RING".equalsIgnoreCase(
                d.env().getOrDefault("NCCL_ALGO", "")) ? String.format(Locale.ROOT, " (if NCCL ran its tree here,"
                + " which can reach twice a ring's busbw on the same NICs, %s)", p.nics() % 2 == 0 ? p.nics() / 2
                + " NIC" + (p.nics() / 2 == 1 ? "'s" : "s'") + " worth" : "not a whole number of NICs") : "";
        return String.format(Locale.ROOT, "; it is flat at %.1f GB/s from %d to %d bytes: about %d of the %d NICs'"
                        + " worth for NCCL's ring (%.1f GB/s each at line rate)%s, a rate limit that no size lifts,"
                        + " as if the traffic left each host on %d NIC%s; check NCCL_IB_HCA and NCCL_DEBUG=INFO's"
                        + " 'NET/IB : Using' list, that every NIC is up at its speed (ibstat), GPUDirect RDMA and"
                        + " GPU-NIC affinity (nvidia-smi topo -m), and in a VM that every NIC is passed through",
                p.level(), p.points().get(0).sizeBytes(), p.points().get(p.points().size() - 1).sizeBytes(),
                p.nics(), n, p.perNic(), tree, p.nics(), p.nics() == 1 ? "" : "s");
    }
}
