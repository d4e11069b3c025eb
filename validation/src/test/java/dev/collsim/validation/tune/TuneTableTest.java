package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table's bytes and sizes columns for AllGather, whose nccl-tests size is not the requested one. nccl-tests 2.19.6
 * {@code src/all_gather.cu AllGatherGetCollByteCount}: count = size / 4 (float), per rank base = (count / nranks)
 * rounded down to a multiple of 16 / 4 = 4 elements; it prints size = base x nranks x 4 ({@code src/common.cu
 * TimeTest}: max(sendBytes, expectedBytes)). A base of 0 is an empty call, which NCCL discards before choosing
 * anything (NCCL 2.28.9 {@code src/enqueue.cc taskAppend}), so no line of the tuner file is about it.
 */
class TuneTableTest {

    private static final TuningBand BAND = new TuningBand(10, "test");

    private static TuneResult allGather(int hosts, long maxBytes) {
        Topology t = Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), hosts);
        PreparedCommunicator comm = new NcclPredictor().prepare(t, t.gpus(), NcclSettings.DEFAULTS);
        List<Long> sizes = new ArrayList<>();
        for (long s = 8; s <= maxBytes; s *= 2) {
            sizes.add(s);
        }
        return Tuner.sweep(comm, PerformanceParameters.DEFAULTS, BAND, List.of(Collective.ALL_GATHER), sizes,
                Evidence.NONE);
    }

    /**
     * 2 DGX H100, 16 ranks: 128 B is 32 floats, 2 per rank, rounded down to 0: nccl-tests prints size 0 for 8 to 128
     * B. 256 B: 64 floats, 4 per rank, size 4 x 16 x 4 = 256. So the first point, line and row start at 256 bytes
     * (before: 0, with sizes "8..").
     */
    @Test
    void sizesOfNoElementPerRankAreLeftOutAndTheTableStartsAtTheFirstThatRuns() {
        TuneResult r = allGather(2, 1 << 20);
        assertEquals(16, r.nRanks());
        assertEquals(256, r.points().get(0).bytes());
        assertEquals(256, r.points().get(0).sizeBytes());
        assertEquals(256, r.lines().get(0).minBytes());
        List<String> first = TuneTable.rows(r).get(0);
        assertTrue(first.get(1).startsWith("256.."), first.toString());
        assertTrue(first.get(2).startsWith("256.."), first.toString());
    }

    /**
     * 3 DGX H100, 24 ranks: 1 MiB is 262144 floats, 10922 per rank, rounded down to 10920: nccl-tests prints
     * 10920 x 24 x 4 = 1048320 bytes, and so does the sizes column (before: 1M, the requested size). The first size
     * that runs: 512 B is 128 floats, 5 per rank, rounded to 4: 4 x 24 x 4 = 384 (256 B: 2 per rank, 0).
     */
    @Test
    void theSizesColumnIsWhatNcclTestsPrints() {
        TuneResult r = allGather(3, 1 << 20);
        assertEquals(24, r.nRanks());
        List<List<String>> rows = TuneTable.rows(r);
        assertTrue(rows.get(0).get(2).startsWith("384.."), rows.get(0).toString());
        assertTrue(rows.get(rows.size() - 1).get(2).endsWith("..1048320"), rows.toString());
        assertEquals(1048320, r.lines().get(r.lines().size() - 1).maxBytes());
    }
}
