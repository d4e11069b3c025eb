package dev.collsim.topology.io;

import static dev.collsim.topology.io.TestFiles.link;
import static dev.collsim.topology.io.TestFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL topology XML whose GPUs hide their PCIe link ({@code link_speed=""}, {@code link_width="0"}: Azure's NC A100 v4
 * files, a Hyper-V guest). NCCL's own paths keep NCCL's fallback; the physical link is the GPU's from the database.
 * Every figure by hand:
 * <ul>
 * <li>NCCL: NCCL 2.22.3 and 2.30.7 {@code src/graph/topo.cc ncclTopoAddPci}: {@code if (width == 0) width = 16;}, an
 * unknown speed string takes {@code kvDictPciGen}'s {@code { NULL, 60 }}, {@code bw = width * speed / 80.0}: 16 x 60 /
 * 80 = 12 GB/s, the {@code speedintra="12"} of Azure's own graph file for these VMs
 * ({@code C-graph-azure-ncv4-4xA100pcie.xml} line 12). The real Gen4 x16 link at NCCL's scale: "16.0 GT/s PCIe" is
 * 120, 16 x 120 / 80 = 24 GB/s.</li>
 * <li>Physical: the A100 PCIe is PCIe Gen4 x16 (NVIDIA A100 datasheet, PCIe column); PCIe 4.0 is 16 GT/s with
 * 128b/130b encoding: 16 x 128/130 x 16 lanes / 8 = 31.51 GB/s per direction.</li>
 * </ul>
 */
class HiddenPcieLinkTest {

    private static final String AZURE = "C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml";
    private static final double GEN3_X16 = 8.0 * 128 / 130 * 16 / 8;
    private static final double GEN4_X16 = 16.0 * 128 / 130 * 16 / 8;
    private static final double GEN5_X16 = 32.0 * 128 / 130 * 16 / 8;
    private static final double EPS = 1e-9;

    @Test
    void azureGpuLinkIsNcclsFallbackForNcclAndGen4X16Physically() throws InputException {
        Topology t = new NcclTopoXmlReader().read(AZURE, text(AZURE));
        for (int g = 0; g < 4; g++) {
            for (Link l : List.of(link(t, "h0/gpu" + g, "h0/cpu" + g, LinkType.PCIE),
                    link(t, "h0/cpu" + g, "h0/gpu" + g, LinkType.PCIE))) {
                assertEquals(12.0, l.ncclBandwidth().gbps(), EPS, "NCCL's paths: its fallback");
                assertEquals(GEN4_X16, l.bandwidth().gbps(), EPS, "physical: the A100 PCIe's Gen4 x16");
                assertEquals(16, l.count());
                assertEquals(24.0, NcclBandwidths.asBuilt(l).gbps(), EPS, "NCCL's formula on the real link");
            }
        }
        // one warning for the 4 alike GPUs: file:line:column of the first pci (line 13, column 5 of the file, counted
        // by hand), the fields, what was found and what was assumed
        assertEquals(List.of(AZURE + ":13:5: pci.link_speed, link_width: found '' and '0'; NCCL's paths take 8 GT/s"
                + " x16 = 12 GB/s (its fallback, NCCL src/graph/topo.cc ncclTopoAddPci), the physical link is taken as"
                + " PCIe Gen4 x16 (the A100-PCIE-80GB's in the GPU database) (4 GPUs alike, lines 13, 23, 30, 37)"),
                t.warnings());
    }

    /** {@code --pcie-gen 5} names the generation: physical Gen5 x16 = 32 x 128/130 x 16 / 8 = 63.0; NCCL still 12. */
    @Test
    void aPcieGenerationHintWinsOverTheDatabase() throws InputException {
        Topology t = new NcclTopoXmlReader(HardwareHints.NONE.withPcieGen(5)).read(AZURE, text(AZURE));
        Link up = link(t, "h0/gpu2", "h0/cpu2", LinkType.PCIE);
        assertEquals(GEN5_X16, up.bandwidth().gbps(), EPS);
        assertEquals(12.0, up.ncclBandwidth().gbps(), EPS);
        assertEquals(16 * 240 / 80.0, NcclBandwidths.asBuilt(up).gbps(), EPS, "\"32.0 GT/s PCIe\" is 240");
        assertTrue(t.warnings().get(0).contains("taken as PCIe Gen5 x16 (--pcie-gen 5, width the A100-PCIE-80GB's"),
                t.warnings().get(0));
    }

    /** A GPU the database does not know keeps NCCL's 8 GT/s x16 physically too (Gen3 x16 15.75), and says so. */
    @Test
    void anUnknownGpuKeepsNcclsFallbackAndAsksForAHint() throws InputException {
        String xml = "<system version=\"1\">\n  <cpu numaid=\"0\" arch=\"x86_64\" vendor=\"AuthenticAMD\">\n"
                + "    <pci busid=\"0000:01:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x9999\" link_speed=\"\""
                + " link_width=\"0\">\n      <gpu dev=\"0\" sm=\"80\" rank=\"0\"/>\n    </pci>\n  </cpu>\n</system>\n";
        Topology t = new NcclTopoXmlReader().read("u.xml", xml);
        Link up = link(t, "h0/gpu0", "h0/cpu0", LinkType.PCIE);
        assertEquals(GEN3_X16, up.bandwidth().gbps(), EPS);
        assertEquals(12.0, up.ncclBandwidth().gbps(), EPS);
        assertEquals(12.0, NcclBandwidths.asBuilt(up).gbps(), EPS);
        assertTrue(t.warnings().get(0).startsWith("u.xml:3:5: pci.link_speed, link_width: found '' and '0'; "),
                t.warnings().get(0));
        assertTrue(t.warnings().get(0).contains("(NCCL's: NVIDIA 0x9999 is not in the GPU database; pass --gpu-model"
                + " or --pcie-gen)"), t.warnings().get(0));
    }

    /**
     * Written back as NCCL XML, the hidden link stays hidden (link_speed="" link_width="0"), and the detail alone gives
     * NCCL's 12 GB/s to a builder that derives NCCL's figure from it ({@link NcclBandwidths#derive}).
     */
    @Test
    void theFallbackSurvivesExportAndDerivation() throws InputException {
        Topology t = new NcclTopoXmlReader().read(AZURE, text(AZURE));
        String out = new NcclTopoXmlWriter().write(t);
        assertTrue(out.contains("link_speed=\"\" link_width=\"0\""), out);
        Topology back = new NcclTopoXmlReader().read("back.xml", out);
        Link up = link(back, "h0/gpu1", "h0/cpu1", LinkType.PCIE);
        assertEquals(GEN4_X16, up.bandwidth().gbps(), EPS);
        assertEquals(12.0, up.ncclBandwidth().gbps(), EPS);
        Link orig = link(t, "h0/gpu1", "h0/cpu1", LinkType.PCIE);
        assertEquals(12.0, NcclBandwidths.derive(LinkType.PCIE, 16, orig.bandwidth(), orig.detail(),
                t.device("h0/gpu1").orElseThrow(), t.device("h0/cpu1").orElseThrow()).gbps(), EPS);
    }
}
