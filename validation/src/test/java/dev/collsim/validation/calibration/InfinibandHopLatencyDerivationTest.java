package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Why InfiniBand's {@code NetClassProfile.hopLatencyUs} stays 0 (docs/launch-overhead.md, "Multi-host floors"): the
 * rule, fixed before its result was read, takes per healthy multi-host InfiniBand file with sizes below 64 KiB the
 * median measured time at 8-256 B (every row, hiccups included), less the model's floor worked out by hand (NCCL
 * 2.30.7 {@code src/graph/tuning.cc} latency of the algorithm collsim picks, ../shared/nccl-model.md §2.2 and §2.4,
 * plus {@code launchOverheadUs} 1.5), over the network hops {@code NetHops.of} charges (Tree 2 log2 nodes; Ring
 * AllReduce at 2 ranks per node 2 nodes - 1); the class figure would be the median over files. The files disagree
 * by 6 us per hop and the leave-one-file-out median flips sign, so no class figure is made.
 */
class InfinibandHopLatencyDerivationTest {

    /** One dataset: file, its table's line, the hand floor of the model in us and the network hops it charges. */
    private record Floor(String file, int line, double modelUs, int hops) {
    }

    private static final double LAUNCH_US = 1.5;

    /**
     * Hand floors (Intel hosts, NET hwLat Tree/LL 5.0, Ring/LL 2.7, NVLink 0.6, NCCL's getNetOverhead 1.0 us on
     * Intel as the Ring's intra-node step floor): 2x8 Tree/LL 6.8 + 2 x (7 x 0.6 + 5.0) = 25.2; 4x8 Tree/LL
     * 6.8 + 2 x (7 x 0.6 + 2 x 5.0) = 35.2; 2x4 Tree/LL 6.8 + 2 x (3 x 0.6 + 5.0) = 20.4; 2x2 Ring/LL
     * 6.6 + 4 x max(0.6, 1.0) + 2 x 2.7 = 16.0.
     */
    private static final List<Floor> FLOORS = List.of(
            new Floor("A-allreduce-2x8xB200-lambda-1cc-ib-dstack-nccl2.26.txt", 15, 25.2 + LAUNCH_US, 2),
            new Floor("A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt", 13, 25.2 + LAUNCH_US, 2),
            new Floor("A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt", 34, 25.2 + LAUNCH_US, 2),
            new Floor("A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt", 110, 35.2 + LAUNCH_US,
                    4),
            new Floor("A-allreduce-2x2xH100-dgx-ib.txt", 19, 16.0 + LAUNCH_US, 3),
            new Floor("A-allreduce-2x4xH100-16GB.txt", 23, 20.4 + LAUNCH_US, 2));

    /**
     * Per hop, us, by hand from the files' rows at 8-256 B (out of place): Lambda B200 lines 17-22 median of 35.49,
     * 35.55, 35.85, 36.50, 37.36, 37.38 = 36.175, (36.175 - 26.7) / 2 = +4.74; Nebius lines 15-20 30.43, +1.86;
     * xe9680 2x8 lines 36-41 25.485, -0.61; xe9680 4x8 lines 112-117 35.26, (35.26 - 36.7) / 4 = -0.36; DGX 2x2
     * lines 21-26 15.965, (15.965 - 17.5) / 3 = -0.51; Lambda 2x4 H100 lines 25-30 33.145, +5.62.
     */
    private static final double[] BY_HAND = {4.74, 1.86, -0.61, -0.36, -0.51, 5.62};

    @Test
    void filesDisagreeSoInfinibandAddsNoHopLatency() throws Exception {
        double[] perHop = new double[FLOORS.size()];
        for (int i = 0; i < perHop.length; i++) {
            Floor f = FLOORS.get(i);
            perHop[i] = (floorUs(f) - f.modelUs()) / f.hops();
            assertEquals(BY_HAND[i], perHop[i], 0.01, f.file() + ":" + f.line());
        }
        // in sample: (-0.36 + 1.86) / 2 = 0.75 us per hop
        assertEquals(0.75, FileMedians.median(perHop), 0.01);
        // leaving one file out: -0.36 (one of the three slow files out) or 1.86 (one of the three fast ones out)
        double[] range = FileMedians.leaveOneOutRange(perHop);
        double lo = range[0];
        double hi = range[1];
        assertEquals(-0.36, lo, 0.01);
        assertEquals(1.86, hi, 0.01);
        assertTrue(hi - lo > FileMedians.median(perHop),
                "leave-one-out spread is wider than the figure: it does not hold");
        assertEquals(0, PerformanceParameters.DEFAULTS.netProfile(NetworkClass.INFINIBAND).hopLatencyUs());
    }

    /** @return the median measured time at 8-256 B of the dataset at the floor's line, us */
    private static double floorUs(Floor f) throws Exception {
        for (Dataset d : MeasurementReader.read(Path.of(Corpus.DIR.toString(), f.file()))) {
            if (d.line() == f.line()) {
                return FileMedians.median(Comparer.usable(d).stream()
                        .filter(p -> p.sizeBytes() >= 8 && p.sizeBytes() <= 256)
                        .mapToDouble(p -> p.primary().timeUs()).toArray());
            }
        }
        throw new AssertionError("no dataset at " + f.file() + ":" + f.line());
    }

}
