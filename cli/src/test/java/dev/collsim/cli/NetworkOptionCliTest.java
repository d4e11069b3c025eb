package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The network class as a user gives it: every class the model knows is listed in the help of each command that takes
 * {@code --network}, a misspelled class on the command line or in a cluster YAML is named with what is allowed and no
 * stack trace, and GCP's A3 High plugin name reads as its class.
 */
class NetworkOptionCliTest {

    @TempDir
    Path dir;

    /** The help must name every class of {@link NetworkClass} (the list the parser accepts), not a subset of it. */
    @Test
    void theHelpOfEveryClusterCommandListsEveryNetworkClass() {
        for (String cmd : List.of("predict", "plan", "compare", "calibrate", "tune", "topo show", "topo paths",
                "topo check", "topo export")) {
            String[] words = (cmd + " --help").split(" ");
            CliRun r = CliRun.run(words);
            assertEquals(0, r.code(), r.err());
            String help = r.out().replaceAll("\\s+", " ");
            int at = help.indexOf("--network=CLASS Network transport");
            assertTrue(at >= 0, cmd + ": " + help);
            String option = help.substring(at, help.indexOf("PerformanceParameters.netClasses", at));
            for (NetworkClass c : NetworkClass.values()) {
                assertTrue(option.contains(c.yamlName()), cmd + " --help lacks " + c.yamlName() + ": " + option);
            }
        }
    }

    @Test
    void aMisspelledClassOnTheCommandLineIsAUsageErrorNamingTheOptionAndTheClasses() {
        CliRun r = CliRun.run("predict", "-c", "dgx-h100x2", "--network", "slingshott", "allreduce", "-b", "8", "-e",
                "8");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertEquals("collsim: --network: 'slingshott' is not a network class; allowed: infiniband, roce, efa, tcpx,"
                + " tcpxo, socket, slingshot", r.err().strip());
        assertEquals("", r.out());
    }

