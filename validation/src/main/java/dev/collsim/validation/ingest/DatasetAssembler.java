package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.TopologyReader;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.perf.PerfResult;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.MachineFiles;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns rows plus run context into a {@link Dataset}: decides the collective from the table itself (redop, root,
 * count versus size, busbw/algbw ratio; nccl-tests 2.19.6 {@code src/*.cu}) and checks it against what the file
 * claims. A claim made by the file's own output ("Collective test starting", the command line) that the table
 * contradicts is an error; a claim from a title or the provenance header only earns a note.
 */
final class DatasetAssembler {

    /**
     * The end of an NCCL debug line's prefix ({@code host:pid:tid [dev] NCCL INFO }), anywhere on a line (mpirun
     * prefixes its own {@code [1,3]<stdout>:}).
     */
    private static final Pattern NCCL_LINE = Pattern.compile("\\[\\d{1,10}\\] NCCL (?:INFO|WARN) ");

    private DatasetAssembler() {
    }

    static Dataset assemble(String file, FileHeader header, RunContext ctx, List<PerfPoint> rows, int line,
            DatasetKind kind, double avgBusBw, List<Note> tableNotes) throws InputException {
        if (!ctx.unmodelled.isEmpty()) {
            throw new InputException(new InputProblem(file, ctx.unmodelledLine, 0, "collective", "found "
                    + ctx.unmodelled + " (its table at line " + line + "), a pattern collsim does not model; allowed: "
                    + Collective.allowed()));
        }
        var twice = RanksPerProcess.repeated(file, ctx.ranks);
        if (twice.isPresent()) {
            throw new InputException(twice.get());
        }
        List<Note> notes = new ArrayList<>(ctx.notes);
        notes.addAll(tableNotes);
        NcclLog log = ctx.log.build();
        int knownRanks = RunRanks.knownRanks(ctx, log, header);
        Collective collective = decide(file, header, ctx, rows, line, notes);
        int claimed = knownRanks > 0 ? knownRanks : ratioRanks(collective, rows);
        if (claimed < 1) {
            throw new InputException(new InputProblem(file, line, 0, "nRanks",
                    "cannot tell how many ranks ran this table: no '#  Rank' lines, no NCCL log, no 'N GPUs' in the "
                            + "title and no single NxM in the #@ nodes_x_gpus header"));
        }
        // a count from prose (title, header) yields to the count nccl-tests computed its busbw with
        OptionalInt table = knownRanks > 0 && (ctx.ranks.isEmpty() || ctx.ranksCut) && log.nRanks() <= 0
                ? FactorRanks.contradicted(collective, claimed, rows) : OptionalInt.empty();
        int nRanks = table.orElse(claimed);
        int hosts = FactorRanks.hosts(claimed, RunRanks.hosts(ctx, log, header), nRanks);
        table.ifPresent(n -> notes.add(FactorRanks.warning(line, claimed, n, hosts)));
        List<PerfPoint> points = rows.stream()
                .map(p -> new PerfPoint(p.row().withRun(collective.testName(), nRanks), p.line())).toList();
        countCheck(collective, nRanks, rows, notes);
        RepeatedRows.check(rows, notes);
        RunRanks.elisionNote(ctx.ranks, notes);
        return new Dataset(file, label(ctx, line), line, kind, collective, dataType(rows, notes), nRanks,
                hosts, gpuModel(ctx, header), release(ctx, log, header), env(header, ctx, log),
                header, ctx.ranks, points, avgBusBw, Double.NaN, log, notes,
                RanksPerProcess.check(ctx.launch(header), ctx.ranks, notes));
    }

    /**
     * Notes rows whose count column does not match size for the collective and rank count (nccl-tests rules). The
     * size column is what nccl-tests moved, max(send, recv) x element size ({@code CollGeometry#sizeBytes}), so the
     * count is exact: size / element size for AllReduce, Broadcast, Reduce and SendRecv; size / (element size x
     * ranks) for the per-rank counts of AllGather, ReduceScatter, AllToAll, Gather and Scatter, whether or not the
     * nccl-tests release rounded that count down to 16 bytes (the printed size is then of the rounded count). No
     * tolerance: a count one element off is another call than the size says.
     */
    static void countCheck(Collective c, int n, List<PerfPoint> rows, List<Note> notes) {
        for (PerfPoint r : rows) {
            PerfPoint p = r;
            int elt = TableCollective.eltSize(r.type());
            if (p.count() < 0 || p.sizeBytes() == 0) {
                continue;
            }
            long expected = CollGeometry.ofSize(c, p.sizeBytes(), elt, n).paramCount();
            boolean perRank = switch (c) {
                case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> true;
                default -> false;
            };
            long exact = p.sizeBytes() / elt / (perRank ? n : 1);
            if (p.count() != expected && p.count() != exact) {
                notes.add(new Note(p.line(), "count " + p.count() + " does not match size " + p.sizeBytes()
                        + " for " + c.testName() + " on " + n + " ranks (expected " + expected + ")"));
            }
        }
    }

    static String label(RunContext ctx, int line) {
        return ctx.title.isEmpty() ? "table at line " + line : ctx.title;
    }

    private static String gpuModel(RunContext ctx, FileHeader header) {
        Optional<String> common = ctx.ranks.stream().collect(Collectors.groupingBy(RankInfo::gpuModel,
                LinkedHashMap::new, Collectors.counting())).entrySet().stream()
                .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
        return common.orElse(header.text("hardware"));
    }

    /**
     * The release the run states: its NCCL INFO log's {@code NCCL version} line, else nccl-tests'
     * {@code nccl-library=} code, else the {@code #@ nccl_version} header: the part labelled for this run without its
     * remarks, else its unlabelled part ({@link RunEnv#statementForRun}: {@code (a) 2.26.5 ...; (b) unknown} gives
     * runs (a1) and (a2) 2.26.5 and runs (b1) and (b2) no release, which then take what a file that states none
     * takes).
     */
    static NcclRelease release(RunContext ctx, NcclLog log, FileHeader header) {
        NcclRelease fromLog = NcclRelease.parse(log.version());
        if (fromLog.known()) {
            return fromLog;
        }
        return ctx.library.known() ? ctx.library : NcclRelease.parse(RunEnv.statementForRun(
                header.text("nccl_version"), ctx.title));
    }

    static Map<String, String> env(FileHeader header, RunContext ctx, NcclLog log) {
        Map<String, String> env = new LinkedHashMap<>(RunEnv.forRun(header.text("env"), ctx.title));
        env.putAll(ctx.settings);
        env.putAll(log.env());
        return env;
    }

    private static DataType dataType(List<PerfPoint> rows, List<Note> notes) {
        Map<String, Long> types = rows.stream().collect(Collectors.groupingBy(PerfPoint::type, Collectors.counting()));
        Optional<String> t = types.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
        if (t.isEmpty()) {
            return null;
        }
        try {
            return DataType.parse(t.get());
        } catch (IllegalArgumentException e) {
            notes.add(new Note(rows.get(0).line(), "unknown data type '" + t.get() + "'"));
            return null;
        }
    }

    /** Decides the collective; see the class comment. */
    private static Collective decide(String file, FileHeader header, RunContext ctx, List<PerfPoint> rows, int line,
            List<Note> notes) throws InputException {
        int n = RunRanks.knownRanks(ctx, ctx.log.build(), header);
        Set<Collective> content = TableCollective.fromContent(rows, n);
        Set<Collective> anyRow = EnumSet.noneOf(Collective.class);
        for (PerfPoint r : rows) {
            anyRow.addAll(TableCollective.fromContent(List.of(r), n));
        }
        if (ctx.strong != null && !anyRow.isEmpty() && !anyRow.contains(ctx.strong.collective())) {
            throw new InputException(new InputProblem(file, rows.get(0).line(), 0, "collective",
                    "line " + ctx.strong.line() + " (" + ctx.strong.source() + ") says "
                            + ctx.strong.collective().testName() + " but the table's rows are those of "
                            + names(content) + " (redop, root and count columns)"));
        }
        if (ctx.strong != null) {
            return ctx.strong.collective();
        }
        Set<Collective> weak = new LinkedHashSet<>(ctx.weakSet());
        for (Collective w : weak) {
            if (anyRow.isEmpty() || anyRow.contains(w)) {
                return w;
            }
        }
        Set<Collective> fromHeader = Claims.perfBinaries(header.text("command"));
        Optional<Collective> h = Claims.single(fromHeader);
        if (h.isPresent() && (anyRow.isEmpty() || content.contains(h.get()))) {
            return h.get();
        }
        if (content.isEmpty()) {
            throw new InputException(new InputProblem(file, line, 0, "collective",
                    "cannot tell which collective this table measured: no 'Collective test starting' line, no "
                            + "*_perf command and no collective named in the title; allowed: " + Collective.allowed()));
        }
        Collective pick = content.iterator().next();
        int last = rows.get(rows.size() - 1).line();
        String rowsText = "the rows at " + file + ":" + rows.get(0).line() + (last > rows.get(0).line() ? "-" + last
                : "") + " (redop, root, size = " + TableCollective.sizeOverCount(rows)
                + " x count x type size) are those of "
                + names(content) + "; read as " + pick.testName() + (pick == Collective.ALL_TO_ALL ? " (in-place "
                + "#wrong is N/A on every row, which nccl-tests 2.19.6 prints only for alltoall and sendrecv)" : "");
        if (weak.isEmpty() && fromHeader.isEmpty()) {
            // nccl-tests before 2.16.7 print no 'Collective test starting' line (src/common.cu), so a pasted table
            // often names nothing: a reading, not a contradiction
            notes.add(new Note(rows.get(0).line(), Note.NAMES_NO_COLLECTIVE + rowsText));
            return pick;
        }
        String claimed = !weak.isEmpty() ? names(weak) + " (title)"
                : names(fromHeader) + " (#@ command, line " + header.line("command") + ")";
        notes.add(new Note(rows.get(0).line(), Note.CLAIM_CONTRADICTED + claimed + " but " + rowsText));
        return pick;
    }

    private static String names(Set<Collective> set) {
        return set.stream().map(Collective::testName).collect(Collectors.joining(" or "));
    }

    /**
     * Ranks implied by the busbw/algbw ratio of the row with the largest algbw (nccl-tests factors: AllReduce
     * 2(n-1)/n, AllGather/ReduceScatter/AllToAll (n-1)/n).
     *
     * @return the rank count, or 0 when the ratio cannot tell
     */
    static int ratioRanks(Collective c, List<PerfPoint> rows) {
        Optional<PerfResult> t = rows.stream().map(r -> r.primary())
                .filter(x -> x.algBw() > 0 && x.busBw() > 0).max(Comparator.comparingDouble(PerfResult::algBw));
        if (t.isEmpty()) {
            return 0;
        }
        return BusBandwidth.ranksForFactor(c, t.get().busBw() / t.get().algBw());
    }

    /**
     * @param text        the file's text
     * @param avgLine     the last 'Avg bus bandwidth' line read, 0 when none
     * @param footerLacks what that footer lacked, {@link #footerLacks}
     * @return the problem of a text file from which no run could be read: no table, and no footer that
     *         {@link #footerOnly} could place (it needs the collective and the rank count); a machine file given
     *         where a measurement goes (-m, diagnose) is named as what it is
     */
    static InputProblem nothingRead(String file, String text, int avgLine, String footerLacks) {
        Optional<TopologyReader> machine = avgLine > 0 ? Optional.empty()
                : MachineFiles.detect(text, HardwareHints.NONE);
        if (machine.isPresent()) {
            return new InputProblem(file, 0, 0, "", "holds " + ("nccl-xml".equals(machine.get().format())
                    ? "NCCL topology XML" : "nvidia-smi topo -m text") + ", which describes a machine, not a"
                    + " measurement; give it to -c/--cluster (e.g. collsim compare -c " + file + " -m MEASURED);"
                    + " allowed here: nccl-tests output (a '#  size  count  type ...' header followed by rows)");
        }
        if (avgLine > 0) {
            return new InputProblem(file, avgLine, 1, "Avg bus bandwidth", "found this footer but no table rows, and"
                    + " " + footerLacks + " to read it with; allowed: a table ('#  size  count  type ...' and"
                    + " rows), or the footer with a *_perf command or 'Collective test starting' line and"
                    + " '#  Rank' lines");
        }
        String nccl = text.isBlank() ? (text.isEmpty() ? " (the file is empty: 0 bytes" : " (the file holds only"
                + " blank lines") + "; did the run print to another file, e.g. stderr or another rank's log?)"
                : NCCL_LINE.matcher(text).find() ? " (the file holds NCCL_DEBUG=INFO lines, which say how NCCL set"
                + " up, not how long a call took: add the nccl-tests output the run printed with them)" : "";
        return new InputProblem(file, 0, 0, "", "no nccl-tests table, reduced table, summary or 'Avg bus bandwidth'"
                + " line found" + nccl + "; expected nccl-tests output (a '#  size  count  type ...' header followed"
                + " by rows)");
    }


    /**
     * A run that printed only nccl-tests' footer: a dataset when the ranks and the collective are known, else a note.
     */
    static Optional<Dataset> footerOnly(String file, FileHeader header, RunContext ctx, double avg, int avgLine) {
        int n = RunRanks.knownRanks(ctx, ctx.log.build(), header);
        Optional<Collective> collective = footerCollective(header, ctx);
        if (n < 1 || collective.isEmpty()) {
            ctx.notes.add(new Note(avgLine, "'Avg bus bandwidth' line without table, ranks or collective: ignored"));
            return Optional.empty();
        }
        NcclLog log = ctx.log.build();
        return Optional.of(new Dataset(file, label(ctx, avgLine), avgLine, DatasetKind.FOOTER_ONLY,
                collective.get(), null, n, ctx.ranks.isEmpty() ? 0 : RunRanks.rankLineHosts(ctx.ranks),
                ctx.ranks.isEmpty() ? header.text("hardware") : ctx.ranks.get(0).gpuModel(),
                release(ctx, log, header), env(header, ctx, log), header, ctx.ranks,
                List.of(), avg, Double.NaN, log, ctx.notes));
    }

    /** @return the collective a footer-only run is read with: the log's or title's claim, the command's binary */
    private static Optional<Collective> footerCollective(FileHeader header, RunContext ctx) {
        return Claims.single(ctx.weakSet()).or(() -> Claims.single(Claims.perfBinaries(header.text("command"))))
                .or(() -> ctx.strong == null ? Optional.empty() : Optional.of(ctx.strong.collective()));
    }

    /**
     * @return what a footer that {@link #footerOnly} could not read lacks, in words: "no collective", "no rank
     *         count" or "no collective or rank count"
     */
    static String footerLacks(FileHeader header, RunContext ctx) {
        boolean ranks = RunRanks.knownRanks(ctx, ctx.log.build(), header) >= 1;
        boolean collective = footerCollective(header, ctx).isPresent();
        return "no " + (!collective && !ranks ? "collective or rank count" : !collective ? "collective" : "rank count");
    }
}
