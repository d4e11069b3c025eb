package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Messages that name what the user typed: the spelling of an option with several names, only the mistyped flag of a
 * command line, an unknown -c name as a usage error with its near miss, what a catalog name built, and a profile of
 * another class applied with a warning.
 */
class OptionValueMessagesTest {

    @TempDir
    Path dir;

    @Test
    void aMissingCalibrationFileNamesTheFlagTyped() {
        Path nope = dir.resolve("nonexist.yaml");
        for (String flag : List.of("--calibration", "--perf-params", "--params")) {
            CliRun r = CliRun.run("predict", flag, nope.toString(), "allreduce");
            assertEquals(ExitCodes.INPUT, r.code(), r.err());
            assertEquals("collsim: " + nope + ": no such file (given to " + flag + ")", r.err().strip());
        }
        CliRun eq = CliRun.run("predict", "--perf-params=" + nope, "allreduce");
        assertEquals("collsim: " + nope + ": no such file (given to --perf-params)", eq.err().strip());
        CliRun bogus = CliRun.run("predict", "--calibration", "bogus", "allreduce");
        // a bare word is told what the option takes (CalibrationOption.requireProfile); no near miss for "bogus"
        assertEquals("collsim: bogus: no such file (given to --calibration; allowed: none, auto or a calibration"
                + " profile file)", bogus.err().strip());
    }

    @Test
    void aMistypedFlagIsReportedAloneWithItsNearMiss() {
        CliRun r = CliRun.run("predict", "--calibraton", "none", "allreduce");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals("collsim predict: Unknown option: '--calibraton'", lines.get(0), r.err());
        assertFalse(r.err().contains("'allreduce'"), r.err());
        assertTrue(r.err().contains("--calibration"), r.err());
    }

    @Test
    void anUnknownCatalogNameIsAUsageErrorWithItsNearMissAndTheDgxNames() {
        CliRun r = CliRun.run("predict", "-c", "dgx-h10x4", "allreduce");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        String err = r.err().strip();
        assertTrue(err.startsWith("collsim: -c/--cluster dgx-h10x4: no such file, config or catalog name"), err);
        // the near miss keeps the typed host count: dgx-h10 -> dgx-h100, x4 kept
        assertTrue(err.endsWith("; did you mean 'dgx-h100x4'?"), err);
        assertTrue(err.contains("dgx-b200 (= hgx-b200)") && err.contains("dgx-gb200 (= gb200-nvl72)"), err);
        assertFalse(err.contains("problem"), err);
        // a name with a path or file ending stays a missing file (exit 3)
        assertEquals(ExitCodes.INPUT, CliRun.run("predict", "-c", dir.resolve("c.yaml").toString(), "allreduce").code());
    }

    @Test
    void aRackNameIsOneRackAndSaysItsDomains() {
        // a rack-scale name alone is one rack, as NAMEx1: 18 GB200 trays of 4 GPUs in one 72-GPU NVLink domain (NVIDIA
        // GB200 NVL72 datasheet: 72 GPUs, 36 Grace CPUs = 18 trays x 2)
        CliRun r = CliRun.run("predict", "-c", "dgx-gb200", "allreduce", "-b", "1M", "-e", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Cluster: gb200-nvl72 (18 trays in 1 NVLink domain (up to 18 trays per domain),"
                + " 72 GPUs); "), r.out());
        CliRun x1 = CliRun.run("predict", "-c", "gb300-nvl72x1", "allreduce", "-b", "1M", "-e", "1M");
        assertTrue(x1.out().contains("(18 trays in 1 NVLink domain (up to 18 trays per domain), 72 GPUs)"), x1.out());
        CliRun h = CliRun.run("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1M", "-e", "1M");
        assertTrue(h.out().contains("Cluster: dgx-h100x2 (2 hosts, 16 GPUs); "), h.out());
        // two racks: 2 x 18 trays of 4 GPUs (ClusterLoader: N counts racks for a tray type of a rack-scale domain)
        CliRun two = CliRun.run("predict", "-c", "gb200-nvl72x2", "allreduce", "-b", "1M", "-e", "1M");
        assertTrue(two.out().contains("(36 trays in 2 NVLink domains (up to 18 trays per domain), 144 GPUs)"),
                two.out());
    }

