package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The figures docs/tune.md quotes in prose after its worked example (which {@code DocsExamplesTest} runs): the shipped
 * profile's band and the one AllReduce line it advises between swept sizes, and the bare model's class band and
 * predicted gain when the fit of the AllReduce and NCCL_ALGO files is refused. Each command is run as the page
 * describes it. (The page said 90404436 to 108159699 B and a class band of 40.4 % and 54.6 %; tune printed
 * 90192000..108314931 and 40.6 %, 48.2 %; with a fifth one-host Hopper dataset the class band at >= 1 MiB became
 * 18.5 % and the refused-fit run advised one line; at 10.0 % it advises two, one of them between swept sizes where NCCL
 * still picks Ring/LL.)
 */
class TuneDocFiguresTest {

    private static final String H200X2 = "../data/device/h200x2-2026-11-29/";

    private static String page() throws IOException {
        return Files.readString(Path.of("..", "docs", "tune.md")).replaceAll("\\s*\\n\\s*", " ");
    }

    @Test
    void shippedProfileBandAndItsOneAdvisedLine() throws IOException {
        Matcher m = Pattern.compile("--nccl-version 2\\.28`\\), the band is ([0-9.]+) % .*? one AllReduce line"
                + " \\(([0-9]+) to ([0-9]+) B, about ([0-9]+)-([0-9]+) MiB\\) advises (\\w+/\\w+), where the predicted"
                + " gain passes\\s+the band \\(([0-9.]+-[0-9.]+) %\\)").matcher(page());
        assertTrue(m.find(), "the shipped-profile sentence of docs/tune.md");
        CliRun r = run("tune", "-c", "dgx-h200", "--ranks", "2", "--calibration",
                "../configs/calibration/h200x2-nv18-nccl2.28.yaml", "--nccl-version", "2.28", "allreduce");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("; band " + m.group(1) + " % ("), m.group(1) + " % in:\n" + r.out());
        String line = r.out().lines().filter(l -> l.startsWith("AllReduce ") && l.contains(" use ")).findFirst()
                .orElseThrow(() -> new AssertionError("no advised AllReduce line in:\n" + r.out()));
        String[] cells = line.trim().split("\\s{2,}");
        assertEquals(m.group(2) + ".." + m.group(3), cells[1], line);
        assertEquals("use " + m.group(6), cells[7], line);
        assertEquals(m.group(7) + " %", cells[5], line);
        // "about 86-103 MiB": the byte range over 2^20, rounded down and up
        assertEquals(m.group(4), String.valueOf(Long.parseLong(m.group(2)) >> 20), m.group());
        assertEquals(m.group(5), String.valueOf(Long.parseLong(m.group(3)) >> 20), m.group());
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("AllReduce ") && l.contains(" use ")).count(),
                "one advised line of the table:\n" + r.out());
    }

    @Test
    void refusedFitUsesTheClassBandPrinted() throws IOException {
        Matcher m = Pattern.compile("\\(here ([0-9.]+) % below 1 MiB, ([0-9.]+) % at >= 1 MiB\\): it advises"
                + " (\\w+/\\w+) for ([0-9]+M\\.\\.[0-9]+M), where the predicted ([0-9.]+)-([0-9.]+) % gain passes the"
                + " band, and the measurement there shows ([0-9.]+) %").matcher(page());
        assertTrue(m.find(), "the refused-fit sentence of docs/tune.md");
        CliRun r = run("tune", "--nccl-version", "2.28", "allreduce", "-m", H200X2 + "collsim-all_reduce.json",
                H200X2 + "collsim-sweep-NCCL_ALGO.json");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("no accepted fit"), r.out());
        assertTrue(r.out().contains("; band " + m.group(1) + " % below 1 MiB, " + m.group(2) + " % at >= 1 MiB"),
                "the page's class band in:\n" + r.out());
        List<String> advised = r.out().lines().filter(l -> l.startsWith("AllReduce ") && l.contains(" use "))
                .toList();
        // the page's one advised line (the class band weighs each file once: no line between swept sizes passes it)
        assertEquals(1, advised.size(), "one advised line:\n" + r.out());
        String[] cells = advised.get(0).trim().split("\\s{2,}");
        assertEquals(m.group(4), cells[2], advised.get(0));
        assertEquals("use " + m.group(3), cells[7], advised.get(0));
        assertEquals(m.group(5) + "-" + m.group(6) + " %", cells[5], advised.get(0));
        assertTrue(cells[8].startsWith("measured gain " + m.group(7) + " % "), advised.get(0));
    }
}
