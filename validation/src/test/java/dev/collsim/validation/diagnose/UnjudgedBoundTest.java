package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A user's own nccl-tests log across hosts has no {@code #@} header, so it names no NICs and diagnose has no bound to
 * judge its bandwidth by; it used to print "no problem found" (a 2x8 H100 all_reduce at 10 GB/s busbw too). Now an
 * INFO finding says the bandwidth was not judged and how to give the NICs. The file: the DGX H100 2x2 run without its
 * {@code #@} lines (rank lines name node01 and node02; peak busbw 147.98 GB/s, out-of-place at 8589934592 B, line 42
 * of the stripped file).
 */
class UnjudgedBoundTest {

    private static String userLog() throws Exception {
        return Files.readString(Path.of("src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt")).lines()
                .filter(l -> !l.startsWith("#@")).collect(Collectors.joining("\n", "", "\n"));
    }

    private static Diagnoser.Diagnosis diagnose(String text) throws Exception {
        return new Diagnoser().diagnose(MeasurementReader.read("user.txt", text), text.lines().toList()).get(0);
    }

    @Test
    void hostsWithoutStatedNicsAreSaidNotJudged() throws Exception {
        Diagnoser.Diagnosis g = diagnose(userLog());
        List<Finding> f = g.findings().stream().filter(x -> x.kind() == Finding.Kind.BOUND_UNKNOWN).toList();
        assertEquals(1, f.size(), g.findings().toString());
        assertEquals(Finding.Severity.INFO, f.get(0).severity());
        assertTrue(f.get(0).message().startsWith("busbw peaks at 147.98 GB/s; not judged against the hardware's bound:"
                + " the file does not state the NICs of its 2 hosts"), f.get(0).message());
        assertEquals(42, f.get(0).evidence().get(0).line());
        assertTrue(!DiagnosisText.render(List.of(g)).contains("no problem found"));
    }

    /** The header line the message suggests gives the bound: 2 NICs of 400 Gb/s per host, no BOUND_UNKNOWN. */
    @Test
    void theSuggestedHeaderLineGivesTheBound() throws Exception {
        Diagnoser.Diagnosis g = diagnose("#@ interconnect: 2x 400 Gb/s\n" + userLog());
        assertTrue(g.findings().stream().noneMatch(x -> x.kind() == Finding.Kind.BOUND_UNKNOWN), g.findings().toString());
        assertEquals(2, g.nic().orElseThrow().count());
        assertEquals(400.0, g.nic().orElseThrow().gbits());
    }

    /** NCCL 2.30's device lines (src/transport/net_ib/init.cc; speed in Mb/s), as NCCL_DEBUG=INFO prints them. */
    private static final String IB_USING = "node01:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB"
            + " [RO]; OOB ib0:10.0.0.1<0>\n";

    private static String speed(int dev) {
        return "node01:1:2 [0] NCCL INFO NET/IB: [" + dev + "] mlx5_" + dev + ":uverbs" + dev + ":1/IB provider=Mlx5"
                + " speed=400000 context=0x1 pciPath=/x ar=0\n";
    }

    /**
     * The same run with the INFO lines of its two 400 Gb/s NICs per host: the log gives what the header line would
     * (2 x 400 Gb/s = 100 GB/s a host; AllReduce busbw then at most 100 x 2 x 3/4 = 150 GB/s for 4 ranks on 2 hosts,
     * worked by hand), and the measured 147.98 GB/s is within it: no BOUND_UNKNOWN, no FAR_BELOW_BOUND.
     */
    @Test
    void theInfoLogsNicSpeedsGiveTheBound() throws Exception {
        Diagnoser.Diagnosis g = diagnose(speed(0) + speed(1) + IB_USING + userLog());
        assertTrue(g.findings().stream().noneMatch(x -> x.kind() == Finding.Kind.BOUND_UNKNOWN
                || x.kind() == Finding.Kind.FAR_BELOW_BOUND), g.findings().toString());
        assertEquals(2, g.nic().orElseThrow().count());
        assertEquals(400.0, g.nic().orElseThrow().gbits());
        assertEquals(3, g.nic().orElseThrow().line(), "the 'Using' line");
    }

    /** Devices listed without their speed (releases before the speed lines): the message names them. */
    @Test
    void devicesWithoutSpeedAreNamedInTheMessage() throws Exception {
        Diagnoser.Diagnosis g = diagnose(IB_USING + userLog());
        List<Finding> f = g.findings().stream().filter(x -> x.kind() == Finding.Kind.BOUND_UNKNOWN).toList();
        assertEquals(1, f.size(), g.findings().toString());
        assertTrue(f.get(0).message().contains("the NCCL INFO log lists 2 NIC(s) per host (mlx5_0:1 IB, mlx5_1:1 IB,"
                + " line 1) but not their speed"), f.get(0).message());
    }
}
