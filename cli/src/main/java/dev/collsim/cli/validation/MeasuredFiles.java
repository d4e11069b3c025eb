package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.InputFiles;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Collective;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.Note;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads measurement files for the validation commands, collecting every file's problems before failing. */
final class MeasuredFiles {

    private MeasuredFiles() {
    }

    /** One readable file and its datasets. */
    record Read(Path file, List<Dataset> datasets) {
    }

    /**
     * What a batch command reads: the readable files and how many were skipped.
     *
     * @param reads   the readable files, in order
     * @param skipped files skipped because they could not be read
     */
    record Batch(List<Read> reads, int skipped) {
        /** @return the datasets of every readable file, in order */
        List<Dataset> datasets() {
            return reads.stream().flatMap(r -> r.datasets().stream()).toList();
        }

        /** @param ok the exit code the command would give; @return it, or SKIPPED when it is OK and files were skipped */
        int exitCode(int ok) {
            return ok == ExitCodes.OK && skipped > 0 ? ExitCodes.SKIPPED : ok;
        }
    }

    /**
     * Reads files for a batch command: a file that cannot be read is skipped with one line on {@code err} naming it
     * and its first problem, and the rest are read. A single file, or a batch where no file can be read, fails as
     * {@link #read} does.
     *
     * @param files files and folders
     * @param err   where the skip lines go
     * @return the readable files and the number skipped
     * @throws InputException when nothing can be read, or the one file given cannot
     */
    static Batch readSkipping(List<Path> files, PrintWriter err) throws InputException {
        List<Path> all = expand(files);
        List<Read> reads = new ArrayList<>();
        List<InputProblem> problems = new ArrayList<>();
        int skipped = 0;
        for (Path f : all) {
            try {
                reads.add(new Read(f, warned(f, MeasurementReader.read(f), err)));
            } catch (InputException e) {
                problems.addAll(e.problems());
                skipped++;
                if (all.size() > 1) {
                    err.println("collsim: skipped " + f + ": " + (e.problems().isEmpty() ? e.getMessage()
                            : e.problems().get(0)) + (e.problems().size() > 1 ? " (+" + (e.problems().size() - 1)
                            + " more)" : ""));
                }
            }
        }
        if (reads.isEmpty() && !problems.isEmpty() || all.size() == 1 && !problems.isEmpty()) {
            throw new InputException(problems);
        }
        return new Batch(reads, skipped);
    }

    /**
     * Prints the readers' warnings about one file's datasets on {@code err}, one {@code collsim: warning: FILE:LINE:}
     * line each (the file as the user gave it), then their count.
     *
     * @return the datasets
     */
    static List<Dataset> warned(Path f, List<Dataset> datasets, PrintWriter err) {
        List<Note> warnings = datasets.stream().flatMap(d -> d.warnings().stream()).distinct().toList();
        for (Note n : warnings) {
            err.println("collsim: warning: " + f + (n.line() > 0 ? ":" + n.line() : "") + ": "
                    + n.text().substring(Note.WARNING.length()));
        }
        if (!warnings.isEmpty()) {
            err.println("collsim: " + warnings.size() + " warning" + (warnings.size() == 1 ? "" : "s") + " in " + f);
        }
        err.flush();
        return datasets;
    }

    /**
     * @param err where the readers' warnings go
     * @return datasets of all files, in order; a directory contributes its A-/D-style text and JSON files
     */
    static List<Dataset> read(List<Path> files, PrintWriter err) throws InputException {
        List<Dataset> out = new ArrayList<>();
        List<InputProblem> problems = new ArrayList<>();
        for (Path f : expand(files)) {
            try {
                out.addAll(warned(f, MeasurementReader.read(f), err));
            } catch (InputException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        return out;
    }

    /**
     * Reads the files of an {@code -m} option as {@link #readSkipping} does, after refusing a word of the list that
     * names no file but a collective: {@code -m} takes every word after it (picocli arity 1..*), so
     * {@code tune -m FILE allreduce} hands "allreduce" to {@code -m}, and "no such file" alone would not say why.
     *
     * @param files  the words given to {@code -m}
     * @param err    where the skip lines go
     * @param advice what to do instead, for the command at hand
     * @return the readable files and the number skipped
     * @throws UserError (exit 2, a usage error) naming the word, for the first missing file that parses as a
     *                   {@link Collective}
     */
    static Batch readMeasured(List<Path> files, PrintWriter err, String advice) throws InputException {
        refuseCollectiveNames(files, advice);
        return readSkipping(files, err);
    }

    private static void refuseCollectiveNames(List<Path> files, String advice) {
        for (Path f : files) {
            String w = f.toString();
            if (!Files.exists(f) && w.indexOf('/') < 0 && w.indexOf('\\') < 0 && isCollective(w)) {
                throw new UserError("'" + f + "' is a collective, not a file: " + advice + " (-m takes every word"
                        + " after it)", ExitCodes.USAGE);
            }
        }
    }

    private static boolean isCollective(String word) {
        try {
            Collective.parse(word);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * @return the files, with directories replaced by their measurement files (sorted by name)
     * @throws UserError (exit 3) for a missing file, or a folder holding no measurement file
     */
    static List<Path> expand(List<Path> files) {
        List<Path> out = new ArrayList<>();
        for (Path f : files) {
            InputFiles.require(f, "a measurement file");
            if (Files.isDirectory(f)) {
                int before = out.size();
                try (Stream<Path> s = Files.list(f)) {
                    s.filter(MeasuredFiles::isMeasurement).sorted().forEach(out::add);
                } catch (IOException e) {
                    throw InputFiles.failed(f, e, "a measurement file");
                }
                if (out.size() == before) {
                    throw new UserError(f + ": a folder with no measurement files (looked for *.txt, *.log, *.json,"
                            + " A-* and D-*)", ExitCodes.INPUT);
                }
            } else {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Files of a data folder that hold measurements: in the public data set those are named A-* (nccl-tests tables)
     * and D-* (logs with results); B- (topo -m) and C- (XML) files hold none. Other names: .txt, .log, .json.
     */
    private static boolean isMeasurement(Path p) {
        String n = p.getFileName().toString();
        if (n.startsWith("B-") || n.startsWith("C-") || n.equals("INDEX.md")) {
            return false;
        }
        return n.startsWith("A-") || n.startsWith("D-") || n.endsWith(".txt") || n.endsWith(".log")
                || n.endsWith(".json");
    }

    /** @return the lines of a text file (empty for JSON or unreadable files) */
    static List<String> lines(Path f) {
        try {
            String s = Files.readString(f);
            return s.stripLeading().startsWith("{") || s.stripLeading().startsWith("[") ? List.of() : List.of(s.split("\\r\\n|\\r|\\n", -1));
        } catch (IOException e) {
            return List.of();
        }
    }
}
