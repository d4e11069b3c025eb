package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import org.junit.jupiter.api.Test;

/** Which calls the one-node chain covers and its algBw/busBw ratio, from the data movement of a chain by hand. */
class IntraNodeChainTest {

    /**
     * Chain of 2: each end has one neighbour and sends S (the leaf up, the root down): ratio 1. Chain of 3 or 8: the
     * middle ranks send S to the parent and S to the child: ratio 1/2.
     */
    @Test
    void ratioIsOneOverTheBusiestRanksSentBytesPerByte() {
        assertEquals(1.0, IntraNodeChain.busToAlgRatio(2));
        assertEquals(0.5, IntraNodeChain.busToAlgRatio(3));
        assertEquals(0.5, IntraNodeChain.busToAlgRatio(8));
        assertThrows(IllegalArgumentException.class, () -> IntraNodeChain.busToAlgRatio(1));
    }

    /** Only Tree AllReduce on one node is a chain; across nodes the tree is a (double binary) tree of nodes. */
    @Test
    void onlyOneNodeTreeAllReduce() {
        assertTrue(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.TREE, 1, 2));
        assertFalse(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.TREE, 2, 16));
        assertFalse(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.RING, 1, 2));
        assertFalse(IntraNodeChain.applies(Collective.BROADCAST, Algorithm.TREE, 1, 2));
        assertFalse(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.TREE, 1, 1));
    }
}
