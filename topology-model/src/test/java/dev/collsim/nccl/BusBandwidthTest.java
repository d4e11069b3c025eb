package dev.collsim.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BusBandwidthTest {

    /** Factors from nccl-tests 2.19.6 src/*.cu GetBw: AllReduce 2(n-1)/n, AllGather (n-1)/n, Broadcast 1. */
    @Test
    void factorsMatchNcclTests() {
        assertEquals(1.75, BusBandwidth.factor(Collective.ALL_REDUCE, 8), 1e-12);
        assertEquals(0.875, BusBandwidth.factor(Collective.ALL_GATHER, 8), 1e-12);
        assertEquals(0.875, BusBandwidth.factor(Collective.REDUCE_SCATTER, 8), 1e-12);
        assertEquals(0.875, BusBandwidth.factor(Collective.ALL_TO_ALL, 8), 1e-12);
        assertEquals(1.0, BusBandwidth.factor(Collective.BROADCAST, 8), 1e-12);
        assertEquals(1.0, BusBandwidth.factor(Collective.SEND_RECV, 8), 1e-12);
        assertEquals(0.0, BusBandwidth.factor(Collective.ALL_REDUCE, 1), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> BusBandwidth.factor(Collective.ALL_REDUCE, 0));
    }

    /**
     * Hand-worked: 1 GiB AllReduce on 8 ranks in 1 s: algbw = 2^30 / 1e9 = 1.073741824 GB/s, busbw x 2*7/8 =
     * 1.879048192. AllGather of 1 GiB total on 8 ranks: count = 2^30/4/8 = 2^25 floats per rank, algbw counts
     * all 8 ranks' data (count x 4 x 8 = 2^30 B) = 1.073741824, busbw x 7/8 = 0.939524096.
     */
    @Test
    void bandwidthDefinitions() {
        CollGeometry ar = CollGeometry.ofSize(Collective.ALL_REDUCE, 1L << 30, 4, 8);
        long arBytes = BusBandwidth.algBytes(Collective.ALL_REDUCE, ar.paramCount(), 4, 8);
        assertEquals(1L << 30, arBytes);
        assertEquals(1.073741824, BusBandwidth.algBw(arBytes, 1e6), 1e-12);
        assertEquals(1.879048192, BusBandwidth.busBw(Collective.ALL_REDUCE, 8, arBytes, 1e6), 1e-12);
        CollGeometry ag = CollGeometry.ofSize(Collective.ALL_GATHER, 1L << 30, 4, 8);
        assertEquals(1L << 25, ag.paramCount());
        assertEquals(1L << 30, BusBandwidth.algBytes(Collective.ALL_GATHER, ag.paramCount(), 4, 8));
        assertEquals(1L << 30, ag.sizeBytes(4));
        assertEquals(0.939524096, BusBandwidth.busBw(Collective.ALL_GATHER, 8, 1L << 30, 1e6), 1e-12);
        assertEquals(0, BusBandwidth.algBw(1L << 30, 0));
    }

    /** The inverses: 1e6 B at 10 GB/s take 100 us; busbw 17.5 on 8-rank AllReduce is algbw 10. */
    @Test
    void inverses() {
        assertEquals(100.0, BusBandwidth.timeUs(1e6, 10), 1e-12);
        assertEquals(10.0, BusBandwidth.algBwFromBusBw(Collective.ALL_REDUCE, 8, 17.5), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, BusBandwidth.algBwFromBusBw(Collective.ALL_REDUCE, 1, 5));
    }

    /**
     * nccl-tests 2.19.6 src/reduce_scatter.cu GetCollByteCount: 1000 floats on 8 ranks: 1000/8 = 125 per rank,
     * rounded down to a multiple of 16 B = 4 floats: 124; in place, rank r's output starts 124 x r in; the
     * size column is 124 x 8 x 4 = 3968 B.
     */
    @Test
    void geometryRoundsPerRankCountsTo16Bytes() {
        CollGeometry rs = CollGeometry.of(Collective.REDUCE_SCATTER, 1000, 4, 8);
        assertEquals(124, rs.paramCount());
        assertEquals(124, rs.recvInplaceOffset());
        assertEquals(992, rs.sendCount());
        assertEquals(3968, rs.sizeBytes(4));
        assertEquals((1L << 30) / 4, CollGeometry.ofSize(Collective.ALL_REDUCE, 1L << 30, 4, 8).paramCount());
    }

    /** 8-rank AllReduce has ratio 1.75 = 2 x 7/8; 4-rank AllGather 0.75 = 3/4; Broadcast's 1 says nothing. */
    @Test
    void ranksFromTheRatio() {
        assertEquals(8, BusBandwidth.ranksForFactor(Collective.ALL_REDUCE, 1.75));
        assertEquals(4, BusBandwidth.ranksForFactor(Collective.ALL_GATHER, 0.75));
        assertEquals(0, BusBandwidth.ranksForFactor(Collective.BROADCAST, 1.0));
        assertEquals(0, BusBandwidth.ranksForFactor(Collective.ALL_GATHER, 1.0));
    }
}
