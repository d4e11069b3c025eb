package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import org.junit.jupiter.api.Test;

/**
 * libfabric's eager copy of each remote connection's first p2p send ({@link P2pModel#eagerCopyUs}) and the Simple
 * protocol of sends between nodes ({@link P2pPeerChannels#netProtocol}), worked out by hand for a Scatter on two AWS
 * p4d.24xlarge (8 A100 and 4 EFA NICs per host; A-scatter-2x8xA100-40GB-aws-p4d-efa-slurm-awsome-distributed-
 * training-nccl2.18.txt, NCCL 2.18.3 with aws-ofi-nccl 1.5.0 and libfabric 1.18.1).
 */
class P2pEagerCopyTest {

    private static final long S = 8L << 20;

    private static ChannelPlan plan(String cluster) {
        return SimulatorFixtures.plan(cluster, NcclVersion.V2_28_9);
    }

    private static double timeUs(ChannelPlan p, int runMinor, long bytes) {
        return P2pModel.estimate(p, NcclSettings.DEFAULTS, NcclVersion.V2_28_9, runMinor,
                PerformanceParameters.DEFAULTS, Collective.SCATTER, bytes, p.graphs().ring().typeIntra()).timeUs();
    }

    /**
     * 8 MiB over 16 ranks is 512 KiB per peer; the p2p chunk across nodes is NCCL_P2P_NET_CHUNKSIZE 128 KiB, and
     * 512 KiB is below 8 chunks, so NCCL halves the network send to 64 KiB (v2.18.3-1 {@code src/proxy.cc
     * ncclProxyComputeP2p}); the operation's 2 channels carry 256 KiB each, more than one send. 64 KiB is below
     * libfabric's 307200 B runt size, so the whole first send is copied at 1.7 GB/s: 65536 / 1700 = 38.551 us,
     * charged for a run of NCCL 2.18 and not for one before 2.15 (libfabric without the runting read).
     */
    @Test
    void firstRemoteSendIsCopiedOnceOnP4d() {
        ChannelPlan p = plan("p4d.24xlargex2");
        assertEquals(65536, P2pPeerChannels.netSendBytes(p, NcclSettings.DEFAULTS, PathType.NVL, S / 16,
                NcclVersion.V2_28_9));
        assertEquals(65536 / 1700.0, P2pModel.eagerCopyUs(p, 18, 65536), 1e-9);
        assertEquals(65536 / 1700.0, timeUs(p, 18, S) - timeUs(p, 14, S), 1e-6);
    }

    /** InfiniBand hosts: no libfabric, nothing charged. */
    @Test
    void nothingOnInfiniband() {
        ChannelPlan p = plan("dgx-h100x2");
        assertEquals(0.0, P2pModel.eagerCopyUs(p, 28, 65536), 0);
        assertEquals(timeUs(p, 14, S), timeUs(p, 28, S), 1e-9);
    }

    /**
     * A 1 KiB Scatter sends 64 B per peer: a node peer's send runs LL (at most 16384 B per channel), a remote
     * peer's Simple (no LL buffer on a network p2p connection, NCCL 2.30.7 {@code src/transport/net.cc} lines
     * 930-934); the call between nodes is Simple, on one host LL.
     */
    @Test
    void scatterBetweenNodesIsSimpleAtEverySize() {
        assertEquals(Protocol.SIMPLE, P2pModel.protocol(plan("p4d.24xlargex2"), NcclSettings.DEFAULTS,
                NcclVersion.V2_28_9, Collective.SCATTER, 1024, PathType.NVL));
        assertEquals(Protocol.LL, P2pModel.protocol(plan("p4d.24xlarge"), NcclSettings.DEFAULTS,
                NcclVersion.V2_28_9, Collective.SCATTER, 1024, PathType.NVL));
    }
}
