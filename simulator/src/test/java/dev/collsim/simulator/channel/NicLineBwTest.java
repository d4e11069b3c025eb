package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.units.Bandwidth;
import org.junit.jupiter.api.Test;

/**
 * A NIC faster than its PCIe link is held to the link in the physical NIC figure the bound reads
 * ({@link ChannelPlan#nodeNicBw}, {@link PhysicalBound}). DGX H100 (NVIDIA DGX H100 User Guide): each ConnectX-7 on a
 * PCIe Gen5 x16 link, 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction (hardware.PcieGen). Its own 400 Gb/s
 * NICs (50 GB/s) fit the link: 8 x 50 = 400 GB/s per node; the same hosts with 800 Gb/s NICs (100 GB/s, a
 * ConnectX-8's port) move at most the link's 63.0: 8 x 63.0 = 504.1 GB/s per node, not 800.
 */
class NicLineBwTest {

    private static ChannelPlan plan(Topology t) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
    }

    @Test
    void aNicFasterThanItsLinkIsHeldToTheLink() throws Exception {
        ClusterSource s = ClusterLoader.resolve("dgx-h100:2", HardwareHints.NONE, null);
        assertEquals(400.0, plan(s.topology()).nodeNicBw(), 1e-6);
        Topology fast = ClusterEditor.build(s.spec(), new ClusterEdits(null, null, Bandwidth.ofGbits(800), null, null,
                null, null, null, null, null));
        ChannelPlan p = plan(fast);
        double link = 32.0 * 16 * 128 / 130 / 8;
        assertEquals(8 * link, p.nodeNicBw(), 1e-3);
        assertEquals(8 * link, p.nodeNetBw(), 1e-3);
        // NCCL's view keeps the port speed: 8 x 100 GB/s (its search does not see the slot as the NIC's)
        assertEquals(800.0, p.nodeNicPortBw(), 1e-6);
        // the bound's network part (PhysicalBound.interBusBw: nic x m/(m-1) x (n-1)/n for 16 ranks on 2 nodes):
        // 504.1 x 2 x 15/16 = 945.2 GB/s busbw, where the NICs' 800 GB/s gave 1500
        assertEquals(8 * link * 2 * 15 / 16.0, PhysicalBound.interBusBw(p, Collective.ALL_GATHER), 1e-3);
    }
}
