package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        // through the CPUs) with the warning, now read as sm90 (the XML names no GPU; its 32 GT/s links say PCIe Gen5,
        // Hopper or later), where NCCL's search at sm90 finds 2 x 11 GB/s rings and its table picks Tree/Simple: 15.21
        // (read as sm80 it was Ring at 17.55), NVLS at 463.54
        assertTrue(outs.get(3).contains("PCIe-only prediction") && outs.get(3).contains(" 15.21 ")
                && outs.get(3).contains("Tree      Simple"), outs.get(3));
        assertTrue(outs.get(4).contains(" NVLS ") && outs.get(4).contains(" 463.54 "), outs.get(4));
        assertTrue(readme.replaceAll("\\s+", " ").contains("predicts NVLS at 463.54 GB/s busbw for 1 GiB, where the one"
                + " before gave Tree over PCIe at 15.21"), "README sentence changed: update this test");
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
}
