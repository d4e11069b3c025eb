package dev.collsim.simulator.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.perf.IntraNodeChain;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link NcclTuningModel#ringBusBw} and the one-node chain bandwidth built on it, on the fact sheet's §2.8 8x H100
 * example (ring graph 12 channels x 30 GB/s, NVL), worked by hand from §2.3 and the §2.2 constants.
 */
class RingBusBwTest {

    /**
     * Simple: 12 x 30 = 360. LL: min(llMaxBw Hopper one node 141.0, 360 / 2) = 141.0. LL128: min(0.92 x 360 =
     * 331.2, 12 x perChMaxRingLL128Bw 36.7 = 440.4) = 331.2. With NCCL_ALGO=Tree the table's Ring entries are 0, but
     * the links are the same, so ringBusBw does not change.
     */
    @Test
    void ringBusBandwidthIgnoresTheAlgorithmFilter() {
        TuningInput in = TuningFixtures.h100(Map.of("NCCL_ALGO", "Tree"), NcclVersion.parse("2.30"));
        assertEquals(0.0, NcclTuningModel.tune(in).bandwidth(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE));
        assertEquals(360.0, NcclTuningModel.ringBusBw(in, Protocol.SIMPLE), 1e-9);
        assertEquals(141.0, NcclTuningModel.ringBusBw(in, Protocol.LL), 1e-9);
        assertEquals(331.2, NcclTuningModel.ringBusBw(in, Protocol.LL128), 1e-9);
    }

    /**
     * 8 ranks in a chain: a middle rank sends S up and S down, so algBw = 360 / 2 = 180 GB/s (NCCL's own Tree entry
     * is 0.5 x min(0.92 x 360, 12 x 38.7) = 165.6).
     */
    @Test
    void chainOfEightSendsEveryByteTwiceFromItsMiddleRanks() {
        TuningInput in = TuningFixtures.h100(Map.of(), NcclVersion.parse("2.30"));
        assertEquals(180.0, IntraNodeChain.algBw(in, Protocol.SIMPLE), 1e-9);
        assertEquals(165.6, NcclTuningModel.tune(in).bandwidth(Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.SIMPLE), 1e-9);
    }
}
