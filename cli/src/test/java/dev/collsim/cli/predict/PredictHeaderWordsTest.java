package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * Words of predict's header and first error that a user reads as facts: the nccl-tests binary the rank line names,
 * the ranks per node of an uneven layout, and which error a mistyped bandwidth gets first.
 */
class PredictHeaderWordsTest {

    private static CliRun ok(String... args) {
        CliRun r = run(args);
        assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.err());
        return r;
    }

    /** nccl-tests names its binaries {@code <test>_perf}: AllToAll runs alltoall_perf, not all_reduce_perf. */
    @Test
    void rankLineNamesTheCollectivesBinary() {
        String out = ok("predict", "-c", "dgx-h100x2", "alltoall", "-b", "1G", "-e", "1G").out();
        assertTrue(out.contains("(as mpirun -np <GPUs> alltoall_perf -g 1)"), out);
        assertFalse(out.contains("all_reduce_perf -g 1"), out);
        String b = ok("predict", "-c", "dgx-h100x2", "broadcast", "-b", "1G", "-e", "1G").out();
        assertTrue(b.contains("broadcast_perf -g 1"), b);
    }

    /** 9 ranks on two 8-GPU hosts are 8 on the first and 1 on the second (ranks fill hosts in order). */
    @Test
    void unevenLayoutIsNamedHostByHost() {
        String out = ok("predict", "-c", "dgx-h100x2", "--ranks", "9", "allreduce", "-b", "1G", "-e", "1G").out();
        assertTrue(out.contains("9 ranks on 2 NCCL node(s), 8 + 1 per node"), out);
        String even = ok("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1G", "-e", "1G").out();
        assertTrue(even.contains("16 ranks on 2 NCCL node(s), 8 per node"), even);
    }

    /** A bandwidth typo is named before the rules about which options need --backend flow or --fabric. */
    @Test
    void mistypedLinkSpeedIsTheFirstError() {
        CliRun r = run("predict", "-c", "dgx-h100x2", "--link-speed", "400Gbps", "allreduce", "-b", "1G", "-e", "1G");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--link-speed") && r.err().contains("400Gbps"), r.err());
        assertFalse(r.err().contains("needs --backend"), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
    }

    /** picocli wraps descriptions at dots; the sweep line must not break inside "./collsim". */
    @Test
    void helpHasNoBrokenLauncherPath() {
        String help = ok("--help").out();
        assertFalse(help.contains(".\n") && help.contains("\n /collsim"), help);
        assertFalse(help.contains(" /collsim launcher"), help);
    }
    /**
     * The analytical backend does not see the fabric's oversubscription (docs/report.md: it "does not see link
     * sharing inside the fabric"): the shipped 2:1 fat-tree of 32 DGX H100 (configs/dgx-h100-32x-fattree-2to1.yaml)
     * predicts the same 1 GiB AllReduce row as the non-blocking rail-optimized one (configs/dgx-h100-32x-rail.yaml),
     * so the footer, where a user reads what is not modelled, names it and the backend that does.
     */
    @Test
    void footerSaysTheAnalyticalBackendDoesNotSeeOversubscription() {
        String fat = ok("predict", "-c", "dgx-h100-32x-fattree-2to1", "allreduce", "-b", "1G", "-e", "1G").out();
        String rail = ok("predict", "-c", "dgx-h100-32x-rail", "allreduce", "-b", "1G", "-e", "1G").out();
        assertEquals(row(rail), row(fat));
        assertTrue(fat.contains("Not modelled: congestion from other jobs, link sharing in the fabric (oversubscription,"
                + " ECMP collisions: --backend flow)"), fat);
    }

    private static String row(String out) {
        return out.lines().filter(l -> l.startsWith("  1073741824")).findFirst().orElseThrow();
    }
}
