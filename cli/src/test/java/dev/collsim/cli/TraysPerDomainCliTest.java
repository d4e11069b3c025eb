package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --trays-per-domain} (and a YAML cluster's {@code traysPerDomain}) puts NVL72 trays in NVLink domains of
 * their own, so predict can build what GCP's A4X Max page measured: 2 trays x 4 GB300 in distinct NVLink domains,
 * all traffic over the ConnectX-8 RoCE NICs.
 */
class TraysPerDomainCliTest {

    private static final String[] TWO_TRAYS = {"allgather", "--nprocs", "8", "--procs-per-host", "4", "-b", "16G",
        "-e", "16G"};

    @TempDir
    Path dir;

    /**
     * The measured file: validation/src/test/resources/data/A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain
     * -nccl2.28.txt line 51, 16 GiB AllGather out-of-place busbw 357.13 GB/s on 2 trays in distinct domains. Each
     * tray's 4 x 800 Gb/s NICs carry 400 GB/s, so a 2-node ring cannot pass ~400 GB/s busbw; inside one domain the
     * 8 GPUs share NVLink5 (900 GB/s per GPU) and one NCCL node.
     */
    @Test
    void twoTraysInDistinctDomainsAreTwoNcclNodes() {
        CliRun apart = predict("-c", "a4x-maxgpu-4g-metal", "--trays-per-domain", "1");
        assertEquals(0, apart.code(), apart.err());
        assertTrue(apart.out().contains("(18 trays in 18 NVLink domains (1 tray per domain), 72 GPUs); 8 ranks on 2"
                + " NCCL node(s), 4 per node"), apart.out());
        double busbw = busbw(apart.out());
        assertTrue(Math.abs(busbw - 357.13) / 357.13 < 0.10, "busbw " + busbw + " vs 357.13 measured");
        CliRun together = predict("-c", "a4x-maxgpu-4g-metal");
        assertTrue(together.out().contains("8 ranks on 1 NCCL node(s)"), together.out());
        assertTrue(busbw(together.out()) > 400, together.out());
    }

    @Test
    void aYamlClusterSaysTheSame() throws Exception {
        Path yaml = dir.resolve("two.yaml");
        Files.writeString(yaml, "schema: collsim/v1\nname: two-a4x-max\nhosts: a4x-maxgpu-4g-metal\ncount: 2\n"
                + "traysPerDomain: 1\nfabric: {kind: rail-optimized}\n");
        CliRun r = predict("-c", yaml.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(2 trays in 2 NVLink domains (1 tray per domain), 8 GPUs); 8 ranks on 2 NCCL"
                + " node(s)"), r.out());
    }

    @Test
    void hostsWithNvlinkInsideRefuseIt() {
        CliRun r = CliRun.run("predict", "-c", "dgx-h100x2", "--trays-per-domain", "1", "allreduce");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("--trays-per-domain 1: -c dgx-h100x2 is not built of trays"), r.err());
        CliRun big = CliRun.run("predict", "-c", "gb300-nvl72", "--trays-per-domain", "19", "allreduce");
        assertEquals(ExitCodes.USAGE, big.code(), big.err());
        assertTrue(big.err().contains("--trays-per-domain: found 19; allowed: 1 to 18"), big.err());
    }

    /** Domains of unequal size are refused: the divisors of 18 trays are 1, 2, 3, 6, 9 and 18 (by hand). */
    @Test
    void aTrayCountThatDoesNotDivideTheTraysIsRefused() throws Exception {
        CliRun five = CliRun.run("predict", "-c", "gb300-nvl72", "--trays-per-domain", "5", "allreduce");
        assertEquals(ExitCodes.USAGE, five.code(), five.err());
        assertTrue(five.err().contains("--trays-per-domain: found 5 for 18 trays; allowed: a divisor of the tray count"
                + " (1, 2, 3, 6, 9, 18)"), five.err());
        Path yaml = dir.resolve("uneven.yaml");
        Files.writeString(yaml, "schema: collsim/v1\nname: uneven\nhosts: gb300-nvl72\ncount: 4\ntraysPerDomain: 3\n");
        CliRun y = CliRun.run("predict", "-c", yaml.toString(), "allreduce");
        assertEquals(ExitCodes.INPUT, y.code(), y.err());
        // the YAML key is checked in the words of the option (OwnNvlinkDomain.problem): divisors of 4 are 1, 2, 4
        assertTrue(y.err().contains("uneven.yaml:5:17: traysPerDomain: found 3 for 4 trays; allowed: a divisor of the"
                + " tray count (1, 2, 4)"), y.err());
    }

    /**
     * A YAML rack of 18 GB300 trays may leave out its fabric (one NVLink domain, GB300 NVL72: 18 trays); split by the
     * option into 9 domains of 2, nothing would join them: a usage error naming the option, what was found and the
     * allowed 18 or a fabric.
     */
    @Test
    void splittingARackWithoutAFabricIsRefused() throws Exception {
        Path yaml = dir.resolve("rack.yaml");
        Files.writeString(yaml, "schema: collsim/v1\nname: rack\nhosts: gb300-nvl72\ncount: 18\n");
        assertEquals(0, CliRun.run("predict", "-c", yaml.toString(), "allreduce", "-b", "1M", "-e", "1M").code());
        CliRun r = CliRun.run("predict", "-c", yaml.toString(), "--trays-per-domain", "2", "allreduce");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("--trays-per-domain 2: -c " + yaml + " has no fabric, so its 18 trays in domains of"
                + " 2 would not be joined; allowed: 18 (one NVLink domain), or a 'fabric:' section"), r.err());
    }

    private static CliRun predict(String... cluster) {
        String[] args = new String[1 + cluster.length + TWO_TRAYS.length];
        args[0] = "predict";
        System.arraycopy(cluster, 0, args, 1, cluster.length);
        System.arraycopy(TWO_TRAYS, 0, args, 1 + cluster.length, TWO_TRAYS.length);
        return CliRun.run(args);
    }

    /** @return the busbw column of the one size row */
    private static double busbw(String out) {
        String row = out.lines().filter(l -> l.trim().startsWith("17179869184")).findFirst().orElseThrow();
        return Double.parseDouble(row.trim().split("\\s+")[7]);
    }
}
