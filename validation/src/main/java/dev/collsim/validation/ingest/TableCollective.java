package dev.collsim.validation.ingest;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.perf.PerfResult;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which collectives an nccl-tests table's own columns allow: redop (a reduction, blank or none), root, size over
 * count (nccl-tests getCollByteCount, v2.0.0-v2.19.6 src/*.cu), in-place checks (N/A) and the busbw/algbw factor
 * ({@link BusBandwidth#factor}). {@link DatasetAssembler} weighs these against what the file claims. Stateless.
 */
final class TableCollective {

    private TableCollective() {
    }

    /**
     * Candidate collectives compatible with the columns (ordered by preference). With one rank, count = size for
     * every collective, so per-rank and whole-buffer collectives cannot be told apart and both are candidates.
     */
    static Set<Collective> fromContent(List<PerfPoint> rows, int knownRanks) {
        Set<Collective> out = fromContent(rows, false);
        if (knownRanks == 1) {
            out.addAll(fromContent(rows, true));
        }
        return byBusFactor(out, rows, knownRanks);
    }

    /**
     * Keeps the candidates whose nccl-tests bus factor ({@link BusBandwidth#factor}) on the known ranks is the
     * busbw/algbw of the row with the largest algbw, within the columns' printed 2 decimals (nccl-tests
     * {@code %6.2f}, v2.0.0-v2.17 src/common.cu; v2.19.6 src/util.cu getFloatStr). It tells all_reduce
     * (2(n-1)/n) from sendrecv (1), which v2.13.0 prints alike (redop sum, root -1, count = size, in-place checked).
     * Rows under 1 GB/s, fewer than 3 ranks or a ratio no candidate has leave the candidates as they were.
     */
    private static Set<Collective> byBusFactor(Set<Collective> candidates, List<PerfPoint> rows, int n) {
        if (candidates.size() < 2 || n < 3 || widest(rows).isEmpty()) {
            return candidates;
        }
        Set<Collective> kept = candidates.stream().filter(c -> busFactorFits(c, n, widest(rows).get()))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return kept.isEmpty() ? candidates : kept;
    }

    /** @return the half with the largest algbw of at least 1 GB/s (its printed 2 decimals tell the factor) */
    private static Optional<PerfResult> widest(List<PerfPoint> rows) {
        return rows.stream().map(PerfPoint::primary).filter(x -> x.algBw() >= 1 && x.busBw() > 0)
                .max(Comparator.comparingDouble(PerfResult::algBw));
    }

    /** @return true when busbw / algbw is the factor of c on n ranks within the printed 2 decimals (+-0.005 each) */
    private static boolean busFactorFits(Collective c, int n, PerfResult r) {
        double ratio = r.busBw() / r.algBw();
        double tolerance = ratio * (0.005 / r.algBw() + 0.005 / r.busBw()) + 1e-9;
        return Math.abs(BusBandwidth.factor(c, n) - ratio) <= tolerance;
    }

    private static Set<Collective> fromContent(List<PerfPoint> rows, boolean forcePerRank) {
        List<PerfPoint> sized = rows.stream().filter(r -> r.sizeBytes() > 0 && r.count() > 0).toList();
        if (sized.isEmpty()) {
            return EnumSet.noneOf(Collective.class);
        }
        // no redop column: nccl-tests before 2.13 print none for all_gather and sendrecv ("size count type") and
        // broadcast ("size count type root"; v2.0.0-v2.11.0 src/all_gather.cu, sendrecv.cu, broadcast.cu)
        // a blank redop cell (""): the test passed no op name (v2.10.0-v2.13.3, NcclTestsRows.blankRedop)
        boolean reduction = sized.get(0).redop() != null
                && majority(sized, r -> !r.redop().isEmpty() && !r.redop().equalsIgnoreCase("none"));
        boolean hasRoot = sized.get(0).root() != Integer.MIN_VALUE;
        // v2.10.0-v2.11.0 print a redop column without a root column only for reductions and alltoall, whose cell
        // is blank (src/alltoall.cu:11-19); all_gather, sendrecv and hypercube print no redop column there
        boolean blankOpNoRoot = !hasRoot && majority(sized, r -> r.redop() != null && r.redop().isEmpty());
        boolean rooted = hasRoot && majority(sized, r -> r.root() >= 0);
        long ratio = sizeOverCount(sized);
        boolean perRank = ratio > 1 || forcePerRank;
        boolean inPlaceUnchecked = sized.stream().allMatch(r -> r.inPlace() == null || !r.inPlace().checked())
                && sized.stream().anyMatch(r -> r.outOfPlace() != null && r.outOfPlace().checked());
        Set<Collective> out = new LinkedHashSet<>();
        if (reduction) {
            if (perRank) {
                out.add(Collective.REDUCE_SCATTER);
            } else if (rooted) {
                out.add(Collective.REDUCE);
            } else {
                // nccl-tests 2.19.6 prints redop 'sum' and root -1 for sendrecv too (as it printed on the lent H200:
                // data/device/h200-nccl-tests-sendrecv.txt); its in-place #wrong is N/A, which all_reduce never prints
                if (inPlaceUnchecked) {
                    out.add(Collective.SEND_RECV);
                }
                out.add(Collective.ALL_REDUCE);
                if (!hasRoot) {
                    out.add(Collective.REDUCE);
                }
                out.add(Collective.SEND_RECV);
            }
        } else if (rooted) {
            out.add(perRank ? Collective.SCATTER : Collective.BROADCAST);
            if (perRank) {
                out.add(Collective.GATHER);
            }
        } else if (perRank) {
            if (inPlaceUnchecked || blankOpNoRoot) {
                out.add(Collective.ALL_TO_ALL);
                out.add(Collective.ALL_GATHER);
            } else {
                out.add(Collective.ALL_GATHER);
                out.add(Collective.ALL_TO_ALL);
            }
        } else {
            out.add(Collective.SEND_RECV);
            if (!hasRoot) {
                out.add(Collective.BROADCAST);
            }
        }
        return out;
    }

    private static boolean majority(List<PerfPoint> rows, Function<PerfPoint, Boolean> test) {
        long yes = rows.stream().filter(test::apply).count();
        return yes * 2 > rows.size();
    }

    /** @return the most common size/(count x element size), 1 when count equals size in elements */
    static long sizeOverCount(List<PerfPoint> rows) {
        Map<Long, Long> votes = new LinkedHashMap<>();
        for (PerfPoint r : rows) {
            PerfPoint p = r;
            if (p.count() <= 0 || p.sizeBytes() <= 0) {
                continue;
            }
            int elt = eltSize(r.type());
            long bytesPerRank = p.count() * elt;
            if (bytesPerRank > 0 && p.sizeBytes() % bytesPerRank == 0) {
                votes.merge(p.sizeBytes() / bytesPerRank, 1L, Long::sum);
            } else if (bytesPerRank > 0) {
                votes.merge(Math.round((double) p.sizeBytes() / bytesPerRank), 1L, Long::sum);
            }
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(1L);
    }

    static int eltSize(String type) {
        try {
            return DataType.parse(type).size();
        } catch (IllegalArgumentException e) {
            return 1;
        }
    }
}
