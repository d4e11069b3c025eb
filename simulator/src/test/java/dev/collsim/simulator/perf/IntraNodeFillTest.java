package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.tuning.HardwareClass;
import org.junit.jupiter.api.Test;

/** Which calls pay a reduced pipeline fill on one host, and how much, worked by hand from 2 / nRanks. */
class IntraNodeFillTest {

    /** 2 ranks: 2/2 = 1 (the whole fill); 4 ranks: 2/4 = 0.5; 8 ranks: 2/8 = 0.25. */
    @Test
    void ringAndTreeOnOneHostPayTwoOverRanks() {
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, 1, 2), 1e-12);
        assertEquals(0.5, IntraNodeFill.scale(Algorithm.RING, 1, 4), 1e-12);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.RING, 1, 8), 1e-12);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.TREE, 1, 8), 1e-12);
    }

    /** Several nodes, NVLS (its own loop model), PAT and one rank keep the whole fill. */
    @Test
    void everythingElseKeepsTheWholeFill() {
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, 2, 16), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.TREE, 2, 16), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.NVLS, 1, 8), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.NVLS_TREE, 1, 8), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.PAT, 1, 8), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, 1, 1), 0);
    }

    /**
     * A Ring AllReduce, AllGather or ReduceScatter on one host over PCIe pays no fill; a rooted ring (a chain), an
     * NVLink ring, a Tree and a multi-node ring keep the 2 / nRanks form (2/4 = 0.5 for 4 ranks, 1 across nodes).
     */
    @Test
    void symmetricRingsOverPcieOnOneHostPayNoFill() {
        assertEquals(0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, 1, 4, HardwareClass.PCI), 0);
        assertEquals(0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_GATHER, 1, 4, HardwareClass.PCI), 0);
        assertEquals(0, IntraNodeFill.scale(Algorithm.RING, Collective.REDUCE_SCATTER, 1, 4, HardwareClass.PCI), 0);
        assertEquals(0.5, IntraNodeFill.scale(Algorithm.RING, Collective.BROADCAST, 1, 4, HardwareClass.PCI), 1e-12);
        assertEquals(0.5, IntraNodeFill.scale(Algorithm.RING, Collective.REDUCE, 1, 4, HardwareClass.PCI), 1e-12);
        assertEquals(0.5, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, 1, 4, HardwareClass.NVLINK),
                1e-12);
        assertEquals(0.5, IntraNodeFill.scale(Algorithm.TREE, Collective.ALL_REDUCE, 1, 4, HardwareClass.PCI), 1e-12);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, 2, 8, HardwareClass.NET), 0);
    }
}
