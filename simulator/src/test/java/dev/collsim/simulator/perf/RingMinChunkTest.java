package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.ReleaseRules;
import org.junit.jupiter.api.Test;

/**
 * Ring AllReduce LL128 of NCCL 2.19 and older rounds each channel's share of a step up to {@code minChunkSize}
 * (v2.8.4-1 {@code all_reduce.h}, v2.19.4-1 {@code runRing}: {@code DIVUP(size, nChannels * nranks * minChunkSize) *
 * minChunkSize}); expected factors by hand: rounded share x channels x ranks / bytes.
 */
class RingMinChunkTest {

    private static final ReleaseRules R28 = new ReleaseRules(NcclVersion.V2_18_5, 8);
    private static final ReleaseRules R19 = new ReleaseRules(NcclVersion.V2_19_4, 19);
    private static final ReleaseRules R20 = new ReleaseRules(NcclVersion.V2_21_5, 20);

    @Test
    void releaseRule() {
        assertTrue(RingMinChunk.ringRoundsChunksToMinChunk(R28));
        assertTrue(RingMinChunk.ringRoundsChunksToMinChunk(R19));
        assertFalse(RingMinChunk.ringRoundsChunksToMinChunk(R20));
        assertFalse(RingMinChunk.ringRoundsChunksToMinChunk(new ReleaseRules(NcclVersion.V2_30_7)));
    }

    /**
     * LL128, 640 threads: minChunkSize 640 x 60 / 2 = 19200 bytes; 4 ranks x 24 channels = 96 shares. 1 MiB: one
     * 19200-byte unit each, 19200 x 96 / 1048576 = 1.7578125; 2 MiB: DIVUP(2097152, 1843200) = 2 units, 38400 x 96 /
     * 2097152 = 1.7578125; 4 MiB: 3 units, 57600 x 96 / 4194304 = 1.318359375.
     */
    @Test
    void channelZerosShareByHand() {
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(1.7578125, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 1L << 20,
                24, 4, 640, s, R28), 1e-12);
        assertEquals(1.7578125, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 2L << 20,
                24, 4, 640, s, R19), 1e-12);
        assertEquals(1.318359375, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128,
                4L << 20, 24, 4, 640, s, R28), 1e-12);
        assertEquals(1.0, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL, 1L << 20, 24, 8, 512,
                s, R28), "LL rounds to 4096 bytes (x1.5 here) but runs at llMaxBw for all channels together");
    }

    @Test
    void evenWhereNothingRounds() {
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(1.0, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 1L << 20, 24, 4,
                640, s, R20), "2.20-2.21 round on the host instead (not modelled), 2.22 on evenly");
        assertEquals(1.0, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 1L << 20, 24, 4,
                512, s, R28));
        assertEquals(1.0, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL128, 1L << 20, 24, 4,
                640, s, R28));
        assertEquals(1.0, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 1L << 30, 24, 4,
                640, s, R28), "1 GiB: many loops of 96 x 576000 bytes, taken as even");
        // 4 ranks x 24 channels x 19200 bytes: DIVUP(1843200, 1843200) = 1 unit, exactly the even share
        assertEquals(1.0, RingMinChunk.factor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 1843200, 24, 4,
                640, s, R28), 1e-12);
    }
}
