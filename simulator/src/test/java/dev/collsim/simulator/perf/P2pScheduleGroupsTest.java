package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * The channels a rank's p2p sends run on across nodes ({@link P2pPeerChannels#busyChannels}), worked out from NCCL
 * 2.28.9 {@code src/include/channel.h ncclP2pChannelBaseForRound} and {@code src/enqueue.cc addP2pToPlan} for a
 * Scatter root on two AWS p4d.24xlarge (8 A100 on NVLink, 4 EFA NICs per host, 8 p2p channels).
 */
class P2pScheduleGroupsTest {

    /**
     * Channels per peer (2.28.9 {@code paths.cc}): an NVLink peer 2 x 12 links, a network peer 2 (2 x 16 ranks is
     * not above 4 x 8 channels): 2. An operation of 512 KiB (8 MiB over 16 ranks): nChannelsMin 2 halved to 1
     * (2 x 16 &gt; 8), one part of 512 KiB above maxPart 128 KiB doubles to 2 channels. 15 peers in rounds 1..15, 8
     * rounds a group: groups of rounds 0-7 and 8-15, two bases (0 and reverseBits(1) = 4), each op on base + part:
     * channels 0, 1 and 4, 5, 4 in all; counted per peer they would be min(8, 15 x 2) = 8.
     */
    @Test
    void aScatterRootBetweenTwoP4dRunsOnFourChannels() {
        Topology t = ClusterLoader.load("p4d.24xlargex2");
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_28_9);
        long perPeer = (8L << 20) / 16;
        assertEquals(2, P2pPeerChannels.forOperation(p, NcclSettings.DEFAULTS, PathType.NVL, perPeer,
                NcclVersion.V2_28_9));
        assertEquals(4, P2pPeerChannels.busyChannels(p, NcclSettings.DEFAULTS, PathType.NVL, 15, perPeer,
                NcclVersion.V2_28_9));
        assertEquals(8, P2pPeerChannels.busy(p, NcclSettings.DEFAULTS, PathType.NVL, 15, perPeer,
                NcclVersion.V2_28_9));
    }

    /** On one host every round has its own base: the count per peer stands, min(8, 7 x 2) = 8. */
    @Test
    void oneHostKeepsOneBasePerRound() {
        Topology t = ClusterLoader.load("p4d.24xlarge");
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_28_9);
        assertEquals(P2pPeerChannels.busy(p, NcclSettings.DEFAULTS, PathType.NVL, 7, 1L << 20, NcclVersion.V2_28_9),
                P2pPeerChannels.busyChannels(p, NcclSettings.DEFAULTS, PathType.NVL, 7, 1L << 20,
                        NcclVersion.V2_28_9));
    }
}
