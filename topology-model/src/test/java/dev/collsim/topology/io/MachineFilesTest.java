package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.TopologyReader;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Format detection by content on the real files: XML by its {@code <system} root, topo -m by its header. */
class MachineFilesTest {

    @ParameterizedTest
    @CsvSource({"C-topo-azure-ndv4-8xA100.xml, nccl-xml", "h200-1gpu-topo.xml, nccl-xml",
        "C-topodump-partial-8xH200-emeraldrapids-cx7-baremetal-and-vm-issue-nccltests256.xml, nccl-xml",
        "B-topo-dgx-a100.txt, nvidia-smi", "B-topo-8xRTXPRO6000-wrx90-cpayne-microchip-switchtec.txt, nvidia-smi",
        "B-topo-2xRTX2080Ti-autodl-container-pix-nop2p.txt, nvidia-smi", "C-graph-azure-ncv4-4xA100pcie.xml, none"})
    void detectsTheFormatByContent(String file, String format) {
        Optional<TopologyReader> r = MachineFiles.detect(TestFiles.text(file), HardwareHints.NONE);
        assertEquals(format, r.map(TopologyReader::format).orElse("none"));
        assertTrue(MachineFiles.detect("schema: collsim/v1\nname: x\n", HardwareHints.NONE).isEmpty());
    }
}
