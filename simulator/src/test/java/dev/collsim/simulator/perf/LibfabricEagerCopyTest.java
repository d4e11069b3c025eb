package dev.collsim.simulator.perf;

import static dev.collsim.simulator.SimulatorFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NetworkClass;
import org.junit.jupiter.api.Test;

/**
 * The receiver's copy of an EFA send's eager bytes ({@link LibfabricEagerCopy}), values worked by hand from
 * libfabric's EFA_DEFAULT_RUNT_SIZE (307200 B, ofiwg/libfabric v1.22.0 {@code prov/efa/src/efa.h}), NCCL's Tree/Simple
 * chunk (512 KiB from 2.20; v2.17.1-1 halves it against the tree depth) and the 1.7 GB/s copy rate.
 */
class LibfabricEagerCopyTest {

    /**
     * 2 x p4d, NCCL 2.23, Tree/Simple on 8 channels: at 4 MiB each channel's one send is its 512 KiB chunk, of which
     * 307200 B arrive eagerly: 307200 / 1700 B/us = 180.706 us per crossing, 2 crossings (up and down the 2-node tree):
     * 361.41 us; at 8 MiB (two chunks per channel) the same, only the first send of a crossing is charged; at 32 KiB on
     * one channel the whole call is one send: 2 x 32768 / 1700 = 38.551 us.
     */
    @Test
    void aTwoNodeTreePaysTheFirstSendsEagerBytesOnBothCrossings() {
        ChannelPlan p4d = plan("p4d.24xlargex2");
        assertEquals(NetworkClass.EFA, p4d.netClass());
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(361.41, LibfabricEagerCopy.extraUs(p4d, s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.SIMPLE, 4L << 20, 8, 8, 23), 0.01);
        assertEquals(361.41, LibfabricEagerCopy.extraUs(p4d, s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.SIMPLE, 8L << 20, 8, 8, 23), 0.01);
        assertEquals(38.551, LibfabricEagerCopy.extraUs(p4d, s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.SIMPLE, 32768, 1, 1, 23), 0.001);
    }

    /**
     * NCCL 2.17 halves the Tree/Simple chunk for small calls (v2.17.1-1 {@code src/enqueue.cc}; TreeSimpleFill's
     * worked example: 64 KiB at 4 MiB on 8 channels of 2 x 8 A100): the send is 65536 B, 2 x 65536 / 1700 = 77.101 us.
     */
    @Test
    void beforeNccl220TheHalvedChunkIsTheSend() {
        ChannelPlan p4d = plan("p4d.24xlargex2");
        assertEquals(77.101, LibfabricEagerCopy.extraUs(p4d, NcclSettings.DEFAULTS, Collective.ALL_REDUCE,
                Algorithm.TREE, Protocol.SIMPLE, 4L << 20, 8, 8, 17), 0.001);
    }

    /**
     * Not charged: before libfabric's runting read (NCCL before 2.15 stands for it), on Hopper (p5: the plugin's RDMA
     * write protocol), on InfiniBand, for LL (no such send on these hosts from 2.18: the plugin's NCCL_PROTO=simple),
     * and on one host.
     */
    @Test
    void otherHostsReleasesAndClassesPayNothing() {
        ChannelPlan p4d = plan("p4d.24xlargex2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(0.0, LibfabricEagerCopy.extraUs(p4d, s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.SIMPLE, 4L << 20, 8, 8, 8));
        assertEquals(0.0, LibfabricEagerCopy.extraUs(p4d, s, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL,
                4L << 20, 8, 8, 23));
        assertEquals(0.0, LibfabricEagerCopy.extraUs(plan("p5.48xlargex2"), s, Collective.ALL_REDUCE,
                Algorithm.TREE, Protocol.SIMPLE, 4L << 20, 8, 8, 28));
        assertEquals(0.0, LibfabricEagerCopy.extraUs(plan("dgx-h100x2"), s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.SIMPLE, 4L << 20, 8, 8, 28));
        assertEquals(0.0, LibfabricEagerCopy.extraUs(plan("p4d.24xlarge"), s, Collective.ALL_REDUCE,
                Algorithm.RING, Protocol.SIMPLE, 4L << 20, 8, 8, 23));
    }

    /** The note names the eager share and the rate where the copy is charged, and is absent elsewhere. */
    @Test
    void theNoteNamesTheFigures() {
        String note = LibfabricEagerCopy.note(plan("p4d.24xlargex2"), 23).orElseThrow();
        assertTrue(note.contains("307200 B") && note.contains("1.7 GB/s"), note);
        assertTrue(LibfabricEagerCopy.note(plan("p5.48xlargex2"), 28).isEmpty());
        assertTrue(LibfabricEagerCopy.note(plan("p4d.24xlargex2"), 8).isEmpty());
    }

    /**
     * A Ring/Simple AllReduce between nodes sends one slice of a rank's piece (RingLoopFill's net send share, 1/2 of
     * the 4 x 512 KiB ring chunk: 1 MiB): at 64 MiB on 8 channels x 16 ranks the piece is 512 KiB, above the 307200 B
     * eager share: 2 x 8 ranks per node = 4 crossings (NetHops, ppn 8: 2 nNodes), 4 x 180.706 = 722.82 us.
     */
    @Test
    void aRingPaysOnEveryCrossingOfItsChain() {
        ChannelPlan p4d = plan("p4d.24xlargex2");
        double ring = LibfabricEagerCopy.extraUs(p4d, NcclSettings.DEFAULTS, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.SIMPLE, 64L << 20, 8, 8, 23);
        assertEquals(722.82, ring, 0.01);
        assertTrue(LibfabricEagerCopy.copyUs(1e9, new LibfabricEagerCopy.Provider(307_200, 1.7)) < 181);
    }
}
