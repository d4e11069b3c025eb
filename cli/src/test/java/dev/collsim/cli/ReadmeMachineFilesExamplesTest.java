package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the {@code ./collsim} commands of the README section "Reading real machines (nvidia-smi topo -m, NCCL XML)"
 * (with {@code $D} expanded and {@code -o} redirected to a temporary folder) and checks that each exits 0 and that
 * the output block shown after the commands appears, line by line and in order, in the first command's output.
 */
class ReadmeMachineFilesExamplesTest {

    private static final Pattern ARG = Pattern.compile("\"([^\"]*)\"|(\\S+)");

    @Test
    void readmeMachineFileExamplesRunAsShown(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Reading real machines (nvidia-smi topo -m, NCCL XML)");
        assertTrue(start >= 0, "README section missing");
        int end = readme.indexOf("\n## ", start + 5);
        String[] lines = readme.substring(start, end < 0 ? readme.length() : end).split("\n");
        String d = null;
        List<List<String>> commands = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        boolean inOutput = false;
        int fences = 0;
        for (String line : lines) {
            if (line.startsWith("D=")) {
                d = line.substring(2).split("\\s+")[0];
            } else if (line.startsWith("./collsim ")) {
                List<String> words = new ArrayList<>();
                Matcher m = ARG.matcher(line.substring(10).split("  +#")[0].replace("$D", Path.of("..", d).toString()));
                while (m.find()) {
                    words.add(m.group(1) != null ? m.group(1) : m.group(2));
                }
                commands.add(words);
            } else if (line.startsWith("```")) {
                fences++;
                inOutput = fences == 3; // the second block: opened by the 3rd fence, closed by the 4th
            } else if (inOutput) {
                shown.add(line);
            }
        }
        assertEquals(5, commands.size(), commands.toString());
        String first = null;
        List<String> outs = new ArrayList<>();
        for (List<String> words : commands) {
            int o = words.indexOf("-o");
            if (o >= 0) {
                words.set(o + 1, dir.resolve(words.get(o + 1)).toString());
            }
            CliRun r = CliRun.run(words.toArray(String[]::new));
            assertEquals(0, r.code(), words + "\n" + r.err());
            first = first == null ? r.out() : first;
            outs.add(r.out());
        }
        // the README's sentence after the examples, kept in step with the commands: over PCIe (SHM: the 8 GPUs meet
        // through the CPUs) with the warning, read as sm90 (the XML names no GPU; its 32 GT/s links say PCIe Gen5,
        // Hopper or later), where NCCL's table picks Tree/Simple; the figure is worked out by hand (treeOverShmBusBw)
        assertTrue(outs.get(3).contains("PCIe-only prediction") && outs.get(3).contains("Tree      Simple"),
                outs.get(3));
        double tree = busBw(outs.get(3));
        assertEquals(treeOverShmBusBw(), tree, 0.01 * treeOverShmBusBw(), outs.get(3));
        assertTrue(outs.get(4).contains(" NVLS ") && outs.get(4).contains(" 462.17 "), outs.get(4));
        assertTrue(readme.replaceAll("\\s+", " ").contains("predicts NVLS at 462.17 GB/s busbw for 1 GiB, where the one"
                + " before gave Tree over PCIe at " + String.format(Locale.ROOT, "%.2f.", tree)),
                "README sentence changed or out of step with the output: update this test");
        assertTrue(Files.readString(dir.resolve("dgx-h100-topo.xml")).startsWith("<system version=\"1\">"));
        List<String> actual = List.of(first.split("\n"));
        int at = 0;
        assertTrue(shown.size() >= 4, shown.toString());
        for (String e : shown) {
            while (at < actual.size() && !actual.get(at).equals(e)) {
                at++;
            }
            assertTrue(at < actual.size(), "line not in output, in order: '" + e + "'\n" + first);
        }
    }

    /** @return the busbw column of the 1 GiB row of a predict table, GB/s */
    private static double busBw(String out) {
        String row = Stream.of(out.split("\n")).filter(l -> l.trim().startsWith("1073741824 ")).findFirst()
                .orElseThrow(() -> new AssertionError("no 1 GiB row: " + out));
        return Double.parseDouble(row.trim().split("\\s+")[7]);
    }

    /**
     * AllReduce of 1 GiB on the Azure ND v5 XML read without hints: 8 GPUs (sm90) on PCIe Gen5 x16 links, 4 per
     * Sapphire Rapids socket, no NVLink, so every GPU pair meets through the CPUs (SHM transport), worked out by hand.
     * <ul>
     *   <li>Link rate: the XML's {@code <cpu vendor="GenuineIntel" familyid="6" modelid="143">} is Sapphire Rapids
     *       (Linux intel-family.h SAPPHIRERAPIDS_X 0x8F), whose 4 UPI links at 16 GT/s x 2 B move 128 GB/s per
     *       direction (Intel ARK Xeon Platinum 8480+); NCCL's 22 GB/s for it (NCCL 2.30.7 {@code src/graph/topo.h}
     *       SRP_QPI_BW) stays NCCL's view (the Channels line: ring 2 x 11 GB/s). The ring crosses that link once each
     *       way; each GPU's own Gen5 x16 link, timed at NCCL's scale (16 x 240 / 80 = 48 GB/s), carries its hop once
     *       each way, so the GPU's link binds: 48 GB/s.</li>
     *   <li>x bwEfficiencySimple 0.98 (PerformanceParameters defaults) x the SHM share of a Gen5 link, 0.815 (a GPU
     *       storing to and loading from host memory at once, the project's probe on an H100, ShmLinkShare): the busiest
     *       rank's link moves 48 x 0.98 x 0.815 = 38.338 GB/s per direction.</li>
     *   <li>Ratio: NCCL's Tree on one node is a chain; a middle rank sends each byte up and down (NCCL 2.30.7
     *       {@code src/device/all_reduce.h runTreeSplit}), so algbw = 38.338 / 2 = 19.169 GB/s, and 1 GiB takes
     *       1073741824 / 19169 = 56 015 us.</li>
     *   <li>Fixed part: NCCL 2.30.7 {@code tuning.cc} Tree/Simple latency baseLat 8.4 + 2 x (8 - 1) x hwLat PCI 4 =
     *       64.4 us; the chain's first 512 KiB slice (buffSize 4 MiB / NCCL_STEPS 8) crosses 2 x 8 - 1 = 15 staging
     *       steps, less the 2 slice times the data term counts: (15 x 0.815 - 2) x 524288 B at 38.338 / 4 runtime
     *       channels = 9.584 GB/s = 559 us. Left out: the launch (1 us) and SHM flag round trips (about 20 us), under
     *       0.02 %.</li>
     *   <li>busbw = 1073741824 / (64.4 + 559 + 56 015 us) x 2 x 7 / 8 (nccl-tests' AllReduce factor) = 33.18 GB/s.
     *       </li>
     * </ul>
     * The model printed 33.20 (33.16 before the chain's second slice, IntraNodeChain.fillSlices, shortened the fill),
     * within 0.1 % of this (15.21 while the XML's inter-CPU link was NCCL's 22 GB/s physically too).
     */
    private static double treeOverShmBusBw() {
        double link = 16 * 240.0 / 80 * 0.98 * 0.815;
        double dataUs = (1L << 30) / (link / 2 * 1000);
        double latencyUs = 8.4 + 2 * 7 * 4.0;
        double fillUs = (15 * 0.815 - 2) * 524288 / (link / 4 * 1000);
        return (1L << 30) / ((latencyUs + fillUs + dataUs) * 1000) * 2 * 7 / 8;
    }
}
