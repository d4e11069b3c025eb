package dev.collsim.cli.predict;

import java.util.List;

/**
 * What a launcher prefix of a pasted nccl-tests line ({@code mpirun -np 32 -N 8 ./build/all_reduce_perf ...}) says
 * about the run: how many processes, how many on each host, the NCCL variables it exports, and the options read but
 * without effect on a prediction. {@link LauncherPrefix} turns it into {@code collsim predict}'s own options.
 *
 * @param text         the launcher and its options that set the layout, as typed, e.g. {@code mpirun -np 32 -N 8}
 * @param procs        processes the launcher starts (mpirun's -np, srun's -n, torchrun's nnodes x nproc_per_node); 0
 *                     when it names none and starts procsPerHost on every node it is given (mpirun -N K without -np:
 *                     every host of the cluster, as predict's {@code --procs-per-host} without {@code --nprocs})
 * @param procsPerHost processes per host, or null when the launcher leaves it to the cluster (fill host 0 first)
 * @param ncclEnv      {@code NCCL_X=V} settings the launcher exports to the processes ({@code -x}, {@code --export})
 * @param ignored      options read that do not change a prediction, as typed (e.g. {@code --bind-to none})
 */
public record LaunchLayout(String text, int procs, Integer procsPerHost, List<String> ncclEnv, List<String> ignored) {

    /** Copies the lists. */
    public LaunchLayout {
        ncclEnv = List.copyOf(ncclEnv);
        ignored = List.copyOf(ignored);
    }

    /**
     * @return the launcher text, the NCCL variables it exports (passed on as {@code --env}) and the options read and
     *         ignored, for the {@code # Ranks:} line
     */
    public String describe() {
        return text + (ncclEnv.isEmpty() ? "" : "; exports " + String.join(" ", ncclEnv))
                + (ignored.isEmpty() ? "" : "; read and ignored: " + String.join(", ", ignored));
    }
}
