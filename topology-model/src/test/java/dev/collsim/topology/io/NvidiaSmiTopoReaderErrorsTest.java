package dev.collsim.topology.io;

import dev.collsim.topology.io.smi.NvidiaSmiTopoReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad {@code topo -m} text: every problem with line, column, row/column, what was found and what is allowed. */
class NvidiaSmiTopoReaderErrorsTest {

    private final NvidiaSmiTopoReader reader = new NvidiaSmiTopoReader();

    private List<String> problems(String text) {
        InputException e = assertThrows(InputException.class, () -> reader.read("m.txt", text));
        return e.problems().stream().map(Object::toString).toList();
    }

    @Test
    void raggedRowsAndUnknownLabelsAreAllListed() {
        List<String> p = problems("""
                \tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tPIX\tPXB\t0-7\t0
                GPU1\tPIX\t X \n\
                GPU2\tPXB\tQPI\t X \t0-7\t0
                """);
        assertEquals(2, p.size(), p.toString());
        assertEquals("m.txt:3:1: GPU1: ragged row: found 2 cells; allowed: 3 cells (one per column of the header at"
                + " line 1) then the affinity columns [CPU Affinity, NUMA Affinity]", p.get(0));
        assertEquals("m.txt:4:10: GPU2/GPU1: found 'QPI'; allowed: NV# with # from 1 to 64 (e.g. NV12), PIX, PXB,"
                + " PHB, NODE, SYS", p.get(1));
    }

    /**
     * A row one cell short reads its CPU affinity as a label: that is named as the ragged row it is, at the affinity
     * cell. Line 3 by hand: GPU1, tab (5), NV4 (6-8), tab, ' X ' (X at 11), tab (13), 0-15 at 14.
     */
    @Test
    void aRowOneCellShortIsRaggedNotAnUnknownLabel() {
        List<String> p = problems("\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV4\tPIX\t0-15\t0\n"
                + "GPU1\tNV4\t X \t0-15\t0\n"
                + "NIC0\tPIX\tPIX\t X \n");
        assertEquals(List.of("m.txt:3:14: GPU1: ragged row: found 2 cells, then '0-15', an affinity value (is a cell"
                + " missing?); allowed: 3 cells (one per column of the header at line 1) then the affinity columns"
                + " [CPU Affinity, NUMA Affinity]"), p);
    }

    @Test
    void aMissingHeaderAndAnEmptyFileAreNamed() {
        List<String> p = problems("GPU0\t X \tNV4\nGPU1\tNV4\t X \n");
        assertEquals(1, p.size());
        assertTrue(p.get(0).startsWith("m.txt:1:1: header: found row GPU0 without a header line"), p.get(0));
        List<String> q = problems("Legend:\n  X = Self\n");
        assertTrue(q.get(0).startsWith("m.txt:1:1: header: no nvidia-smi topo -m matrix found"), q.get(0));
    }

    @Test
    void labelsThatContradictEachOtherAreReportedAtTheCell() {
        // GPU0-GPU1 PIX and GPU1-GPU2 PIX put all three below one switch, so GPU0-GPU2 cannot be SYS
        List<String> p = problems("""
                \tGPU0\tGPU1\tGPU2
                GPU0\t X \tPIX\tSYS
                GPU1\tPIX\t X \tPIX
                GPU2\tSYS\tPIX\t X
                """);
        assertEquals(2, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("m.txt:2:14: GPU0/GPU2: found 'SYS', but the other labels of the matrix put"
                + " these devices below one PCIe switch (PIX); allowed here: PIX"), p.get(0));
    }

    @Test
    void badAffinityCellsAreNamed() {
        List<String> p = problems("""
                \tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
                GPU0\t X \tNV4\t0-7\tzero\tN/A
                GPU1\tNV4\t X \tall\t0\tN/A
                """);
        assertEquals(List.of("m.txt:2:18: GPU0/NUMA Affinity: found 'zero'; allowed: a NUMA node number, a list of them (0,3-9), or N/A",
                "m.txt:3:14: GPU1/CPU Affinity: found 'all'; allowed: a CPU list such as 0-31,64-95, or N/A"), p);
    }

