package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Azure's NCCL_TOPO_FILE for ND H100 v5 (github.com/Azure/azhpc-images topology/ndv5-topo.xml, in this module's test
 * resources) has 8 GPUs as bare PCI devices: no {@code <gpu>} element, no NVLink, no model. NCCL finds the NVLinks at
 * run time; collsim warns and takes them from the NVLink hint. H100 SXM5: 18 NVLink4 links per GPU (NVIDIA H100
 * datasheet), A100 SXM4: 12 NVLink3 links (NVIDIA A100 datasheet).
 */
class MissingNvlinksTest {

    private static final Path DIR = Path.of("src/test/resources/dev/collsim/topology/io");

    private static Topology read(String file, HardwareHints hints) throws Exception {
        return ClusterLoader.load(DIR.resolve(file).toString(), hints);
    }

    @Test
    void bareAzureFileIsWarnedAsUnknownAndPcieOnly() throws Exception {
        Topology t = read("C-topo-azure-ndv5-8xH100.xml", HardwareHints.NONE);
        assertEquals(8, t.gpus().size());
        String w = MissingNvlinks.warning(t).orElseThrow();
        assertTrue(w.contains("names no GPU model") && w.contains("--nvlink nvswitch"), w);
        // the file's <gpu sm="90">: a user of a PCIe box is told to name the model even without NVLink to declare
        assertTrue(w.contains("(GPUs taken as sm 90, model unknown). Give the model with --gpu-model NAME"), w);
    }

    @Test
    void knownModelWarningNamesItsLinks() throws Exception {
        Topology t = read("C-topo-azure-ndv5-8xH100.xml", HardwareHints.NONE.withGpu("H100-SXM5-80GB", 0));
        String w = MissingNvlinks.warning(t).orElseThrow();
        assertTrue(w.contains("8 H100") && w.contains("18 NVLink4 links"), w);
        assertEquals(90, t.gpus().get(0).sm(), "sm from the GPU model, not the sm 80 fallback");
    }

    @Test
    void nvlinkHintJoinsEveryGpuToOneNvSwitchWithTheModelsLinks() throws Exception {
        HardwareHints h = new HardwareHints("H100-SXM5-80GB", 0, null, 0, null, -1, -1, -1);
        Topology t = read("C-topo-azure-ndv5-8xH100.xml", h);
        assertTrue(MissingNvlinks.warning(t).isEmpty());
        assertEquals(1, t.devices(NvSwitch.class).size());
        for (Gpu g : t.gpus()) {
            List<Link> nv = t.outgoing(g).stream().filter(l -> l.type() == LinkType.NVLINK).toList();
            assertEquals(1, nv.size(), g.id());
            assertEquals(18, nv.get(0).count(), g.id());
            assertTrue(t.target(nv.get(0)) instanceof NvSwitch, g.id());
        }
    }

    @Test
    void explicitCountOverridesTheModel() throws Exception {
        HardwareHints h = new HardwareHints("A100-SXM4-80GB", 0, null, 0, null, -1, -1, 12);
        Topology t = read("C-topo-azure-ndv5-8xH100.xml", h);
        Gpu g = t.gpus().get(0);
        assertEquals(12, t.outgoing(g).stream().filter(l -> l.type() == LinkType.NVLINK).findFirst().orElseThrow()
                .count());
        assertEquals(80, g.sm(), "A100: sm 80");
    }
}
