package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hierarchical schedule's pipeline (NCCL 2.28.9 {@code src/device/all_reduce.h}, NVLSTree: each channel walks
 * its part of the buffer in loops of nHeads x chunk, every loop going up, across and down while the next one is in
 * the earlier stage), worked out by hand.
 */
class HierarchicalPipelineTest {

    private static final long S = 256L << 20;

    /**
     * 4 hosts x 8 ranks, 8 channels, S = 256 MiB: a loop is 8 channels x 8 heads x 128 KiB (NCCL_NVLS_CHUNKSIZE) =
     * 8 MiB, so 32 chunks and 34 pipeline steps: step 0 ReduceScatter of chunk 0 alone, step 1 adds the inter-host
     * AllReduce of chunk 0, steps 2-31 (30 steps) all three phases, step 32 AllReduce + AllGather, step 33
     * AllGather alone. Per channel and chunk: a ReduceScatter sends 7 x S / (8 x 8 x 32) = 917,504 B over each
     * intra-host ring edge (7 sends of 131,072 B), RS + AG together 1,835,008 B; the inter-host AllReduce
     * 2 x 3 x S / (8 x 4 x 8 x 32) = 196,608 B over each rail ring edge (6 sends of 32,768 B).
     */
    @Test
    void fourHostsOfEightCutInto32Chunks() {
        assertEquals(32, HierarchicalSchedule.pipelineChunks(S, 8, 8));
        Schedule sch = new HierarchicalSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, S, 32, 8, 8));
        List<Step> steps = sch.steps();
        assertEquals(List.of(1L, 1L, 30L, 1L, 1L), steps.stream().map(Step::repeat).toList());
        assertEquals(34, sch.stepCount());
        // step 2: 8 channels x 4 hosts x 8 ranks intra edges, the same count of rail edges
        assertEquals(2 * 8 * 32, steps.get(2).transfers().size());
        assertEquals(256 * 1_835_008.0 + 256 * 196_608.0, steps.get(2).bytesPerCopy(), 1e-6);
        assertEquals(256 * 917_504.0, steps.get(0).bytesPerCopy(), 1e-6);
        assertEquals(256 * 917_504.0 + 256 * 196_608.0, steps.get(1).bytesPerCopy(), 1e-6);
        // each rank sends 2 x 7/8 x S + 2 x 3/4 x S/8 in all, as without the pipeline
        double perRank = 2 * 7.0 / 8 * S + 2 * 3.0 / 4 * S / 8;
        assertEquals(perRank, sch.bytesSentBy(0), 1e-3);
        assertEquals(32 * perRank, sch.totalBytes(), 1e-1);
    }

    /** A call smaller than one loop (1 MiB < 8 MiB) is one chunk: the phases one after the other, 3 steps. */
    @Test
    void oneChunkRunsThePhasesInTurn() {
        assertEquals(1, HierarchicalSchedule.pipelineChunks(1 << 20, 8, 8));
        Schedule sch = new HierarchicalSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 1 << 20, 32, 8,
                8));
        assertEquals(List.of("pipeline intra-host ReduceScatter", "pipeline inter-host AllReduce",
                "pipeline intra-host AllGather"), sch.steps().stream().map(Step::label).toList());
    }

    /** One host (nothing to overlap on other links): the two intra-host phases in turn, 7 + 7 ring steps. */
    @Test
    void oneHostKeepsThePhasesInTurn() {
        Schedule sch = new HierarchicalSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, S, 8, 8, 8));
        assertEquals(14, sch.stepCount());
        assertEquals(2, sch.steps().size());
    }
}
