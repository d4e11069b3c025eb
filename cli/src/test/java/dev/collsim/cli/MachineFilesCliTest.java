package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim topo} on real machine files (copied from the shared data with their {@code #@} headers):
 * {@code nvidia-smi topo -m} of a DGX A100 and Azure's NDv5 NCCL_TOPO_FILE. Expected numbers: DGX A100 NV12 through
 * NVSwitches, 12 x 25 = 300 GB/s per direction (A100 datasheet), 12 x 20 = 240 in NCCL's view (NCCL 2.30 topo.h);
 * 8 compute NICs at the given 200 Gb/s = 25 GB/s per GPU; NDv5 PCIe Gen5 x16 = 48 GB/s in NCCL's view
 * (16 x 240 / 80) and 63.0 physical (32 GT/s x 128/130 x 16 / 8).
 */
class MachineFilesCliTest {

    private static Path copy(String name, Path dir) throws IOException {
        Path f = dir.resolve(name);
        try (InputStream in = MachineFilesCliTest.class.getResourceAsStream("/machines/" + name)) {
            Files.copy(in, f);
        }
        return f;
    }

    /**
     * A GPU model the database does not know is refused (exit 2, no stack trace) with the nearest names
     * (GpuModelsNearestTest works them out); before, "A100-SXM9" was taken as the A100 SXM family by its text rule.
     */
    @Test
    void anUnknownGpuModelIsRefusedWithTheNearest(@TempDir Path dir) throws Exception {
        Path f = copy("B-topo-dgx-a100.txt", dir);
        CliRun r = CliRun.run("topo", "show", "-c", f.toString(), "--gpu-model", "A100-SXM9");
        assertEquals(2, r.code(), r.err());
        assertEquals("collsim: --gpu-model: found 'A100-SXM9', which the GPU database does not know; did you mean"
                + " A100 SXM, A100-SXM4-80GB, A100-SXM4-40GB, A100 PCIe (NVLink bridge pairs), H100 SXM? (allowed: a"
                + " model, variant or nvidia-smi name of the database, e.g. H100-SXM5-80GB, A100-SXM4-40GB, L40S; for a"
                + " GPU it lacks, add --gpu-sm)", r.err().strip());
        assertEquals("", r.out());
        // with --gpu-sm the name describes a GPU the database lacks, and is taken as given
        CliRun own = CliRun.run("topo", "show", "-c", f.toString(), "--gpu-model", "A100-SXM9", "--gpu-sm", "80");
        assertEquals(0, own.code(), own.err());
        assertTrue(own.out().contains("8x A100-SXM9 (sm80"), own.out());
    }

    @Test
    void showReadsNvidiaSmiTextWithHints(@TempDir Path dir) throws Exception {
        Path f = copy("B-topo-dgx-a100.txt", dir);
        CliRun r = CliRun.run("topo", "show", "-c", f.toString(), "--gpu-model", "A100-SXM4-80GB", "--gpu-sm",
                "80", "--nic-speed", "200 Gb/s");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("8x A100-SXM4-80GB (sm80"), r.out());
        assertTrue(r.out().contains("8 compute (8x 200 Gb/s), 4 other; NIC bandwidth per GPU 200 Gb/s = 25.0 GB/s"),
                r.out());
        assertTrue(r.out().contains("GPU-GPU   28 pairs  NVL    240.0 /   300.0 GB/s"), r.out());
    }

    /**
     * {@code --cpu-vendor amd} (a DGX A100 has two AMD EPYC 7742, DGX A100 User Guide) gives NCCL's AMD inter-CPU
     * rate, 16 GB/s (NCCL 2.30 src/graph/topo.h AMD_BW), where any text but the two CPUID names used to fall back
     * silently to the unknown vendor's SKL_QPI_BW (10); a vendor that is neither is refused (exit 2).
     */
    @Test
    void cpuVendorTakesShortNamesAndRefusesOthers(@TempDir Path dir) throws Exception {
        Path f = copy("B-topo-dgx-a100.txt", dir);
        CliRun amd = CliRun.run("topo", "show", "-c", f.toString(), "--cpu-vendor", "amd");
        assertEquals(0, amd.code(), amd.err());
        assertTrue(amd.out().matches("(?s).*SYS  Infinity Fabric \\(NCCL AMD_BW\\) +\\d+ +16\\.0 +16\\.0\n.*"),
                amd.out());
        CliRun bad = CliRun.run("topo", "show", "-c", f.toString(), "--cpu-vendor", "Zen4");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--cpu-vendor: found 'Zen4'; allowed: GenuineIntel (or intel), AuthenticAMD"
                + " (or amd)"), bad.err());
    }

    /**
     * {@code --cpu-vendor intel} alone gets Broadwell's 6 GB/s (NCCL 2.30 src/graph/topo.h BDW_QPI_BW) and the
     * source line says how to name the CPU; {@code --cpu-model 'Xeon Platinum 8480'} is Sapphire Rapids, CPUID model
     * 0x8F (Linux intel-family.h INTEL_SAPPHIRERAPIDS_X), for which NCCL's ncclTopoGetInterCpuBw gives SRP_QPI_BW,
     * 22 GB/s, while the link's physical figure is the CPU's own (it was NCCL's 22); a name the CPU database lacks is refused (exit 2) with its families listed.
     */
    @Test
    void cpuModelPicksTheIntelGeneration(@TempDir Path dir) throws Exception {
        Path f = copy("B-topo-dgx-a100.txt", dir);
        CliRun intel = CliRun.run("topo", "show", "-c", f.toString(), "--cpu-vendor", "intel");
        assertEquals(0, intel.code(), intel.err());
        assertTrue(intel.out().contains("QPI, Broadwell (NCCL BDW_QPI_BW), NCCL's figure for an Intel CPU of unknown"
                + " model; name the CPU with --cpu-model"), intel.out());
        CliRun spr = CliRun.run("topo", "show", "-c", f.toString(), "--cpu-model", "Xeon Platinum 8480");
        assertEquals(0, spr.code(), spr.err());
        // physically the CPU's own socket links: Intel ARK 8480+, 4 UPI at 16 GT/s x 2 B = 128 GB/s per direction,
        // as a catalog Sapphire Rapids host has them; NCCL's view keeps SRP_QPI_BW
        assertTrue(spr.out().matches("(?s).*SYS  UPI, Sapphire Rapids \\(NCCL SRP_QPI_BW\\) +\\d+ +128\\.0 +22\\.0\n.*"),
                spr.out());
        assertTrue(spr.out().contains("; physically 128.0 GB/s (Intel Xeon Scalable 4th gen (Sapphire Rapids): 4 UPI"
                + " links, the CPU database)"), spr.out());
        CliRun bad = CliRun.run("topo", "show", "-c", f.toString(), "--cpu-model", "Pentium 4");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--cpu-model: found 'Pentium 4', which names no family of the CPU database;"
                + " allowed:"), bad.err());
        assertTrue(bad.err().contains("Intel Xeon Scalable 4th gen (Sapphire Rapids)"), bad.err());
    }

    /** Hints only fill in machine files; given with a catalog cluster they would be ignored, so they are refused. */
    @Test
    void hintsWithACatalogClusterAreAUsageError() {
        CliRun r = CliRun.run("topo", "show", "-c", "dgx-h100x4", "--nic-speed", "200 Gb/s");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-c dgx-h100x4 is a config or catalog cluster"), r.err());
        // topo show has no --backend/--link-speed (its --help lists none): the what-if hint names a report variant
        assertFalse(CliRun.run("topo", "show", "--help").out().contains("--link-speed"));
        assertTrue(r.err().contains("For a NIC-speed what-if use a report variant's nic-speed"), r.err());
    }

    @Test
    void pathsOfAnNcclTopoFileAndAnExportThatReadsBack(@TempDir Path dir) throws Exception {
        Path f = copy("C-topo-azure-ndv5-8xH100.xml", dir);
        // the file's NICs have no <net> element; the hint gives the NDR speed (400 Gb/s = 50 GB/s > 48)
        CliRun paths = CliRun.run("topo", "paths", "-c", f.toString(), "--nic-speed", "400 Gb/s");
        assertEquals(0, paths.code(), paths.err());
        assertTrue(paths.out().contains("GPU0   X          PHB 48     PHB 48     PHB 48     SYS 22"), paths.out());
        assertTrue(paths.out().contains("PIX 48"), paths.out());
        Path smi = copy("B-topo-dell-c4140-4xV100-sxm2-nv2.txt", dir);
        Path xml = dir.resolve("c4140.xml");
        CliRun export = CliRun.run("topo", "export", "-c", smi.toString(), "--format", "nccl-xml", "-o",
                xml.toString());
        assertEquals(0, export.code(), export.err());
        String text = Files.readString(xml);
        assertTrue(text.contains("<nvlink target=") && text.contains("count=\"2\""), text);
        CliRun again = CliRun.run("topo", "show", "-c", xml.toString());
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("GPUs       4"), again.out());
    }

    @Test
    void aTruncatedDumpExitsThreeWithLineAndColumnAndNoStackTrace(@TempDir Path dir) throws Exception {
        Path f = copy("C-topodump-partial-8xH200-emeraldrapids-cx7-baremetal-and-vm-issue-nccltests256.xml", dir);
        CliRun r = CliRun.run("topo", "show", "-c", f.toString());
        assertEquals(3, r.code());
        assertTrue(r.err().startsWith(f + ":79:1: cpu: truncated XML"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        Path out = dir.resolve("never.xml");
        assertEquals(3, CliRun.run("topo", "export", "-c", f.toString(), "--format", "nccl-xml", "-o",
                out.toString()).code());
        assertFalse(Files.exists(out));
        Path ragged = dir.resolve("ragged.txt");
        Files.writeString(ragged, "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\nGPU1\tNV4\n");
        CliRun bad = CliRun.run("topo", "show", "-c", ragged.toString());
        assertEquals(3, bad.code());
        assertTrue(bad.err().contains(ragged + ":3:1: GPU1: ragged row: found 1 cells; allowed: 2 cells"), bad.err());
    }
}
