package dev.collsim.validation.compare;

import dev.collsim.simulator.HostLaunch;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.LaunchShape;
import java.util.Optional;

/**
 * The host launch a compared run had ({@link HostLaunch}), from what its file says ({@link Dataset#launch()}):
 * nccl-tests' {@code # nThread T nGpus G ... iters: N ... graph: N} line, a JSON result's config, or the
 * {@code #@ command:} header; timed calls per run as nccl-tests' default (20) where the file does not say; blocking
 * calls ({@code -z}) where its {@code # Blocking Enabled} line, JSON config or command says so. A file that says
 * nothing is read as one GPU per process (nccl-tests {@code -g 1}), and the comparison's
 * assumptions say so. Stateless.
 */
final class DatasetLaunch {

    private DatasetLaunch() {
    }

    /**
     * @param d a dataset
     * @return how its benchmark drove the GPUs; {@link HostLaunch#ONE_GPU_PER_PROCESS} when the file does not say
     */
    static HostLaunch of(Dataset d) {
        LaunchShape s = d.launch();
        if (!s.known()) {
            return HostLaunch.ONE_GPU_PER_PROCESS;
        }
        int n = s.iterations() > 0 ? s.iterations() : HostLaunch.DEFAULT_ITERATIONS;
        return new HostLaunch(s.gpusPerThread(), Math.max(1, s.threads()), s.graphLaunches() > 0, n, s.blocking());
    }

    /**
     * @param d a dataset
     * @return the assumption line when the file does not give its GPUs per process, the host launch's description
     *         ({@link HostLaunch#describe}) when its calls block (nccl-tests {@code -z}) or one thread drives several
     *         GPUs (nccl-tests {@code -g} above 1: a host cost of tens of us at small sizes that a reader of the
     *         table should not have to guess), else empty
     */
    static Optional<String> assumption(Dataset d) {
        if (d.launch().known() && (d.launch().blocking() || d.launch().gpusPerThread() > 1)) {
            return Optional.of(of(d).describe());
        }
        return d.launch().known() ? Optional.empty() : Optional.of("GPUs per process not given by the file"
                + " (no nccl-tests '# nThread' line or -g on the command line): 1 assumed, as mpirun -np <ranks>"
                + " ... -g 1; with -g G one thread launches G kernels per iteration");
    }
}
