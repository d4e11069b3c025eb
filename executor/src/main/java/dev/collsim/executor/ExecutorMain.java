package dev.collsim.executor;

import dev.collsim.executor.gpu.GpuRunner;
import dev.collsim.perf.PerfJson;
import dev.collsim.perf.PerfRun;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The standalone executor ({@code run-executor COLLECTIVE [nccl-tests flags]}), used on GPU hosts without
 * collsim's full CLI. Without {@code --worker-json} it supervises (one worker process per NCCL setting); with it,
 * it is a worker and runs the GPUs itself.
 *
 * <p>Exit codes: 0 success; 1 internal error; 2 usage error; 4 wrong results (#wrong > 0); 5 no GPU, CUDA or
 * NCCL not loadable, NCCL/CUDA error, timeout, rendezvous failure, too little memory.
 */
@Command(name = "run-executor", mixinStandardHelpOptions = true, version = "collsim executor " + GpuRunner.VERSION,
        description = "Runs an NCCL collective over a size sweep as nccl-tests does; prints nccl-tests' table.")
public final class ExecutorMain implements Callable<Integer> {

    @Mixin
    RunOptions options = new RunOptions();

    @Option(names = "--worker-json", hidden = true, description = "worker mode: write the run here")
    Path workerJson;

    @Option(names = "--settings-label", hidden = true, defaultValue = "")
    String settingsLabel;

    private final PrintStream out;
    private final PrintStream err;

    ExecutorMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** @param args command line */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * @param args command line
     * @param out  standard output
     * @param err  standard error
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new ExecutorMain(out, err));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, cmd, pr) -> {
            if (ex instanceof ExecutorException ee) {
                err.println("collsim: " + ee.getMessage());
                return ee.exitCode();
            }
            err.println("collsim: internal error (please report): " + ex);
            ex.printStackTrace(err);
            return 1;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        RunSpec spec = options.toSpec();
        Optional<LaunchEnv> launch = LaunchEnv.detect(System.getenv());
        boolean rank0 = launch.map(l -> l.rank() == 0).orElse(true);
        if (workerJson == null) {
            return Supervisor.run(options, spec, rank0, out, err);
        }
        return work(spec, launch, workerJson, settingsLabel, out, err);
    }

    /**
     * Worker: run on the GPUs, write the JSON, report wrong results loudly.
     *
     * @param spec   the request
     * @param launch launcher information
     * @param json   where to write the run
     * @param label  setting label
     * @param out    table output
     * @param err    messages
     * @return 0, or 4 when results were wrong
     * @throws ExecutorException for device failures (exit 5)
     */
    public static int work(RunSpec spec, Optional<LaunchEnv> launch, Path json, String label, PrintStream out,
            PrintStream err) {
        PerfRun run = GpuRunner.run(spec, launch, out, label);
        try {
            PerfJson.write(run, json);
        } catch (IOException e) {
            throw new ExecutorException("cannot write " + json + ": " + e.getMessage(), ExecutorException.DEVICE, e);
        }
        if (run.hasWrongResults()) {
            err.println("collsim: WRONG RESULTS: " + run.outOfBounds() + " result(s) of " + spec.programName()
                    + " had wrong elements (see #wrong); NCCL or the GPU computed incorrect data");
            return ExecutorException.WRONG_RESULTS;
        }
        return 0;
    }
}
