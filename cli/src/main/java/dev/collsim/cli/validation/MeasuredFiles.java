package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.InputFiles;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Collective;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.MachineFiles;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.Note;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reads measurement files for the validation commands, collecting every file's problems before failing. */
final class MeasuredFiles {

    private MeasuredFiles() {
    }

    /**
     * One readable file and its datasets.
     *
     * @param file     the file, as the user gave it
     * @param datasets the datasets chosen: every one, or those a {@code FILE:LINE} chose
     * @param whole    every dataset of the file (diagnose judges a chosen run against the others)
     */
    record Read(Path file, List<Dataset> datasets, List<Dataset> whole) {
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
     * {@link #read} does. A {@code FILE:LINE} word ({@link #tableAt}) keeps only the tables of FILE that start at
     * LINE; a line that starts none fails the command, whatever else was read.
     *
     * @param files files, folders and {@code FILE:LINE} words
     * @param err   where the skip lines go
     * @return the readable files (each with the datasets chosen) and the number skipped
     * @throws InputException when nothing can be read, or the one file given cannot, or a {@code FILE:LINE} starts no
     *                        table of FILE (one problem each, listing the lines FILE's tables start at)
     */
    static Batch readSkipping(List<Path> files, PrintWriter err) throws InputException {
        List<Source> all = expand(files, err);
        List<Read> reads = new ArrayList<>();
        List<InputProblem> problems = new ArrayList<>();
        List<InputProblem> unmatched = new ArrayList<>();
        int skipped = 0;
        for (Source s : all) {
            Path f = s.file();
            try {
                chosen(s, unmatched).ifPresent(r -> reads.add(new Read(f, warned(f, r.datasets(), err),
                        r.whole())));
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
        if (!unmatched.isEmpty()) {
            throw new InputException(unmatched);
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
     * @return datasets of all files, in order; a directory contributes its measurement files ({@link #leftOut}), a
     *         {@code FILE:LINE} word the tables of FILE that start at LINE ({@link #tableAt})
     */
    static List<Dataset> read(List<Path> files, PrintWriter err) throws InputException {
        List<Dataset> out = new ArrayList<>();
        List<InputProblem> problems = new ArrayList<>();
        for (Source s : expand(files, err)) {
            try {
                chosen(s, problems).ifPresent(r -> out.addAll(warned(s.file(), r.datasets(), err)));
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
     * One measured file the user named, and which of its tables: all of them, or those that start at one line.
     *
     * @param file the file, as the user gave it (a folder's file under the folder)
     * @param line the 1-based line the chosen tables start at ({@link Dataset#line()}); empty: every table
     */
    record Source(Path file, OptionalInt line) {
    }

    /**
     * Reads one source and keeps the tables it chose.
     *
     * @param unmatched where a {@code FILE:LINE} that starts no table of FILE is added, as {@code FILE:LINE: table:
     *                  found ...; allowed: ...} listing the lines the file's tables start at
     * @return the file with the datasets chosen, empty when the line starts none
     * @throws InputException when the file cannot be read
     */
    private static Optional<Read> chosen(Source s, List<InputProblem> unmatched) throws InputException {
        List<Dataset> all = MeasurementReader.read(s.file());
        if (s.line().isEmpty()) {
            return Optional.of(new Read(s.file(), all, all));
        }
        int n = s.line().getAsInt();
        List<Dataset> chosen = all.stream().filter(d -> d.line() == n).toList();
        if (chosen.isEmpty()) {
            unmatched.add(new InputProblem(s.file().toString(), n, 0, "table", "found no table starting at line " + n
                    + "; allowed: " + all.stream().map(d -> String.valueOf(d.line())).distinct()
                    .collect(Collectors.joining(", ")) + " (the lines its tables start at, as compare and accuracy"
                    + " print FILE:LINE)"));
            return Optional.empty();
        }
        return Optional.of(new Read(s.file(), chosen, all));
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
     * @param err where a folder's left-out files are named, one {@code collsim: left out FILE: why} line each
     * @return the files, with directories replaced by their measurement files (sorted by name, see {@link
     *         #leftOut}), and a {@code FILE:LINE} word by FILE and that line ({@link #tableAt})
     * @throws UserError (exit 3) for a missing file, or a folder holding no measurement file
     */
    static List<Source> expand(List<Path> files, PrintWriter err) {
        List<Source> out = new ArrayList<>();
        for (Path word : files) {
            Optional<Source> at = tableAt(word);
            Path f = at.map(Source::file).orElse(word);
            InputFiles.requireFileOrFolder(f, "a measurement file or folder");
            if (at.isPresent() || !Files.isDirectory(f)) {
                out.add(at.orElse(new Source(f, OptionalInt.empty())));
                continue;
            }
            List<Path> inFolder;
            try (Stream<Path> s = Files.list(f)) {
                inFolder = s.sorted().toList();
            } catch (IOException e) {
                throw InputFiles.failed(f, e, "a measurement file");
            }
            int before = out.size();
            List<String> left = new ArrayList<>();
            for (Path p : inFolder) {
                Optional<String> why = leftOut(p);
                if (why.isEmpty()) {
                    out.add(new Source(p, OptionalInt.empty()));
                } else if (!p.getFileName().toString().startsWith(".")) {
                    left.add("collsim: left out " + p + ": " + why.get());
                }
            }
            if (out.size() == before) {
                throw new UserError(f + ": a folder with no measurement files (looked for " + NAMES + "; "
                        + (inFolder.isEmpty() ? "it is empty" : left.size() + " file(s) left out: " + left.stream()
                        .map(l -> l.substring(l.indexOf(f.toString()))).collect(Collectors.joining("; "))) + ")",
                        ExitCodes.INPUT);
            }
            left.forEach(err::println);
        }
        err.flush();
        return out;
    }

    /**
     * The tables of one file chosen by the line they start at, as compare's headings, diagnose and accuracy name a
     * dataset ({@code FILE:LINE}, {@link Dataset#line()}): a word that names no existing file but whose part after
     * its last colon is digits and whose part before names a file. A name that exists as given, colon and all, is
     * that file.
     *
     * @param word a word of the command line
     * @return the file and line, or empty when the word is no {@code FILE:LINE}
     * @throws UserError (exit 3) when the part before the colon is a folder (a line chooses a table of one file), or
     *                   names a file but what follows its colon is not a line number ({@code FILE:abc},
     *                   {@code FILE:19:3})
     */
    static Optional<Source> tableAt(Path word) {
        String w = word.toString();
        int colon = w.lastIndexOf(':');
        String digits = w.substring(colon + 1);
        if (colon < 1 || Files.exists(word)) {
            return Optional.empty();
        }
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            notALine(word);
            return Optional.empty();
        }
        Path file = word.getFileSystem().getPath(w.substring(0, colon));
        if (Files.isDirectory(file)) {
            throw new UserError(word + ": no such file, and " + file + " is a folder; allowed: FILE:LINE (a table of"
                    + " one file) or a folder (every table of its files)", ExitCodes.INPUT);
        }
        if (!Files.exists(file)) {
            notALine(word);
            return Optional.empty();
        }
        // a line beyond int's range starts no table: it is refused, with the lines that do, as any other
        return Optional.of(new Source(file, OptionalInt.of(digits.length() > 9 ? Integer.MAX_VALUE
                : Integer.parseInt(digits))));
    }

    /**
     * @param word a word of the command line that names no file, with a colon after its first character
     * @throws UserError (exit 3) when a part of it before a colon names a file: the rest was meant as its line
     */
    private static void notALine(Path word) {
        String w = word.toString();
        for (int c = w.indexOf(':', 1); c > 0; c = w.indexOf(':', c + 1)) {
            Path file = word.getFileSystem().getPath(w.substring(0, c));
            if (Files.isRegularFile(file)) {
                throw new UserError(word + ": no such file, and after " + file + " comes '" + w.substring(c)
                        + "', which is not a line number; allowed: FILE or FILE:LINE (LINE: the line a table starts"
                        + " at, as compare and accuracy print FILE:LINE)", ExitCodes.INPUT);
            }
        }
    }

    /** The file names a folder's measurements have, in words. */
    static final String NAMES = "*.txt, *.log, *.out, *.json and A-* to D-* that are not machine files";

    /**
     * Whether a file of a folder is read as a measurement. A machine file ({@code nvidia-smi topo -m} text or NCCL
     * topology XML, by content: {@link MachineFiles#detect}; the public data set's B- and C- files) holds none and is
     * left out, as is a file whose name no measurement has (a note, a picture: not {@code .txt}, {@code .log},
     * {@code .out} (Slurm's job output), {@code .json}, {@code A-*}, {@code B-*}, {@code C-*} or {@code D-*}), a
     * hidden file and a folder inside the folder (not read recursively). Every other file is read, and one that cannot
     * be is skipped and named by the batch command ({@link #readSkipping}).
     *
     * @return empty when the file is read, else why it is left out
     */
    static Optional<String> leftOut(Path p) {
        String n = p.getFileName().toString();
        if (n.startsWith(".")) {
            return Optional.of("a hidden file");
        }
        if (Files.isDirectory(p)) {
            return Optional.of("a folder inside the folder (not read: give it on its own to read its files)");
        }
        if (!Files.isRegularFile(p)) {
            return Optional.of("not a regular file");
        }
        boolean named = n.startsWith("A-") || n.startsWith("B-") || n.startsWith("C-") || n.startsWith("D-")
                || n.endsWith(".txt") || n.endsWith(".log") || n.endsWith(".out") || n.endsWith(".json");
        if (!named) {
            return Optional.of("not a measurement file's name; allowed: " + NAMES);
        }
        String text;
        try {
            text = Files.readString(p, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return Optional.empty(); // read as a measurement, whose reader names the failure
        }
        return MachineFiles.detect(text, HardwareHints.NONE).map(r -> "holds " + ("nccl-xml".equals(r.format())
                ? "NCCL topology XML" : "nvidia-smi topo -m text") + ", a machine, not a measurement (give it to"
                + " -c/--cluster)");
    }

    /** @return the lines of a text file (empty for JSON or unreadable files) */
    static List<String> lines(Path f) {
        try {
            String s = Files.readString(f);
            return MeasurementReader.isJson(s) ? List.of() : List.of(s.split("\\r\\n|\\r|\\n", -1));
        } catch (IOException e) {
            return List.of();
        }
    }
}
