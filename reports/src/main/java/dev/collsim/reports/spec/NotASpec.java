package dev.collsim.reports.spec;

import dev.collsim.io.InputProblem;
import dev.collsim.io.TopologyReader;
import dev.collsim.perf.NcclTestsLayout;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Optional;

/**
 * A file given where a report spec goes that is another of collsim's inputs: a cluster description (YAML cluster
 * spec, InfraGraph, NCCL topology XML, nvidia-smi topo -m text, detected as {@code -c} detects them,
 * {@link ClusterLoader#readers()}) or nccl-tests output (a table header, {@link NcclTestsLayout#parse}). Read as a
 * spec, such a file gave one problem per top-level key of the cluster, or a problem quoting the whole table as one
 * YAML scalar; this names what the file is and where it goes instead. Stateless.
 */
final class NotASpec {

    /**
     * Lines searched for a table header: nccl-tests prints its header after the preamble and one line per rank,
     * so a few thousand lines reach it for a few thousand ranks; a spec is far shorter than that.
     */
    private static final int LINES_LOOKED_AT = 5000;

    private NotASpec() {
    }

    /**
     * @param fileName name to cite
     * @param content  the file's text
     * @return the problem (line 1, column 1) when the file is a cluster description or a measurement; empty otherwise
     */
    static Optional<InputProblem> of(String fileName, String content) {
        for (TopologyReader r : ClusterLoader.readers()) {
            if (r.accepts(content)) {
                return Optional.of(new InputProblem(fileName, 1, 1, "", "found a cluster description ("
                        + r.format() + "), not a report spec; allowed: a report spec (YAML with 'variants', 'sweeps',"
                        + " 'plans'; see examples/whatif-default.yaml) whose 'cluster:' names this file, or give the"
                        + " file to -c/--cluster of topo, predict or plan"));
            }
        }
        int line = 0;
        for (String l : content.lines().limit(LINES_LOOKED_AT).toList()) {
            line++;
            String t = l.strip();
            if (t.startsWith("#") && NcclTestsLayout.parse(t, line) != null) {
                return Optional.of(new InputProblem(fileName, line, 1, "", "found an nccl-tests table header, a"
                        + " measurement, not a report spec; allowed: a report spec (YAML) whose sweep names this file"
                        + " as 'measured:', or give the file to compare -m or diagnose"));
            }
        }
        return Optional.empty();
    }
}
