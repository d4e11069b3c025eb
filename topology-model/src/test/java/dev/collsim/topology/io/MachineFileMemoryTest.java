package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Machine files name no GPU memory; a GPU model hint gives it from the GPU database. Figures from the datasheets:
 * NVIDIA A100 PCIe 80 GB (the database's default variant of "A100 PCIe") and 40 GB; H100 SXM5 80 GB; NVIDIA A100
 * SXM4 40 GB. 1 GiB = 2^30 B (the datasheets' memory "GB").
 */
class MachineFileMemoryTest {

    private static final Path DIR = Path.of("src/test/resources/dev/collsim/topology/io");
    private static final String PAIRS = "B-topo-8xA100-pcie-nvlink-bridge-pairs-issue-nccltests178.txt";

    private static Topology read(String file, String model) throws Exception {
        return ClusterLoader.load(DIR.resolve(file).toString(), HardwareHints.NONE.withGpu(model, 0));
    }

    @Test
    void modelNameGivesTheDefaultVariantsMemoryAndSaysSo() throws Exception {
        Topology t = read(PAIRS, "A100 PCIe");
        for (Gpu g : t.gpus()) {
            assertEquals(80L << 30, g.memoryBytes(), g.id());
        }
        assertTrue(t.source().contains("GPU memory 80 GiB assumed") && t.source().contains("A100-PCIE-40GB"),
                t.source());
    }

    @Test
    void variantNameGivesItsOwnMemoryWithoutANote() throws Exception {
        Topology t = read(PAIRS, "A100-PCIE-40GB");
        assertEquals(40L << 30, t.gpus().get(0).memoryBytes());
        assertFalse(t.source().contains("GPU memory"), t.source());
    }

    @Test
    void ncclXmlTakesTheHintsMemoryToo() throws Exception {
        assertEquals(80L << 30, read("C-topo-azure-ndv5-8xH100.xml", "H100-SXM5-80GB").gpus().get(0).memoryBytes());
        assertEquals(40L << 30, read("C-topo-azure-ndv4-8xA100.xml", "A100-SXM4-40GB").gpus().get(0).memoryBytes());
    }

    @Test
    void noHintLeavesMemoryUnknown() throws Exception {
        Topology t = ClusterLoader.load(DIR.resolve(PAIRS).toString(), HardwareHints.NONE);
        assertEquals(0, t.gpus().get(0).memoryBytes());
    }
}