    /** A YAML mistake is an input-file error (exit 3): file, line and column of the value, the field, the value. */
    @Test
    void aMisspelledClassInAClusterYamlIsLocatedWithItsField() throws Exception {
        Path yaml = dir.resolve("sling.yaml");
        Files.writeString(yaml, "schema: collsim/v1\nname: s\nsource: test\nhosts: dgx-h100\ncount: 2\nfabric:\n"
                + "  kind: rail-optimized\n  network: slingshott\n");
        CliRun r = CliRun.run("predict", "-c", yaml.toString(), "allreduce", "-b", "8", "-e", "8");
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        // "  network: slingshott" is line 8; the value starts in column 12
        assertTrue(r.err().contains(yaml + ":8:12: fabric.network: unknown value 'slingshott'; allowed: infiniband,"
                + " roce, efa, tcpx, tcpxo, socket, slingshot"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    /**
     * {@code --network} over a YAML's {@code fabric.network}: the header's Hardware line and the calibration line
     * name the class in force (InfiniBand), not the one the YAML's name and source describe (Slingshot).
     */
    @Test
    void theCalibrationClassFollowsTheNetworkGivenOnTheCommandLine() throws Exception {
        Path yaml = dir.resolve("sling.yaml");
        Files.writeString(yaml, "schema: collsim/v1\nname: h100-slingshot\nsource: DGX H100 on HPE Slingshot\n"
                + "hosts: dgx-h100\ncount: 2\nfabric:\n  kind: rail-optimized\n  network: slingshot\n");
        CliRun sling = CliRun.run("predict", "-c", yaml.toString(), "allreduce", "-b", "1M", "-e", "1M");
        assertEquals(0, sling.code(), sling.err());
        assertTrue(sling.out().contains("NICs per node over HPE Slingshot;"), sling.out());
        assertTrue(sling.out().contains("calibration: none shipped for hopper-slingshot "), sling.out());
        CliRun ib = CliRun.run("predict", "-c", yaml.toString(), "--network", "infiniband", "allreduce", "-b", "1M",
                "-e", "1M");
        assertEquals(0, ib.code(), ib.err());
        assertTrue(ib.out().contains("NICs per node over InfiniBand;"), ib.out());
        assertTrue(ib.out().contains("calibration: none shipped for hopper-infiniband "), ib.out());
        assertFalse(ib.out().contains("HPE Slingshot") || ib.out().contains("hopper-slingshot"), ib.out());
    }

    /**
     * compare, calibrate and tune -m build each file's cluster from its header without -c, network class included
     * (A-allreduce-2x2xH100-dgx-ib.txt: InfiniBand), so --network alone would be ignored: it is refused, naming -c;
     * with -c it applies (the same file compared on -c dgx-h100:2 --network slingshot prints the Slingshot note).
     */
    @Test
    void networkWithoutAClusterIsRefusedWhereTheFilesGiveTheNetwork() {
        String file = Path.of("..", "validation", "src", "test", "resources", "data", "A-allreduce-2x2xH100-dgx-ib.txt")
                .toString();
        for (String[] cmd : new String[][] {{"compare", "-m", file}, {"calibrate", "-m", file, "-o",
                dir.resolve("p.yaml").toString()}, {"tune", "allreduce", "-m", file}}) {
            String[] args = Stream.concat(Arrays.stream(cmd), Stream.of("--network", "slingshot"))
                    .toArray(String[]::new);
            CliRun r = CliRun.run(args);
            assertEquals(ExitCodes.USAGE, r.code(), cmd[0] + ": " + r.err() + r.out());
            assertTrue(r.err().contains("--network slingshot needs -c CLUSTER in '" + cmd[0]), r.err());
        }
        CliRun p = CliRun.run("calibrate", "--profiles", dir.toString(), "-m", file, "--network", "roce");
        assertEquals(ExitCodes.USAGE, p.code(), p.err());
        assertTrue(p.err().contains("leave out -c, --network and --fit"), p.err());
        CliRun withC = CliRun.run("compare", "-m", file, "-c", "dgx-h100:2", "--network", "slingshot");
        assertEquals(0, withC.code(), withC.err());
        assertTrue(withC.out().contains("calibration: none shipped for hopper-slingshot (Hopper, several hosts over HPE Slingshot;"), withC.out());
    }

    /**
     * {@code tcpx} and {@code tcpxo} are two classes (GCP's two plugins): each network line names its own plugin, and
     * a Ring/Simple AllGather of 8 MiB, bound by the network step on TCPX, is predicted slower on it.
     */
    @Test
    void tcpxAndTcpxoAreTwoClasses() {
        CliRun tcpx = CliRun.run("predict", "-c", "dgx-h100x2", "--network", "tcpx", "allgather", "-b", "8M", "-e",
                "8M", "--env", "NCCL_ALGO=Ring", "--env", "NCCL_PROTO=Simple");
        CliRun tcpxo = CliRun.run("predict", "-c", "dgx-h100x2", "--network", "tcpxo", "allgather", "-b", "8M", "-e",
                "8M", "--env", "NCCL_ALGO=Ring", "--env", "NCCL_PROTO=Simple");
        assertEquals(0, tcpx.code(), tcpx.err());
        assertEquals(0, tcpxo.code(), tcpxo.err());
        assertTrue(tcpx.out().contains("over GCP GPUDirect-TCPX;"), tcpx.out());
        assertTrue(tcpxo.out().contains("over GCP GPUDirect-TCPXO;"), tcpxo.out());
        assertTrue(timeUs(tcpx.out()) > timeUs(tcpxo.out()), tcpx.out() + tcpxo.out());
    }

    /** @return the time column of the one result row of a predict table */
    private static double timeUs(String out) {
        String row = out.lines().filter(l -> l.strip().startsWith("8388608")).findFirst().orElseThrow();
        return Double.parseDouble(row.strip().split("\\s+")[5]);
    }

    /**
     * tune -m -c prints the line compare -c prints (HeaderNetworkClass.otherThanGiven) when a file's NCCL INFO log
     * shows another network than the cluster's: a RoCE log ("NET/IB : Using [0]mlx5_0:1/RoCE", NCCL's net_ib.cc
     * prints the link layer after the port) tuned on -c dgx-h200:2, whose catalog hosts are joined by InfiniBand
     * (configs: DGX H200 with ConnectX-7 InfiniBand). With --network roce the classes agree and no line is printed.
     */
    @Test
    void tuneOnAClusterOfAnotherNetworkThanTheLogsSaysSo() throws Exception {
        StringBuilder sb = new StringBuilder("# nThread 1 nGpus 1 minBytes 1024 maxBytes 1048576 step: 4(factor)"
                + " warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 16; r++) {
            sb.append(String.format("#  Rank %2d Group  0 Pid %6d on %8s device  %d [0x%02x] NVIDIA H200%n", r,
                    1000 + r, r < 8 ? "node-01" : "node-02", r % 8, 0x18 + r % 8));
        }
        sb.append("node-01:1000:1000 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB"
                + " eth0:10.0.0.1<0>\nnode-01:1000:1000 [0] NCCL INFO Using network IB\n");
        sb.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                + "   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)"
                + "  (GB/s)            (us)  (GB/s)  (GB/s)\n");
        sb.append("        1024           256     float     sum      -1    36.76    0.03    0.05      0    36.83"
                + "    0.03    0.05      0\n     1048576        262144     float     sum      -1    93.79   11.18"
                + "   20.96      0    94.07   11.15   20.90      0\n");
        sb.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 10.49\n#\n");
        Path log = Files.writeString(dir.resolve("roce.txt"), sb.toString());
        CliRun r = CliRun.run("tune", "allreduce", "-m", log.toString(), "-c", "dgx-h200:2");
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains(": the given cluster's network class, InfiniBand, although the NCCL INFO log shows"
                + " RoCE: the fit on this file and the advice are of that network; add --network roce to model the"
                + " run's"), r.out());
        CliRun roce = CliRun.run("tune", "allreduce", "-m", log.toString(), "-c", "dgx-h200:2", "--network", "roce");
        assertEquals(0, roce.code(), roce.err() + roce.out());
        assertFalse(roce.out().contains("the given cluster's network class"), roce.out());
    }
}
