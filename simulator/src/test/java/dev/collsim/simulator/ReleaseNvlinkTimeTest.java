package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run older than its entry searches with its release's NVLink figure for NCCL's choice, while the time keeps 2.18's
 * (docs/nccl-releases.md item 27): the links move the same bytes in every release.
 */
class ReleaseNvlinkTimeTest {

    private static PreparedCall call(int runMinor) {
        Topology t = TestClusters.cluster(TestClusters.DGX_A100, 1);
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        return PreparedCommunicator.prepare(t, t.gpus(), s, NcclVersion.V2_18_5, runMinor)
                .call(Collective.ALL_REDUCE, 1L << 30, DataType.FLOAT, RedOp.SUM);
    }

    /**
     * DGX A100, Ring/Simple AllReduce of 1 GiB, a 2.16 run against a 2.18 run (both the 2.18.5 entry). NCCL's own
     * estimate reads its Ring busBw nChannels x bwIntra: 12 x 22 = 264 GB/s under 2.16 (v2.16.5-1 topo.h line 16, the
     * intra array's 44 halved by the duplication), 12 x 20 = 240 under 2.18, so its bandwidth term is 240/264 of 2.18's
     * (the latency term, 2.18's rules in both, is the same). collsim's time is the same for both runs.
     */
    @Test
    void choiceReadsTheRunsFigureTimeDoesNot() {
        PreparedCall c16 = call(16);
        PreparedCall c18 = call(18);
        double lat = c18.choice().timeUs() - (1L << 30) / 240e3 * 2 * 7 / 8;
        assertTrue(lat > 0 && lat < 100, "2.18 estimate's latency part, us: " + lat);
        assertEquals(lat + (1L << 30) / 264e3 * 2 * 7 / 8, c16.choice().timeUs(), 0.01 * c16.choice().timeUs());
        assertEquals(c18.predict(PerformanceParameters.DEFAULTS).timeUs(),
                c16.predict(PerformanceParameters.DEFAULTS).timeUs(), 1e-9);
    }
}
