package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two separately built copies of one cluster have equal, not identical, devices (records). The channel search once
 * looked a rank's links up by object identity, so ranks taken from one copy and predicted on the other had no links:
 * NCCL's search then started from a total bandwidth of 0 and filled MAXCHANNELS (64) ring channels where the cluster
 * has 24, and NVLS disappeared. The expected counts come from NCCL's own log on the same GPUs and NVSwitch, AWS
 * p5.48xlarge (8 x H100 SXM, NVLink4/NVSwitch as in a DGX H100, 3,200 Gb/s of NICs per node as a DGX H100's 8 x 400
 * Gb/s): validation data {@code D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt} line 14, one node, "NCCL INFO 24
 * coll channels, 16 nvls channels"; line 23, two nodes, "16 coll channels".
 */
class ClusterCopiesTest {

    private static final String YAML = "schema: collsim/v1\nname: dgx-h100\nhosts: dgx-h100\ncount: %d\n";

    private static Prediction predict(Topology t, List<Gpu> ranks, Collective c) {
        return new NcclPredictor().predict(new PredictionRequest(t, ranks, c, 1L << 30, DataType.FLOAT, RedOp.SUM,
                NcclSettings.DEFAULTS));
    }

    /** The same YAML read twice: ranks of the first copy predicted on the second get NCCL's 24 ring / 16 NVLS. */
    @Test
    void sameYamlTwiceKeepsNcclsChannels() throws Exception {
        Topology a = ClusterLoader.read("dgx-h100.yaml", YAML.formatted(1));
        Topology b = ClusterLoader.read("dgx-h100.yaml", YAML.formatted(1));
        assertNotSame(a.gpus().get(0), b.gpus().get(0));
        assertEquals(a.gpus(), b.gpus(), "the copies' GPUs are equal records");
        Prediction gather = predict(b, a.gpus(), Collective.ALL_GATHER);
        assertEquals(Algorithm.RING, gather.algorithm());
        assertEquals(24, gather.nChannels(), "p5 log line 14: 24 coll channels");
        Prediction reduce = predict(b, a.gpus(), Collective.ALL_REDUCE);
        assertEquals(Algorithm.NVLS, reduce.algorithm(), "NVLS stays available: the GPUs' NVSwitch links are found");
        assertEquals(16, reduce.nChannels(), "p5 log line 14: 16 nvls channels");
        // and the prediction is the one the copy's own GPUs give, field for field
        assertEquals(predict(b, b.gpus(), Collective.ALL_GATHER), gather);
        assertEquals(predict(b, b.gpus(), Collective.ALL_REDUCE), reduce);
    }

    /** Two hosts built twice through the catalog: NCCL's 16 coll channels of two nodes (log line 23). */
    @Test
    void twoHostCopiesKeepTwoNodeChannels() {
        Topology a = Catalog.standalone(Catalog.dgxH100(), 2);
        Topology b = Catalog.standalone(Catalog.dgxH100(), 2);
        Prediction p = predict(b, a.gpus(), Collective.ALL_GATHER);
        assertEquals(Algorithm.RING, p.algorithm());
        assertEquals(16, p.nChannels(), "p5 log line 23: 16 coll channels on two nodes");
    }

    /** Hosts described once and the same cluster built device by device are copies too (equal GPUs). */
    @Test
    void describedAndMaterializedCopiesAgree() {
        ClusterSpec spec = new ClusterSpec("dgx-h100x2", "", Catalog.dgxH100(), 2, null);
        Topology described = spec.build();
        Topology full = spec.materialize();
        assertEquals(16, predict(full, described.gpus(), Collective.ALL_GATHER).nChannels(), "log line 23");
        assertEquals(16, predict(described, full.gpus(), Collective.ALL_GATHER).nChannels(), "log line 23");
    }

    /** A GPU that is not one of the cluster's (another host type at the same id) is refused, naming the rank. */
    @Test
    void gpuOfAnotherClusterIsRefused() {
        Topology h100 = Catalog.standalone(Catalog.dgxH100(), 1);
        Topology a100 = Catalog.standalone(Catalog.hostType("dgx-a100").orElseThrow(), 1);
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> predict(h100, a100.gpus(), Collective.ALL_GATHER));
        assertTrue(e.getMessage().startsWith("rank 0: GPU h0/gpu0 (host 0, index 0, A100"), e.getMessage());
        assertTrue(e.getMessage().contains("is not a GPU of cluster " + h100.name()
                + "; allowed: the cluster's own GPUs (h0/gpu0 to h0/gpu7)"), e.getMessage());
        Gpu beyond = new Gpu("h2/gpu0", 2, 0, a100.gpus().get(0).model(), 80, 1L << 36, "");
        Topology described = new ClusterSpec("dgx-h100x2", "", Catalog.dgxH100(), 2, null).build();
        assertThrows(InvalidRequestException.class, () -> predict(described, List.of(beyond), Collective.ALL_GATHER));
    }
}
