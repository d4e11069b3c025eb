package dev.collsim.topology.io;

import static dev.collsim.topology.io.TestFiles.link;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import org.junit.jupiter.api.Test;

/**
 * The CPU hints on an NCCL topology XML. NCCL fills a {@code <cpu>}'s missing vendor, familyid and modelid from the
 * CPUID of the machine it runs on and keeps the ones the file states (NCCL 2.30 src/graph/xml.cc
 * ncclTopoGetXmlFromCpu), so {@code --cpu-model 'Xeon Platinum 8480'} (GenuineIntel, family 6, model 0x8F = 143:
 * Linux intel-family.h INTEL_SAPPHIRERAPIDS_X) fills a hand-written file's bare {@code <cpu>}s: the inter-CPU link is
 * then SRP_QPI_BW, 22 GB/s (src/graph/topo.h), not the 10 GB/s NCCL gives a CPU of unknown vendor. On a file whose
 * {@code <cpu>} says AuthenticAMD, the hint is not applied (AMD_BW, 16 GB/s, stands) and the source line says so; it
 * was dropped without a word.
 */
class XmlCpuHintTest {

    private static final HardwareHints SPR = new HardwareHints(null, 0, null, 0, "GenuineIntel", 6, 143);

    private static String xml(String cpuAttrs) {
        return "<system version=\"1\">\n"
                + "  <cpu numaid=\"0\" arch=\"x86_64\"" + cpuAttrs + ">\n"
                + "    <pci busid=\"0000:1b:00.0\" class=\"0x030200\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"/>\n"
                + "  </cpu>\n"
                + "  <cpu numaid=\"1\" arch=\"x86_64\"" + cpuAttrs + ">\n"
                + "    <pci busid=\"0000:9b:00.0\" class=\"0x030200\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"/>\n"
                + "  </cpu>\n"
                + "</system>\n";
    }

    @Test
    void aHintFillsWhatTheCpuElementLeavesOut() throws Exception {
        Topology bare = new NcclTopoXmlReader().read("bare.xml", xml(""));
        assertEquals(10.0, link(bare, "h0/cpu0", "h0/cpu1", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
        Topology hinted = new NcclTopoXmlReader(SPR).read("bare.xml", xml(""));
        assertEquals(22.0, link(hinted, "h0/cpu0", "h0/cpu1", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
        assertFalse(hinted.source().contains("CPU hint"), hinted.source());
    }

    @Test
    void aHintTheFileContradictsIsNotAppliedAndSaidOnce() throws Exception {
        Topology amd = new NcclTopoXmlReader(SPR).read("amd.xml", xml(" vendor=\"AuthenticAMD\" familyid=\"25\""
                + " modelid=\"1\""));
        assertEquals(16.0, link(amd, "h0/cpu0", "h0/cpu1", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
        String note = "CPU hint (vendor GenuineIntel, family 6 model 143) not applied: the file's <cpu> states vendor"
                + " AuthenticAMD, family 25 model 1, as NCCL read it on the machine";
        assertTrue(amd.source().contains(note), amd.source());
        assertEquals(amd.source().indexOf(note), amd.source().lastIndexOf(note), amd.source());
    }

    /**
     * The physical inter-CPU figure comes from the CPU database, as the nvidia-smi reader's does; NCCL's stays the NCCL
     * view. Expected: a bare {@code <cpu>} names no CPU, so NCCL's 10 GB/s is both; CPUID 6/143 (Sapphire Rapids,
     * 4 UPI at 16 GT/s x 2 B: 128 GB/s, Intel ARK 8480+); {@code --cpu-model 'Xeon Platinum 8462Y+'} names the 3-link
     * part (3 x 16 x 2 = 96 GB/s, Intel ARK 8462Y+), which CPUID alone cannot tell apart; a file stating AMD family 25
     * model 1 (Milan, AMD PPR Family 19h Model 01h) keeps its own CPU: 4 xGMI x16 at 16 GT/s = 128 GB/s.
     */
    @Test
    void thePhysicalFigureIsTheCpuDatabases() throws Exception {
        Topology bare = new NcclTopoXmlReader().read("bare.xml", xml(""));
        assertEquals(10.0, link(bare, "h0/cpu0", "h0/cpu1", LinkType.SMP).bandwidth().gbps(), 1e-9);
        Topology byCpuid = new NcclTopoXmlReader(SPR).read("bare.xml", xml(""));
        assertEquals(128.0, link(byCpuid, "h0/cpu0", "h0/cpu1", LinkType.SMP).bandwidth().gbps(), 1e-9);
        HardwareHints part = new HardwareHints(null, 0, null, 0, "GenuineIntel", 6, 143, 0,
                "Intel Xeon Scalable 4th gen (Sapphire Rapids), 3 UPI links");
        Topology named = new NcclTopoXmlReader(part).read("bare.xml", xml(""));
        assertEquals(96.0, link(named, "h0/cpu0", "h0/cpu1", LinkType.SMP).bandwidth().gbps(), 1e-9);
        assertEquals(22.0, link(named, "h0/cpu0", "h0/cpu1", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
        Topology amd = new NcclTopoXmlReader(part).read("amd.xml", xml(" vendor=\"AuthenticAMD\" familyid=\"25\""
                + " modelid=\"1\""));
        assertEquals(128.0, link(amd, "h0/cpu0", "h0/cpu1", LinkType.SMP).bandwidth().gbps(), 1e-9);
        assertEquals(16.0, link(amd, "h0/cpu0", "h0/cpu1", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
    }
}
