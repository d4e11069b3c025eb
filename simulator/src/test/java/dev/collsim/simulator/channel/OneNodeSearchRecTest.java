package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NCCL's backtracking ring search on NVLink meshes whose links a ring-at-a-time fill strands. Expected values worked
 * out by hand from the link counts (NCCL's sm70 NVLink figure, 20 GB/s per link, NCCL 2.30 {@code src/graph/topo.h}):
 * every V100 has 6 NVLinks, 120 GB/s, NCCL's {@code totalBw}, so 6 rings at 20 GB/s end the search as perfect when
 * every GPU's 6 links each carry one ring each way.
 * <ul>
 *   <li>ABCI Compute Node (V), 2 links between every pair of 4 GPUs: the 6 rings 0-1-2-3, 0-3-2-1, 0-2-1-3, 0-3-1-2,
 *       0-2-3-1, 0-1-3-2 use every directed pair twice. Four rings (the PCI order and its reverse, twice each) leave
 *       only the diagonals 0-2 and 1-3, which no 4-GPU ring can use alone. The measured run agrees with 6: 112.52
 *       GB/s busbw at 32 MiB (A-allreduce-1x4xV100-16GB-abci-vnode-nccl2.8.txt line 50) is above the 80 GB/s of
 *       4 rings.</li>
 *   <li>DGX-1 V100 hybrid cube mesh: the double links form the cycle 0-4-7-6-5-1-2-3 (two rings each way), the single
 *       links the cycle 0-1-3-7-5-4-6-2 (one ring each way): 6 rings on direct NVLinks (the white paper's pairs,
 *       {@code Dgx1V100}).</li>
 * </ul>
 */
class OneNodeSearchRecTest {

    @ParameterizedTest
    @ValueSource(strings = {"abci-node-v", "dgx1-v100"})
    void everyNvlinkCarriesOneRingEachWay(String host) {
        Topology t = Catalog.standalone(Catalog.hostType(host).orElseThrow(), 1);
        GraphSummary ring = ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of()), NcclVersion.V2_30_7)
                .graphs().ring();
        assertEquals(6, ring.nChannels(), ring.toString());
        assertEquals(20.0, ring.bwIntra(), 1e-9);
        assertEquals(PathType.NVL, ring.typeIntra());
    }
}
