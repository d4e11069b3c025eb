package dev.collsim.validation.ingest;

import dev.collsim.io.InputProblem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /**
     * The same rank printed by two processes: nccl-tests 2.19.6 {@code src/common.cu run} starts from
     * {@code proc = 0} and takes the process's rank from {@code MPI_Comm_rank} only when built with
     * {@code MPI_SUPPORT}; built without MPI ({@code src/Makefile}: {@code MPI ?= 0}, the default) every process that
     * {@code mpirun} or {@code srun} starts is rank 0 of its own one-process test and prints its own preamble, rank
     * lines and table into the shared output. Such rows measure no communication between the processes.
     *
     * @param file  name to cite in the problem
     * @param ranks the run's Rank lines, in file order
     * @return the problem at the second line of the first rank that two processes claim; empty when every rank has
     *         one process (the same line pasted twice, same host and pid, is not a second process)
     */
    static Optional<InputProblem> repeated(String file, List<RankInfo> ranks) {
        Map<String, RankInfo> seen = new LinkedHashMap<>();
        for (RankInfo r : ranks) {
            RankInfo first = seen.putIfAbsent(r.group() + "/" + r.rank(), r);
            if (first != null && (first.pid() != r.pid() || !first.host().equals(r.host()))) {
                return Optional.of(new InputProblem(file, r.line(), 1, "Rank", "found '#  Rank " + r.rank() + "' for two processes (pid " + first.pid() + " on "
                        + first.host() + " at line " + first.line() + ", pid " + r.pid() + " on " + r.host()
                        + " at line " + r.line() + "): each process ran its own one-process test, as nccl-tests "
                        + "built without MPI does when a launcher starts it several times (rebuild with 'make MPI=1');"
                        + " allowed: each rank listed by one process"));
            }
        }
        return Optional.empty();
    }
}
