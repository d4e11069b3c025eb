package dev.collsim.sweep.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How to run a sweep. Immutable.
 *
 * @param spec      the sweep spec file
 * @param out       output folder (null with {@code benchmark})
 * @param master    Spark master URL; {@code local[N]} computes here with N threads
 * @param chunk     points per Spark task (and per resumable chunk file)
 * @param jars      jars executors of a cluster need (collsim and its libraries); empty in local mode
 * @param conf      further Spark settings
 * @param progress  whether to print progress on standard error
 * @param benchmark compute every point and report the rate only: no output, no resume
 */
public record SweepOptions(Path spec, Path out, String master, int chunk, List<String> jars, Map<String, String> conf,
        boolean progress, boolean benchmark) {

    /** Copies the collections. */
    public SweepOptions {
        jars = List.copyOf(jars);
        conf = Map.copyOf(conf);
    }
}