    @Test
    void acceptsTopoTextButNotXml() {
        assertTrue(reader.accepts(TestFiles.text("B-topo-dgx-a100.txt")));
        assertTrue(reader.accepts(TestFiles.text("B-topo-8xRTXPRO6000-wrx90-cpayne-microchip-switchtec.txt")));
        assertFalse(reader.accepts(TestFiles.text("C-topo-azure-ndv5-8xH100.xml")));
    }

    /** Fuzz finding c09: an NV count no machine has (NV99999999999) was an int overflow, exit 1. */
    @Test
    void nvCountBeyondAnyMachineIsALabelProblem() throws Exception {
        String text = Files.readString(Path.of("src/test/resources/fuzz/c09-smi-nv-overflow.txt"));
        List<String> p = problems(text);
        assertEquals(1, p.size(), p.toString());
        // line 12 is "GPU0<TAB> X <TAB>NV99999999999...": the cell starts at character 10
        assertEquals("m.txt:12:10: GPU0/GPU1: found 'NV99999999999'; allowed: NV# with # from 1 to 64 (e.g. NV12),"
                + " PIX, PXB, PHB, NODE, SYS", p.get(0));
    }

    /** Fuzz finding c10: a GPU column that is not GPU and an index (GPUx) was a NumberFormatException, exit 1. */
    @Test
    void gpuColumnWithoutAnIndexIsAHeaderProblem() throws Exception {
        String text = Files.readString(Path.of("src/test/resources/fuzz/c10-smi-gpu-column-name.txt"));
        List<String> p = problems(text);
        // line 10 is "        GPU0    GPU1    GPUx ...": GPUx starts at character 25
        assertTrue(p.get(0).startsWith("m.txt:10:25: header: found column 'GPUx'; allowed: GPU<index>"), p.toString());
    }

    /**
     * Fuzz finding s01: GPU0 to GPU1 NV6 while GPU1 to GPU0 is NV12 was read without a word. Line 12 is
     * "GPU0<TAB> X <TAB>NV6...": the cell starts at character 10; line 13 is "GPU1<TAB>NV12...": character 6.
     */
    @Test
    void asymmetricNvCountsAreAWarningInTheSource() throws Exception {
        String text = Files.readString(Path.of("src/test/resources/fuzz/s01-smi-asymmetric-nv.txt"));
        String source = reader.read("m.txt", text).source();
        assertTrue(source.contains("warning: GPU0/GPU1 is NV6 at 12:10 but GPU1/GPU0 is NV12 at 13:6; NVLinks are"
                + " bidirectional, the pair is read as NV12"), source);
        assertEquals(1, source.split("warning: ", -1).length - 1, source);
    }

    /** Found by the longer fuzz run: a NIC column whose index overflows an int was a NumberFormatException. */
    @Test
    void nicColumnWithAnOverflowingIndexIsAHeaderProblem() {
        List<String> p = problems("""
                \tGPU0\tNIC99999999999\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tPIX\t0-7\t0
                NIC99999999999\tPIX\t X \n\
                """);
        // header line 1: a tab, "GPU0", a tab, then the NIC column at character 7
        assertTrue(p.get(0).startsWith("m.txt:1:7: header: found column 'NIC99999999999'; allowed: GPU<index> or"
                + " NIC<index>"), p.toString());
    }

    /** Found by the longer fuzz run: a column named twice built two devices with one id (exit 1). */
    @Test
    void columnNamedTwiceIsAHeaderProblem() {
        List<String> p = problems("""
                \tGPU0\tGPU1\tGPU1\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tNV4\tNV4\t0-7\t0
                GPU1\tNV4\t X \tNV4\t0-7\t0
                """);
        // header line 1: tab, GPU0 (2-5), tab, GPU1 (7-10), tab, the second GPU1 at character 12
        assertTrue(p.contains("m.txt:1:12: header: found column 'GPU1' twice; allowed: each device once"),
                p.toString());
    }
}
