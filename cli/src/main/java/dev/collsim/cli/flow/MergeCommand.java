package dev.collsim.cli.flow;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code collsim merge}: joins the CSV outputs of a sweep split with {@code --shard I/N} (e.g. the tasks of a Slurm
 * array job) into one CSV sorted by size. All files must have the same header; a size present twice is an error,
 * even with identical rows (shards never overlap, so an overlap means a file or a shard was given twice).
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Join the CSV outputs of 'collsim predict ... --shard I/N --format csv' into one sweep, sorted"
                + " by size.",
            "Fails (exit 3) on differing headers, a size in two files (or twice in one, e.g. a file given twice), or"
                + " a non-numeric size."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error", "2:usage error (bad option)",
            "3:a shard cannot be read, headers differ, a size is given twice, or a size is not a number"})
public final class MergeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "CSV files written by the shards")
    private List<Path> files = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write here (atomically) instead of"
            + " standard output")
    private Path output;

    @Override
    public Integer call() throws IOException, InputException {
        String header = null;
        Map<Long, String> rows = new TreeMap<>();
        Map<Long, String> origin = new TreeMap<>();
        List<InputProblem> problems = new ArrayList<>();
        if (output != null) {
            OutputPaths.check(output, "-o");
        }
        for (Path f : files) {
            if (Files.isDirectory(f)) {
                throw new UserError(f + ": is a directory, not a shard CSV", ExitCodes.INPUT);
            }
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            if (lines.isEmpty()) {
                problems.add(new InputProblem(f.toString(), 1, 1, "", "empty file; expected a CSV header line"));
                continue;
            }
            if (header == null) {
                header = lines.get(0);
            } else if (!header.equals(lines.get(0))) {
                problems.add(new InputProblem(f.toString(), 1, 1, "header", "differs from " + files.get(0)
                        + "'s; all shards must come from the same command"));
                continue;
            }
            for (int i = 1; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.isBlank()) {
                    continue;
                }
                String first = line.substring(0, line.indexOf(',') < 0 ? line.length() : line.indexOf(','));
                long size;
                try {
                    size = Long.parseLong(first.trim());
                } catch (NumberFormatException e) {
                    problems.add(new InputProblem(f.toString(), i + 1, 1, "size", "'" + first
                            + "' is not a size in bytes"));
                    continue;
                }
                if (rows.containsKey(size)) {
                    problems.add(new InputProblem(f.toString(), i + 1, 1, "size", "size " + size + " also in "
                            + origin.get(size) + (rows.get(size).equals(line) ? " (the same row)" : "")
                            + "; shards must not overlap (was a file given twice, or a --shard I/N run twice?)"));
                    continue;
                }
                rows.put(size, line);
                origin.put(size, f.toString());
            }
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        StringBuilder sb = new StringBuilder(header).append('\n');
        rows.values().forEach(r -> sb.append(r).append('\n'));
        if (output == null) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(sb);
            out.flush();
        } else {
            OutputPaths.write(output, "-o", w -> w.write(sb.toString()));
        }
        return ExitCodes.OK;
    }
}
