package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * One no-fill rule for both backends: where the latency the analytical model reads holds a Tree/Simple chunk's trip
 * hop by hop (NCCL 2.8.4 {@code src/graph/tuning.cc} line 61: Tree/Simple hwLat 28 us on every link, "the latency
 * a 256kB chunk"), the flow backend's Tree schedule runs its chunks without the pipeline's fill steps.
 */
class TreeNoFillTest {

    /**
     * 1 MiB AllReduce over 2 ranks on 2 hosts, 1 channel (depth 1): NCCL 2.19's chunk is 128 KiB (TreeChunkTest), 4
     * chunks per tree; with the fill 4 + 2 x 1 - 1 = 5 steps, without it 4 steps, each moving a 128 KiB chunk up
     * and one down on both trees. The bytes on the wire are the same: 2 trees x 4 chunks x 128 KiB x 2 directions =
     * 2 MiB. NCCL 2.30 (512 KiB, 1 chunk): 2 steps with the fill, 1 without.
     */
    @Test
    void withoutFillRunsOnlyTheChunks() {
        ScheduleRequest r = new ScheduleRequest(Collective.ALL_REDUCE, 1L << 20, 2, 1, 1);
        TreeSchedule v219 = new TreeSchedule(NcclVersion.V2_19_4, Protocol.SIMPLE);
        Schedule filled = v219.schedule(r);
        Schedule held = v219.withoutFill().schedule(r);
        assertEquals(5, filled.stepCount());
        assertEquals(4, held.stepCount());
        assertEquals(4, held.steps().get(0).transfers().size());
        assertEquals(131072, held.steps().get(0).transfers().get(0).bytes(), 1e-9);
        assertEquals(2L << 20, held.totalBytes(), 1e-6);
        assertEquals(filled.totalBytes(), held.totalBytes(), 1e-6);
        assertEquals(1, new TreeSchedule(NcclVersion.V2_30_7, Protocol.SIMPLE).withoutFill().schedule(r).stepCount());
        assertNotEquals(v219, v219.withoutFill());
    }

    /**
     * The rule on two A100 hosts: NCCL 2.8.4's and 2.19's Tree/Simple latency is the 28 us chunk figure (v2.8.4-1
     * {@code src/graph/tuning.cc} line 61; v2.19.4-1 the same on every link), but their time reads 2.18.5's hop
     * figures (4 us NVLink, 14 us network; tuning.RemeasuredLatency, any GPU), so both charge the fill; 2.30's is a
     * hop's own 4 us: fill. One host has no tree between nodes. Every release collsim models with the 28 us figure is
     * timed on 2.18.5's, so the rule holds for none of them now.
     */
    @Test
    void predictorSaysWhereTheLatencyHoldsTheChunk() throws Exception {
        Topology two = ClusterLoader.load("dgx-a100:2");
        Topology one = ClusterLoader.load("dgx-a100");
        assertFalse(held(NcclVersion.V2_8_4, two));
        assertFalse(held(NcclVersion.V2_19_4, two));
        assertFalse(held(NcclVersion.V2_30_7, two));
        assertFalse(held(NcclVersion.V2_8_4, one));
    }

    private static boolean held(NcclVersion v, Topology t) {
        return new NcclPredictor(v, PerformanceParameters.DEFAULTS).treeFillInLatency(new PredictionRequest(t,
                t.gpus(), Collective.ALL_REDUCE, 1L << 20, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
    }
}
