package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.NumberField;
import dev.collsim.perf.NcclTestsLayout;
import dev.collsim.perf.NcclTestsRows;
import dev.collsim.perf.PerfRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests text output of any version (2.0 to 2.19: with or without the {@code root} column, the old
 * {@code error} column, {@code N/A} checks, per-iteration and timestamp columns), as users paste it: interleaved
 * NCCL INFO/WARN lines, {@code srun -l} ({@code " 0: "}) and {@code mpirun --tag-output}
 * ({@code "[1,0]<stdout>:"}) prefixes, ISO 8601 time stamps before each line ({@code kubectl logs --timestamps}),
 * SkyPilot's job-log prefix ({@link LinePrefixes}), any other prefix its comment lines share ({@link LearnedPrefix}),
 * CRLF, a truncated last row, several runs in one file, and reduced markdown tables ({@link MarkdownTableReader}). Output format reference: nccl-tests 2.19.6 {@code src/util.cu}.
 *
 * <p>Each run becomes a {@link Dataset}. A run starts at a section title ({@code ##}, {@code ###},
 * {@code **...**}), a command line naming a {@code *_perf} binary, an nccl-tests preamble after a finished
 * table, or a new table header. A row that starts like a data row but does not parse is an error with its line
 * and column; only the last row of a table may be cut short (its in-place half is then dropped, with a note). A
 * units row naming a unit nccl-tests does not print ({@code (ms)}) is an error too: times are read as microseconds.
 */
public final class NcclTestsTextReader {

    private static final Pattern RANK = Pattern.compile(
            "^#\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+(\\d+)\\s+)?Pid\\s+(\\d+)\\s+on\\s+(\\S+)\\s+device\\s+(\\d+)\\s+\\[([^\\]]*)\\]\\s+(.*?)\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\s*\\d+\\s+\\d+\\s+\\S+");
    private static final Pattern AVG = Pattern.compile("Avg bus bandwidth\\s*:\\s*([0-9.eE+-]+)");
    private static final Pattern STARTING = Pattern.compile("Collective test starting:\\s*(\\S+)");
    private static final Pattern LIBRARY = Pattern.compile("nccl-library=(\\d+)");
    private static final String COLLSIM_RUN = "# collsim run "; // its first line states nccl-library= too
    private static final Pattern MAXBYTES = Pattern.compile("maxBytes\\s+(\\d+)");
    /** The line collsim's executor prints before each table of a settings sweep ({@code Supervisor}). */
    private static final String SETTINGS = "# collsim settings:";
    private static final Pattern SEPARATOR = Pattern.compile("^\\s*\\|?\\s*:?-{2,}:?\\s*(\\|\\s*:?-{2,}:?\\s*)*\\|?\\s*$");

    private final String file;
    private final String[] lines;
    /** Each line's number in the file (differs from index + 1 after {@link InterleavedStreams} rebuilt the lines). */
    private final int[] lineNos;
    private final int interleaveCuts;
    private final LearnedPrefix prefix;
    private final FileHeader.Builder headerBuilder = new FileHeader.Builder();
    private FileHeader header;
    private final List<Dataset> out = new ArrayList<>();
    private final List<InputProblem> problems = new ArrayList<>();
    private final OrphanRows orphans = new OrphanRows();

    private RunContext ctx = new RunContext();
    private NcclTestsLayout layout;
    private CpuTime cpuTime; // the table's -C 1 state, null when its time column is the GPU time
    private final List<PerfPoint> rows = new ArrayList<>();
    private final List<Note> tableNotes = new ArrayList<>();
    private final List<IterationSpread.Sample> iters = new ArrayList<>();
    private int tableLine;
    private double avg = Double.NaN;
    private int avgLine;
    /** What the last footer that could not be read lacked ({@link DatasetAssembler#footerLacks}). */
    private String footerLacks = "no collective or rank count";
    private PerfPoint partial;
    private InputProblem partialProblem; // reported when another row follows partial

    private NcclTestsTextReader(String file, String content) {
        this.file = file;
        String[] raw = content.split("\\r\\n|\\r|\\n", -1);
        this.prefix = LearnedPrefix.of(raw);
        InterleavedStreams.Result split = InterleavedStreams.split(prefix.bare(raw)); // prefixes stand between pieces
        this.lines = split == null ? raw : split.texts();
        this.lineNos = split == null ? null : split.lineNumbers();
        this.interleaveCuts = split == null ? 0 : split.cuts();
    }

    /** @return the file line of rebuilt line i */
    private int no(int i) {
        return lineNos == null ? i + 1 : lineNos[i];
    }

    /**
     * Reads every run in a file.
     *
     * @param file    name to cite in messages
     * @param content the file's text
     * @return the datasets, in file order (at least one)
     * @throws InputException when a row does not parse, a claim contradicts the table, or nothing measurable was
     *                        found; every problem found is listed
     */
    public static List<Dataset> read(String file, String content) throws InputException {
        return new NcclTestsTextReader(file, content).run();
    }

    private List<Dataset> run() throws InputException {
        for (int i = 0; i < lines.length; i++) {
            String c = clean(lines[i]);
            if (c.strip().startsWith("#@")) {
                headerBuilder.accept(c, no(i));
            }
        }
        header = headerBuilder.build();
        problems.addAll(header.problems(file));
        int i = 0;
        while (i < lines.length) {
            i = step(i);
        }
        flush(false);
        orphans.problem(file).ifPresent(problems::add);
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        if (out.isEmpty()) {
            throw new InputException(DatasetAssembler.nothingRead(file, String.join("\n", lines), avgLine,
                    footerLacks));
        }
        return out;
    }

    private String clean(String raw) {
        return prefix.strip(raw);
    }

    /**
     * Handles the line at index i, returns the next index. A number the line's field cannot take is one problem of
     * the file (located at its column); reading goes on with the next line.
     */
    private int step(int i) throws InputException {
        try {
            return stepLine(i);
        } catch (NumberField.Refused e) {
            String raw = lines[i];
            String cleaned = clean(raw).strip();
            problems.add(e.shifted(Math.max(0, raw.indexOf(cleaned))).at(file, no(i)));
            return i + 1;
        }
    }

    private int stepLine(int i) throws InputException {
        int no = no(i);
        String text = clean(lines[i]);
        String t = text.strip();
        if (t.isEmpty() || t.startsWith("#@")) {
            return i + 1;
        }
        if (ctx.log.accept(text, no)) {
            int warn = t.indexOf("NCCL WARN");
            if (warn >= 0 && layout != null) {
                tableNotes.add(Note.warning(no, "NCCL WARN inside the results table ("
                        + abbreviate(t.substring(warn + "NCCL WARN".length()).strip()) + "): the run hit an error"
                        + " there; the rows around it may not be valid"));
            }
            return i + 1;
        }
        if (text.contains("|") && i + 1 < lines.length && SEPARATOR.matcher(clean(lines[i + 1])).matches()) {
            return markdown(i);
        }
        if (isTitle(t)) {
            flush(false);
            ctx = new RunContext();
            ctx.title = t.replaceAll("^#+\\s*", "").replace("**", "").strip();
            ctx.titleLine = no;
            ctx.weakClaims(Claims.words(ctx.title), no, "title");
            return i + 1;
        }
        if (!t.startsWith("#") && t.contains("_perf") && !ROW.matcher(t).find()) {
            newRunIfDone();
            var named = Claims.perfBinaries(t);
            ctx.unmodelledClaim(t, no);
            if (named.size() == 1) {
                ctx.strong = new RunContext.Claim(named.iterator().next(), no, "command line");
            }
            if (ctx.title.isEmpty()) {
                ctx.title = t.length() > 80 ? t.substring(0, 80) + "..." : t;
                ctx.titleLine = no;
            }
            return i + 1;
        }
        if (t.startsWith("#")) {
            comment(t, no);
            return i + 1;
        }
        if (ROW.matcher(t).find() || layout != null && !t.contains("|") && NcclTestsRows.rowLike(t)) {
            row(text, no, lines[i].length() - text.length(), i);
            return i + 1;
        }
        Matcher a = AVG.matcher(t);
        if (a.find()) {
            footer(a, no);
            return i + 1;
        }
        if (t.equals("...") || t.startsWith("...")) {
            if (layout == null && !ctx.ranks.isEmpty() && ctx.ranks.get(ctx.ranks.size() - 1).line() == no - 1) {
                ctx.ranksCut = true;
                ctx.notes.add(new Note(no, "rank lines cut by the author ('...') after rank "
                        + ctx.ranks.get(ctx.ranks.size() - 1).rank() + ": ranks and hosts read from the NCCL log,"
                        + " the title or the #@ nodes_x_gpus header where they give more"));
            } else {
                (layout != null ? tableNotes : ctx.notes).add(new Note(no, "lines elided by the author ('...')"));
            }
            return i + 1;
        }
        if (layout != null) {
            tableNotes.add(new Note(no, "text inside the table ignored: '" + abbreviate(t) + "'"));
        }
        return i + 1;
    }

    private static String abbreviate(String t) {
        return t.length() > 60 ? t.substring(0, 60) + "..." : t;
    }

    private static boolean isTitle(String t) {
        return t.startsWith("##") || (t.startsWith("**") && t.indexOf("**", 2) > 2);
    }

    /** A new run begins: close the current one if it already has a table or footer. */
    private void newRunIfDone() throws InputException {
        if (layout != null || !rows.isEmpty() || !Double.isNaN(avg)) {
            flush(false);
            ctx = new RunContext();
        }
    }

    private void comment(String t, int no) throws InputException {
        Matcher m;
        if (t.startsWith(SETTINGS)) {
            newRunIfDone();
            RunEnv.collect(t.substring(SETTINGS.length()), ctx.settings);
        } else if (t.contains("nccl-tests version") || t.startsWith(COLLSIM_RUN)) {
            newRunIfDone();
            if ((m = LIBRARY.matcher(t)).find()) {
                ctx.library = NcclRelease.fromCode(NumberField.count(m, 1, "nccl-library"));
            }
        } else if ((m = STARTING.matcher(t)).find()) {
            newRunIfDone();
            ctx.unmodelledClaim(m.group(1), no);
            Claims.single(Claims.perfBinaries(m.group(1))).ifPresent(
                    c -> ctx.strong = new RunContext.Claim(c, no, "'Collective test starting'"));
        } else if (t.startsWith("# nThread") || t.startsWith(RunContext.BLOCKING)) {
            newRunIfDone();
            ctx.nThreadLine(t);
            if ((m = MAXBYTES.matcher(t)).find()) {
                ctx.maxBytes = NumberField.longCount(m, 1, "maxBytes");
            }
        } else if ((m = RANK.matcher(t)).matches()) {
            newRunIfDone(); // rows exist only under a layout: a finished table or a footer closes the run
            // nccl-tests before 2.13.4 print no Group (src/common.cu: "#   Rank %2d Pid %6d on %10s device %2d
            // [0x%02x] %s"); NCCL_TESTS_SPLIT did not exist then, so every rank is in group 0
            ctx.ranks.add(new RankInfo(NumberField.count(m, 1, "Rank"),
                    m.group(2) == null ? 0 : NumberField.count(m, 2, "Group"),
                    NumberField.longCount(m, 3, "Pid"), m.group(4), NumberField.count(m, 5, "device"), m.group(6),
                    m.group(7), no));
        } else if (t.startsWith("# Using devices")) {
            newRunIfDone();
        } else if (t.startsWith("# error:")) { // nccl-tests 2.19.6 src/util.cu writeErrors: ncclGetLastError
            (layout != null ? tableNotes : ctx.notes).add(new Note(no, "nccl-tests printed NCCL's last error after "
                    + "the run: '" + abbreviate(t.substring("# error:".length()).strip()) + "'"));
        } else if ((m = AVG.matcher(t)).find()) {
            footer(m, no);
        } else if (t.contains("Collective test concluded")) {
            flush(false);
            ctx = new RunContext();
        } else {
            NcclTestsLayout.checkUnits(t);
            NcclTestsLayout l = NcclTestsLayout.parse(t, no);
            if (l != null) {
                if (!rows.isEmpty()) {
                    flush(true);
                }
                layout = l;
                tableLine = no;
                cpuTime = CpuTime.start(t, no);
            } else if (t.contains("...") && t.toLowerCase().contains("truncated")) {
                (layout != null ? tableNotes : ctx.notes).add(new Note(no, "author's elision: " + abbreviate(t)));
            } else {
                orphans.comment(t, no);
            }
        }
    }

    private void footer(Matcher m, int no) throws InputException {
        if (!Double.isNaN(avg) && rows.isEmpty() && layout == null) {
            flush(false);
        }
        avg = NumberField.finite(m, 1, "Avg bus bandwidth");
        avgLine = no;
        if (layout == null && rows.isEmpty()) {
            flush(false);
            ctx = new RunContext();
        }
    }

    private void row(String t, int no, int prefix, int index) {
        if (layout == null) {
            orphans.row(no);
            return;
        }
        if (partial != null) {
            problems.add(partialProblem);
            partial = null;
        }
        NcclTestsRows.Result r = NcclTestsRows.parse(file, layout, t, no);
        InputProblem p = r.problem();
        if (p != null) {
            // nccl-tests' -T or failure message inside the row, or a short row with nothing of the table after it (a
            // killed job): a warning, the run's last size is lost and nothing after it (footer, tables) was written
            String cut = CutShort.stopped(t).or(() -> t.strip().split("\\s+").length >= layout.width()
                    ? Optional.empty() : CutShort.endsOutput(List.of(lines).subList(index + 1, lines.length).stream().map(this::clean).toList()))
                    .orElse(null);
            if (cut != null) {
                tableNotes.add(Note.warning(no, "output cut short: " + cut + " at line " + no + " (" + p.message()
                        + "); the row is dropped"));
            } else {
                problems.add(p.column() > 0 ? new InputProblem(p.file(), p.line(), p.column() + prefix, p.field(),
                        p.message()) : p);
            }
            return;
        }
        PerfRow parsed = cpuTime == null ? r.row() : cpuTime.derive(layout, t, r.row(), no);
        if (parsed == null) {
            return;
        }
        String negative = PerfPoint.negative(parsed);
        if (negative != null) {
            tableNotes.add(Note.warning(no, negative + ": no measured value is below zero; the row is dropped"));
            return;
        }
        if (r.truncated()) {
            partial = new PerfPoint(parsed, no);
            partialProblem = NcclTestsRows.cutShort(file, layout, t, no, prefix);
            return;
        }
        rows.add(new PerfPoint(parsed, no));
        IterationSpread.fromRow(layout, t, parsed.size(), no).ifPresent(iters::add);
    }

    private int markdown(int start) throws InputException {
        int end = start + 2;
        while (end < lines.length && clean(lines[end]).contains("|")) {
            end++;
        }
        String after = end < lines.length ? clean(lines[end]).strip() : "";
        List<String> block = new ArrayList<>();
        for (int k = start; k < end; k++) {
            block.add(clean(lines[k]));
        }
        flush(false);
        List<Dataset> ds = MarkdownTableReader.read(file, header, ctx, block, no(start), after);
        out.addAll(ds);
        return end;
    }

    /**
     * Closes the current table (if any) into a dataset.
     *
     * @param keepContext true when another table of the same run follows
     */
    private void flush(boolean keepContext) throws InputException {
        String cutRow = "";
        if (partial != null) {
            cutRow = "last row cut short (line " + partial.line() + "): in-place columns dropped";
            rows.add(partial);
            partial = null;
        }
        Optional<Note> cut = CutShort.note(rows, cutRow, !keepContext && Double.isNaN(avg),
                ctx.maxBytes > 0 ? ctx.maxBytes : CutShort.maxBytesOf(header.text("command")));
        cut.ifPresent(tableNotes::add);
        IterationSpread.note(iters).ifPresent(tableNotes::add);
        iters.clear();
        if (!rows.isEmpty()) {
            if (interleaveCuts > 0) {
                tableNotes.add(new Note(tableLine, "NCCL's log and the table were written into one file at once: "
                        + interleaveCuts + " NCCL line(s) and table row(s) broken into each other, both rebuilt (line numbers are "
                        + "where each rebuilt line began)"));
            }
            int first = out.size();
            CpuTime.note(cpuTime).ifPresent(tableNotes::add);
            TypeOpRootTables.assemble(file, header, ctx, rows, tableLine, avg, tableNotes, out, problems);
            CpuTime.round(cpuTime, out.subList(first, out.size()));
        } else if (cpuTime != null && cpuTime.dropped > 0) {
            problems.add(cpuTime.refusal(file));
        } else if (!Double.isNaN(avg)) {
            DatasetAssembler.footerOnly(file, header, ctx, avg, avgLine).ifPresentOrElse(out::add,
                    () -> footerLacks = DatasetAssembler.footerLacks(header, ctx));
        }
        RunContext keep = ctx.continuation();
        rows.clear();
        tableNotes.clear();
        layout = null;
        cpuTime = null;
        avg = Double.NaN;
        if (keepContext) {
            ctx = keep;
        }
    }
}