    /** --network on one host is accepted but cannot act (no traffic leaves the host): one warning line says so. */
    @Test
    void aNetworkOnOneHostIsAWarning() {
        CliRun one = CliRun.run("predict", "-c", "dgx-h100", "--network", "roce", "allreduce", "-b", "1M", "-e", "1M");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.err().contains("--network roce changes nothing on one host"), one.err());
        CliRun two = CliRun.run("predict", "-c", "dgx-h100x2", "--network", "roce", "allreduce", "-b", "1M", "-e",
                "1M");
        assertEquals(0, two.code(), two.err());
        assertTrue(!two.err().contains("changes nothing"), two.err());
        for (String net : List.of("socket", "efa", "infiniband", "tcpxo")) {
            CliRun r = CliRun.run("predict", "-c", "dgx-h100", "--network", net, "allreduce", "-b", "1M", "-e", "1M");
            assertTrue(r.err().contains("--network " + net + " changes nothing on one host"), r.err());
        }
    }

    /**
     * One GB300 NVL72 rack is 18 trays but one NCCL node (one NVLink domain): --network warns as on one host, and the
     * header's System line, which describes the catalog system (InfiniBand), names the network in force.
     */
    @Test
    void aNetworkInOneNvlinkDomainIsAWarningAndTheHeaderNamesIt() {
        CliRun r = CliRun.run("predict", "-c", "gb300-nvl72", "--network", "efa", "allreduce", "-b", "1M", "-e", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("--network efa changes nothing in one NVLink domain (NCCL runs its 18 trays as one"
                + " node"), r.err());
        String system = r.out().lines().filter(l -> l.startsWith("# System: ")).findFirst().orElseThrow();
        assertTrue(system.endsWith("; network in force: AWS EFA (aws-ofi-nccl) (--network efa), not the system's"
                + " InfiniBand"), system);
        CliRun two = CliRun.run("predict", "-c", "gb300-nvl72x2", "--network", "efa", "allreduce", "-b", "1M", "-e",
                "1M");
        assertTrue(!two.err().contains("changes nothing"), two.err());
        CliRun plain = CliRun.run("predict", "-c", "gb300-nvl72", "allreduce", "-b", "1M", "-e", "1M");
        assertTrue(!plain.out().contains("network in force"), plain.out());
    }

    @Test
    void aProfileOfAnotherClassIsAppliedWithOneWarningLine() throws Exception {
        String blackwell = "src/test/resources/profiles/blackwell-1host-nvltray.yaml";
        CliRun r = CliRun.run("predict", "-c", "dgx-h100x4", "--calibration", blackwell, "allreduce", "-b", "1M",
                "-e", "1M");
        assertEquals(0, r.code(), r.err());
        // the file's profileClass is blackwell-1host-nvltray; 4 DGX H100 over InfiniBand are hopper-infiniband
        assertEquals(List.of("collsim: warning: --calibration " + blackwell + " was fitted for blackwell-1host-nvltray"
                + " (Blackwell, one superchip tray of a rack-scale NVLink domain, GPUs joined by the rack's NVSwitch"
                + " trays); this cluster is hopper-infiniband (Hopper, several hosts over InfiniBand); applied anyway"),
                r.err().lines().toList());
        // the same class (one GB200 tray; the bare name is a rack, so one tray is a YAML count of 1): no warning
        Path tray = dir.resolve("tray.yaml");
        Files.writeString(tray, "schema: collsim/v1\nname: one-tray\nhosts: Standard_ND128isr_NDR_GB200_v6\n");
        CliRun same = CliRun.run("predict", "-c", tray.toString(), "--calibration", blackwell,
                "allreduce", "-b", "1M", "-e", "1M");
        assertEquals("", same.err().strip());
        // a profile of another generation without a class (collsim calibrate of H200 files) on a Blackwell host
        CliRun gen = CliRun.run("predict", "-c", "dgx-b200", "--calibration",
                "../configs/calibration/h200x2-nv18-nccl2.28.yaml", "allreduce", "-b", "1M", "-e", "1M");
        assertTrue(gen.err().startsWith("collsim: warning: --calibration ../configs/calibration/h200x2-nv18-nccl2.28.yaml"
                + " was fitted on GPUs of NCCL's HOPPER tables; this cluster's are of its BLACKWELL tables"
                + " (blackwell-1host-nvswitch"), gen.err());
        // calibrate writes NCCL's table index: an L40S (sm89, Ada) host's profile says AMPERE, as NCCL 2.30
        // src/graph/tuning.cc indexes sm80-89; applied to the same L40S host it is no other class (it warned
        // "fitted on AMPERE GPUs; this cluster is ada-1host-pcie"), applied to H100 hosts it is
        Path ada = dir.resolve("l40s.yaml");
        Files.writeString(ada, Files.readString(Path.of("../configs/calibration/h200x2-nv18-nccl2.28.yaml"))
                .replace("generation: HOPPER", "generation: AMPERE"));
        CliRun l40s = CliRun.run("predict", "-c", "pcie-8x-l40s", "--calibration", ada.toString(), "allreduce", "-b",
                "1M", "-e", "1M");
        assertEquals(0, l40s.code(), l40s.err());
        assertEquals("", l40s.err().strip());
        CliRun h100 = CliRun.run("predict", "-c", "dgx-h100", "--calibration", ada.toString(), "allreduce", "-b",
                "1M", "-e", "1M");
        assertTrue(h100.err().contains("was fitted on GPUs of NCCL's AMPERE tables; this cluster's are of its HOPPER"
                + " tables"), h100.err());
    }

    /**
     * A number past a Java int (2^31-1 = 2147483647) is told the int's range (JLS 4.2.1), not only "is not an int";
     * a command of subcommands given none lists them (topo's are show, paths, check and export, as its help says).
     */
    @Test
    void anIntTooLargeNamesTheRangeAndAMissingSubcommandTheChoices() {
        CliRun n = CliRun.run("predict", "-n", "99999999999", "all_reduce");
        assertEquals(ExitCodes.USAGE, n.code(), n.err());
        assertEquals("collsim predict: Invalid value for option '-n': '99999999999' is not an int; allowed: a whole"
                + " number from -2147483648 to 2147483647", n.err().lines().findFirst().orElse(""));
        CliRun topo = CliRun.run("topo");
        assertEquals(ExitCodes.USAGE, topo.code(), topo.err());
        assertEquals("collsim topo: Missing required subcommand; allowed: show, paths, check, export",
                topo.err().lines().findFirst().orElse(""));
    }
}
