package dev.collsim.executor;

import dev.collsim.executor.gpu.Native;
import dev.collsim.perf.PerfJson;
import dev.collsim.perf.PerfRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs each NCCL setting of a request in its own worker process (NCCL reads most settings once per process),
 * with the NCCL variables of {@code --env} and the setting, plus {@code NCCL_TOPO_DUMP_FILE} and an INFO log
 * file so the run records the topology and channels NCCL found; merges what the workers return and writes the
 * JSON.
 */
public final class Supervisor {

    /** Most NCCL log lines kept per run. */
    static final int MAX_LOG_LINES = 400;

    private Supervisor() {
    }

    /**
     * The environment of one worker.
     *
     * @param base    the parent's environment
     * @param spec    the request ({@code --env})
     * @param setting the swept setting
     * @param tmp     the worker's scratch directory
     * @return the worker's environment
     */
    public static Map<String, String> workerEnv(Map<String, String> base, RunSpec spec, Map<String, String> setting,
            Path tmp) {
        Map<String, String> env = new HashMap<>(base);
        env.putAll(spec.env());
        env.putAll(setting);
        if (spec.captureNccl()) {
            env.putIfAbsent("NCCL_TOPO_DUMP_FILE", tmp.resolve("topo.xml").toString());
            if (!env.containsKey("NCCL_DEBUG")) {
                env.put("NCCL_DEBUG", "INFO");
                // INIT, GRAPH and ENV log once at start-up; TUNING and COLL would log every call and distort timing
                env.put("NCCL_DEBUG_SUBSYS", "INIT,GRAPH,ENV");
                env.put("NCCL_DEBUG_FILE", tmp.resolve("nccl-%h-%p.log").toString());
            }
        }
        return env;
    }

    /**
     * @param opts    the raw options (re-sent to workers)
     * @param spec    the validated request
     * @param isRank0 true when this process writes the JSON (rank 0 or a single process)
     * @param out     progress lines
     * @param err     errors
     * @return the exit code: 0, 4 (wrong results), 5 (device; before any worker when a sweep's CUDA runtime or
     *         NCCL cannot be loaded), or a worker's other code
     */
    public static int run(RunOptions opts, RunSpec spec, boolean isRank0, PrintStream out, PrintStream err) {
        List<Map<String, String>> settings = EnvSettings.expandSweep(spec.sweepEnv());
        if (settings.size() > 1) {
            // a missing CUDA runtime or NCCL fails every setting alike: say it once, before the first worker starts
            try {
                Native.load();
            } catch (ExecutorException e) {
                err.println("collsim: " + e.getMessage());
                return e.exitCode();
            }
        }
        List<PerfRun> runs = new ArrayList<>();
        int exit = 0;
        for (Map<String, String> setting : settings) {
            String label = EnvSettings.label(setting);
            if (!label.isEmpty() && isRank0) {
                out.println("# collsim settings: " + label);
                out.flush();
            }
            Path tmp = null;
            try {
                tmp = Files.createTempDirectory("collsim-run");
                Path json = tmp.resolve("run.json");
                List<String> cmd = new ArrayList<>();
                cmd.add(ProcessHandle.current().info().command()
                        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                // one GC thread, no concurrent collector threads competing with the timed loop; heap sized once
                cmd.addAll(List.of("-XX:+UseSerialGC", "-Xms1g"));
                cmd.add("-cp");
                cmd.add(System.getProperty("java.class.path"));
                cmd.add("dev.collsim.executor.ExecutorMain");
                cmd.add("--worker-json");
                cmd.add(json.toString());
                cmd.add("--settings-label");
                cmd.add(label);
                cmd.addAll(opts.workerArgs());
                // the worker writes to our terminal directly; when the caller gave other streams (tests, embedding),
                // its output is copied into them instead of leaking to the JVM's own stdout/stderr
                boolean inherit = out == System.out && err == System.err;
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.INHERIT);
                if (inherit) {
                    pb.inheritIO();
                }
                pb.environment().clear();
                pb.environment().putAll(workerEnv(System.getenv(), spec, setting, tmp));
                Process p = pb.start();
                Thread copyOut = inherit ? null : copy(p.getInputStream(), out);
                Thread copyErr = inherit ? null : copy(p.getErrorStream(), err);
                int rc = p.waitFor();
                if (!inherit) {
                    copyOut.join();
                    copyErr.join();
                }
                if (Files.exists(json)) {
                    PerfRun run = PerfJson.read(json);
                    runs.add(run.withMetadata(run.metadata().withNcclOutput(readTopo(tmp, pb.environment()),
                            readLog(tmp))));
                }
                exit = worst(exit, rc);
            } catch (IOException e) {
                err.println("collsim: cannot run the worker process: " + e.getMessage());
                exit = worst(exit, ExecutorException.DEVICE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exit = worst(exit, ExecutorException.DEVICE);
                break;
            } finally {
                deleteTree(tmp);
            }
        }
        if (spec.json() != null && isRank0 && !runs.isEmpty()) {
            try {
                PerfJson.write(runs.size() == 1 && settings.size() == 1 ? runs.get(0) : runs, spec.json());
            } catch (IOException e) {
                err.println("collsim: cannot write " + spec.json() + ": " + e.getMessage());
                exit = worst(exit, ExecutorException.DEVICE);
            }
        }
        return exit;
    }

    /** Copies a worker's output stream into {@code to} on a daemon thread (ends at the worker's end of stream). */
    private static Thread copy(InputStream from, PrintStream to) {
        Thread t = new Thread(() -> {
            try (from) {
                from.transferTo(to);
                to.flush();
            } catch (IOException e) {
                to.println("collsim: lost worker output: " + e.getMessage());
            }
        }, "collsim-worker-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Combines exit codes: a device failure (5) outranks wrong results (4), which outrank usage (2) and success.
     *
     * @param a one code
     * @param b another
     * @return the worse
     */
    public static int worst(int a, int b) {
        int ra = rankOf(a);
        int rb = rankOf(b);
        return ra >= rb ? a : b;
    }

    private static int rankOf(int code) {
        return switch (code) {
            case 0 -> 0;
            case ExecutorException.USAGE -> 1;
            case ExecutorException.WRONG_RESULTS -> 2;
            case ExecutorException.DEVICE -> 3;
            default -> 4;
        };
    }

    private static String readTopo(Path tmp, Map<String, String> env) throws IOException {
        Path f = Path.of(env.getOrDefault("NCCL_TOPO_DUMP_FILE", tmp.resolve("topo.xml").toString()));
        return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8) : null;
    }

    private static List<String> readLog(Path tmp) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> s = Files.list(tmp)) {
            for (Path f : s.filter(p -> p.getFileName().toString().startsWith("nccl-")).sorted().toList()) {
                lines.addAll(Files.readAllLines(f, StandardCharsets.ISO_8859_1));
            }
        }
        return NcclLogFilter.keep(lines, MAX_LOG_LINES);
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // leave it to the OS's temp cleaning
        }
    }
}
