package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * What NCCL 2.24.3 runs for AllGather on 4 x 8 H100 (DGX H100 hosts, 8 x 400 Gb/s NICs, Intel CPUs), the shape of
 * A-allgather-4x8xH100-voltagepark-ib-nccl2.24.txt, worked out by hand from {@code git show v2.24.3-1:FILE} of
 * github.com/NVIDIA/nccl (line numbers of that file at that tag).
 *
 * <p>Only Ring is left: NVLS between nodes needs CollNet ({@code src/graph/tuning.cc} line 411), PAT one rank per
 * node (line 176). The ring graph is 8 channels x 48 GB/s (one NIC of 50 GB/s per channel; not duplicated by the
 * search, {@code src/graph/search.cc} line 919: sm90, bwIntra below 50, more than 4 channels), 16 at run time
 * ({@code src/graph/connect.cc} line 455). nRanks 32: nsteps 31, of them 3 network steps (tuning.cc line 318), ring
 * bus-to-algorithm ratio 32/31 (line 286). Per protocol (Intel, more than 2 nodes: llMaxBw 20.4, line 151; Hopper
 * LL128 per-channel cap 36.7, line 159; baseLat line 120, hwLat NVLink Ring 0.6/1.9/3.4, net Ring 2.7/4.0/14 line
 * 139, net overhead 1 us, x 3 for Simple, line 314; latencyInter 0 for IB):
 * <ul>
 *   <li>LL: min(20.4, 384 x 0.5) = 20.4 (line 250) x 32/31 = 21.0581 GB/s; 6.6 + 28 x max(0.6, 1) + 3 x 2.7 = 42.7
 *       us.</li>
 *   <li>LL128: min(384 x 0.92, 8 x 36.7) = 293.6 (line 251) x 32/31 = 303.071 GB/s; 14 + 28 x 1.9 + 3 x 4.0 = 79.2
 *       us.</li>
 *   <li>Simple: 384 x 32/31 = 396.387 GB/s; 8.4 + 28 x max(3.4, 3) + 3 x 14 = 145.6 us.</li>
 * </ul>
 * So LL up to 512 KiB (LL128 overtakes it at 826 kB), LL128 from 1 to 64 MiB, Simple from 128 MiB (it overtakes
 * LL128 at 85.6 MB). Channels ({@code src/enqueue.cc} lines 1681-1684): LL's thread threshold is 8 x nRanks = 256
 * (tuning.cc line 485) with 512 threads, so nc = 16 is cut while nBytes &lt; nc x 131072: 4 channels at 512 KiB; LL128
 * (8 x 640) keeps 16 from 80 KiB.
 */
class AllGatherFourNodeChoiceTest {

    private static final double EPS_US = 0.01;

    private static Prediction at(long bytes) {
        Topology t = TestClusters.dgxH100(4, null);
        PreparedCommunicator comm = new NcclPredictor(NcclVersion.parse("2.24.3"), PerformanceParameters.DEFAULTS)
                .prepare(t, t.gpus(), NcclSettings.DEFAULTS);
        return comm.call(Collective.ALL_GATHER, bytes, DataType.FLOAT, RedOp.SUM)
                .predict(PerformanceParameters.DEFAULTS);
    }

    private static void assertChoice(long bytes, Protocol p, int channels, double ncclUs) {
        Prediction r = at(bytes);
        assertEquals(Algorithm.RING, r.algorithm(), "algorithm at " + bytes + " B");
        assertEquals(p, r.protocol(), "protocol at " + bytes + " B");
        assertEquals(channels, r.nChannels(), "channels at " + bytes + " B");
        assertEquals(ncclUs, r.ncclEstimateUs(), EPS_US, "NCCL's estimate at " + bytes + " B");
    }

    /** 512 KiB: LL 42.7 + 524288 / 21058.1 = 67.597 us (LL128 would be 80.93), on 4 channels. */
    @Test
    void llAt512KiB() {
        assertChoice(512L << 10, Protocol.LL, 4, 42.7 + 524288 / 21058.06);
    }

    /** 1 MiB: LL128 79.2 + 1048576 / 303071 = 82.660 us (LL would be 92.49), 16 channels. */
    @Test
    void ll128At1MiB() {
        assertChoice(1L << 20, Protocol.LL128, 16, 79.2 + 1048576 / 303070.97);
    }

    /** 64 MiB: LL128 79.2 + 67108864 / 303071 = 300.63 us (Simple would be 314.90). */
    @Test
    void ll128At64MiB() {
        assertChoice(64L << 20, Protocol.LL128, 16, 79.2 + 67108864 / 303070.97);
    }

    /** 128 MiB: Simple 145.6 + 134217728 / 396387 = 484.20 us (LL128 would be 522.06). */
    @Test
    void simpleAt128MiB() {
        assertChoice(128L << 20, Protocol.SIMPLE, 16, 145.6 + 134217728 / 396387.10);
    }
}
