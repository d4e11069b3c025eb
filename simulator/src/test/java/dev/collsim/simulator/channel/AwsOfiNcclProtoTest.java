package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * aws-ofi-nccl's NCCL_PROTO=simple on EFA hosts without 128-byte ordering. Expected values from the plugin's source
 * and public logs, not from collsim: v1.13.2-aws {@code src/platform-aws.c} gives p4d.24xlarge the SENDRECV protocol
 * and p5.48xlarge RDMA; on p4d the device refuses FI_OPT_EFA_SENDRECV_IN_ORDER_ALIGNED_128_BYTES and the plugin
 * prints "Setting NCCL_PROTO to \"simple\"" (aws/aws-ofi-nccl issue 715, libfabric 1.22); {@code setenv(..., 0)}
 * keeps a user's NCCL_PROTO; v1.6.0 (2023-04-21) is the first release that sets it.
 */
class AwsOfiNcclProtoTest {

    private static final long[] SIZES = {8, 4L << 20, 1L << 30};

    private static Protocol protocol(PreparedCommunicator c, long bytes) {
        return c.call(Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM)
                .predict(PerformanceParameters.DEFAULTS).protocol();
    }

    /** Two p4d hosts, NCCL 2.23 (the DLAMI run's release): Simple at every size, 8 B included. */
    @Test
    void p4dRunsSimpleOnly() {
        Topology t = ClusterLoader.load("p4d.24xlargex2");
        assertTrue(AwsOfiNcclProto.forcesSimple(t, t.gpus(), NcclSettings.DEFAULTS, 23));
        PreparedCommunicator c = new NcclPredictor(NcclVersion.V2_28_9, PerformanceParameters.DEFAULTS)
                .prepare(t, t.gpus(), NcclSettings.DEFAULTS, 23);
        for (long s : SIZES) {
            assertEquals(Protocol.SIMPLE, protocol(c, s), s + " B");
        }
        assertTrue(c.networkNote(PerformanceParameters.DEFAULTS).orElse("").contains(AwsOfiNcclProto.note()));
    }

    /** Without the rule (NCCL 2.17, before v1.6.0) NCCL's own choice at 8 B is a low-latency protocol. */
    @Test
    void beforeThePluginSetItNcclChoosesFreely() {
        Topology t = ClusterLoader.load("p4d.24xlargex2");
        assertFalse(AwsOfiNcclProto.forcesSimple(t, t.gpus(), NcclSettings.DEFAULTS, 17));
        PreparedCommunicator c = new NcclPredictor(NcclVersion.V2_28_9, PerformanceParameters.DEFAULTS)
                .prepare(t, t.gpus(), NcclSettings.DEFAULTS, 17);
        assertTrue(protocol(c, 8) != Protocol.SIMPLE);
    }

    /** p5 runs the RDMA protocol, whose write ordering EFA reports: no NCCL_PROTO from the plugin. */
    @Test
    void p5KeepsNcclsChoice() {
        Topology t = ClusterLoader.load("p5.48xlargex2");
        assertFalse(AwsOfiNcclProto.forcesSimple(t, t.gpus(), NcclSettings.DEFAULTS, 28));
        PreparedCommunicator c = new NcclPredictor(NcclVersion.V2_28_9, PerformanceParameters.DEFAULTS)
                .prepare(t, t.gpus(), NcclSettings.DEFAULTS, 28);
        assertFalse(c.networkNote(PerformanceParameters.DEFAULTS).orElse("").contains("NCCL_PROTO=simple"));
    }

    /** The user's NCCL_PROTO wins (the plugin calls setenv without overwrite); one host has no EFA traffic. */
    @Test
    void userSettingAndOneHostAreLeftAlone() {
        Topology t = ClusterLoader.load("p4d.24xlargex2");
        NcclSettings ll128 = NcclSettings.parse(Map.of("NCCL_PROTO", "LL128"));
        assertFalse(AwsOfiNcclProto.forcesSimple(t, t.gpus(), ll128, 23));
        assertEquals(ll128, AwsOfiNcclProto.apply(t, t.gpus(), ll128, 23));
        List<Gpu> host0 = t.gpus().stream().filter(g -> g.host() == 0).toList();
        assertEquals(8, host0.size());
        assertFalse(AwsOfiNcclProto.forcesSimple(t, host0, NcclSettings.DEFAULTS, 23));
        assertEquals("simple", AwsOfiNcclProto.apply(t, t.gpus(), NcclSettings.DEFAULTS, 23).asMap()
                .get("NCCL_PROTO"));
    }
}
