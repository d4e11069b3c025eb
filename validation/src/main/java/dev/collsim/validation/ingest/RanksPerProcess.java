package dev.collsim.validation.ingest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the launch shape a file gave ({@code # nThread T nGpus G} line or {@code #@ command:} header) against its
 * {@code #  Rank r Group g Pid p on HOST device d} lines. nccl-tests (2.19.6 {@code src/common.cu run}, device report
 * of {@code src/util.cu writeDeviceReport}) prints one Rank line for each GPU of each thread of each process, with the
 * process's pid, so every process lists exactly T x G lines. Where every process lists the same count K above
 * T x G (a list cut short has fewer lines, never more), the lines that name the processes win (a pasted
 * {@code # nThread} line can come from another run of the same page: OCI's GB200 single-host AllReduce lists 4 ranks
 * under one pid below "nThread 1 nGpus 1"), the shape becomes T threads of K / T GPUs, and a warning says so.
 * Stateless.
 */
final class RanksPerProcess {

    private RanksPerProcess() {
    }

    /**
     * @param given the shape the {@code # nThread} line or the command gave
     * @param ranks the run's Rank lines, in file order (may be empty)
     * @param notes where a warning goes when the Rank lines overrule the given shape
     * @return the given shape, or the one the Rank lines imply
     */
    static LaunchShape check(LaunchShape given, List<RankInfo> ranks, List<Note> notes) {
        if (!given.known() || ranks.isEmpty()) {
            return given;
        }
        Map<String, Integer> perProcess = new LinkedHashMap<>();
        ranks.forEach(r -> perProcess.merge(r.host() + " pid " + r.pid(), 1, Integer::sum));
        int k = perProcess.values().iterator().next();
        int threads = Math.max(1, given.threads());
        boolean uniform = perProcess.values().stream().allMatch(c -> c == k);
        // a list cut short shows fewer lines than a process has ranks, never more: only a larger count overrules
        if (!uniform || k <= threads * given.gpusPerThread() || k % threads != 0) {
            return given;
        }
        String process = perProcess.keySet().iterator().next();
        notes.add(Note.warning(ranks.get(0).line(), "the launch ('# nThread' line or command) says nThread "
                + threads + " nGpus " + given.gpusPerThread() + " (" + threads * given.gpusPerThread()
                + " rank(s) per process), but the '#  Rank' lines list " + k + " under each process (" + process + "): read as " + threads
                + " thread(s) of " + k / threads + " GPUs (-g " + k / threads + ")"));
        return new LaunchShape(threads, k / threads, given.graphLaunches(), given.iterations(), given.blocking());
    }
}
