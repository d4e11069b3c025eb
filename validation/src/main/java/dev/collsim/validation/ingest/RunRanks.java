package dev.collsim.validation.ingest;

import dev.collsim.io.NumberField;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How many ranks and hosts ran a table, as the file states them: nccl-tests' {@code #  Rank} lines (with their
 * elisions), else the NCCL INFO log ({@code nranks}, nodes), a title such as {@code 2 nodes x 8 GPUs}, or the
 * {@code #@ nodes_x_gpus} header. {@link DatasetAssembler} checks the count against the table's own busbw factor
 * ({@link FactorRanks}). Stateless.
 */
final class RunRanks {

    private static final Pattern GPUS_IN_TITLE = Pattern.compile(
            "(?:(\\d+)\\s*(?:pods?|hosts?|nodes?|servers?|VMs?)\\s*x\\s*)?(\\d+)\\s*GPUs?\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern HOSTS_IN_TITLE = Pattern.compile("(\\d+)\\s*(?:hosts?|nodes?)\\b",
            Pattern.CASE_INSENSITIVE);

    private RunRanks() {
    }

    /**
     * Ranks the run states: the rank lines' count ({@link #rankLineCount}), the larger of that and the stated count
     * when the lines were cut short, or without rank lines the count the NCCL log, the title or the {@code #@
     * nodes_x_gpus} header gives.
     *
     * @return the ranks, 0 when nothing says
     */
    static int knownRanks(RunContext ctx, NcclLog log, FileHeader header) {
        if (ctx.ranks.isEmpty()) {
            return statedRanks(ctx, log, header);
        }
        int listed = rankLineCount(ctx.ranks);
        return ctx.ranksCut ? Math.max(listed, statedRanks(ctx, log, header)) : listed;
    }

    /** Ranks the NCCL log, the title or the {@code #@ nodes_x_gpus} header give, in that order; 0 when none does. */
    private static int statedRanks(RunContext ctx, NcclLog log, FileHeader header) {
        if (log.nRanks() > 0) {
            return log.nRanks();
        }
        Matcher g = GPUS_IN_TITLE.matcher(ctx.title);
        if (g.find()) {
            // a title is prose: a count it cannot hold means the title says nothing usable, not a bad file
            try {
                long perHost = NumberField.count(g.group(2), "GPUs in the title", 0);
                long hosts = g.group(1) == null ? 1 : NumberField.count(g.group(1), "hosts in the title", 0);
                return perHost * hosts <= Integer.MAX_VALUE ? (int) (perHost * hosts) : 0;
            } catch (NumberField.Refused notACount) {
                return 0;
            }
        }
        Optional<int[]> shape = header.nodesXGpus();
        if (shape.isPresent() && !header.hasSeveralShapes()) {
            return shape.get()[0] * shape.get()[1];
        }
        return 0;
    }

    /**
     * Ranks the rank lines stand for: their count, or the last rank index + 1 when a vendor elided the middle lines
     * ({@code Rank 0}, {@code Rank 1}, ..., {@code Rank 127}); nccl-tests numbers ranks 0..n-1.
     */
    static int rankLineCount(List<RankInfo> ranks) {
        int last = ranks.stream().mapToInt(RankInfo::rank).max().orElse(-1);
        return Math.max(ranks.size(), last + 1);
    }

    /**
     * Hosts the rank lines stand for: the distinct host names, or, when lines were elided, the ranks divided by the
     * ranks a host runs. That is at least the most ranks listed on one host and at least the highest local
     * {@code device} index + 1 (a host whose device 7 is listed runs 8 ranks unless each process sees one GPU).
     */
    static int rankLineHosts(List<RankInfo> ranks) {
        Map<String, Long> perHost = ranks.stream().collect(Collectors.groupingBy(RankInfo::host, Collectors.counting()));
        int n = rankLineCount(ranks);
        if (n == ranks.size()) {
            return perHost.size();
        }
        long most = Math.max(perHost.values().stream().mapToLong(Long::longValue).max().orElse(1),
                ranks.stream().mapToInt(RankInfo::device).max().orElse(0) + 1L);
        return (int) Math.max(perHost.size(), (n + most - 1) / most);
    }

    static void elisionNote(List<RankInfo> ranks, List<Note> notes) {
        int n = rankLineCount(ranks);
        if (!ranks.isEmpty() && n > ranks.size()) {
            notes.add(new Note(ranks.get(0).line(), "rank lines elided: " + ranks.size() + " listed, last rank index "
                    + (n - 1) + "; read as " + n + " ranks on " + rankLineHosts(ranks) + " hosts"));
        }
    }

    /** @return hosts the run states, as {@link #knownRanks} for ranks; 0 when nothing says */
    static int hosts(RunContext ctx, NcclLog log, FileHeader header) {
        if (ctx.ranks.isEmpty()) {
            return statedHosts(ctx, log, header);
        }
        return ctx.ranksCut ? Math.max(rankLineHosts(ctx.ranks), statedHosts(ctx, log, header))
                : rankLineHosts(ctx.ranks);
    }

    /** Hosts the NCCL log, the title or the {@code #@ nodes_x_gpus} header give; 0 when none does. */
    private static int statedHosts(RunContext ctx, NcclLog log, FileHeader header) {
        if (log.nNodes() > 0) {
            return log.nNodes();
        }
        Matcher h = HOSTS_IN_TITLE.matcher(ctx.title);
        if (h.find()) {
            try {
                return NumberField.count(h.group(1), "hosts in the title", 0);
            } catch (NumberField.Refused notACount) {
                // prose that holds no usable count: the rules below decide
            }
        }
        String lt = ctx.title.toLowerCase(Locale.ROOT);
        if (lt.contains("single host") || lt.contains("single node") || lt.contains("intra-node")) {
            return 1;
        }
        Optional<int[]> shape = header.nodesXGpus();
        return shape.isPresent() && !header.hasSeveralShapes() ? shape.get()[0] : 0;
    }
}
