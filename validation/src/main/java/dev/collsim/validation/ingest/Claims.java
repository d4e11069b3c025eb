package dev.collsim.validation.ingest;

import dev.collsim.nccl.Collective;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds which collective a piece of text names: {@code all_reduce_perf}, {@code AllReduce}, {@code all-reduce}. */
final class Claims {

    private static final Pattern PERF = Pattern.compile("\\b([a-z_]+?)_perf(?:_mpi)?\\b");
    private static final Pattern WORD = Pattern.compile(
            "(all[-_ ]?reduce|all[-_ ]?gather|reduce[-_ ]?scatter|all[-_ ]?to[-_ ]?all|broadcast|bcast|send[-_ ]?recv"
                    + "|\\breduce\\b)", Pattern.CASE_INSENSITIVE);

    private Claims() {
    }

    /** @return the collectives named by {@code <name>_perf} binaries in the text */
    static Set<Collective> perfBinaries(String text) {
        Set<Collective> out = new LinkedHashSet<>();
        Matcher m = PERF.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            parse(m.group(1)).ifPresent(out::add);
        }
        return out;
    }

    /**
     * nccl-tests binaries whose pattern is no collective collsim models: hypercube_perf (send/recv to the peer
     * across each of log2(n) dimensions, v2.10.0-v2.19.6 src/hypercube.cu) and alltoallv_perf (per-peer counts,
     * v2.19.6 src/alltoallv.cu).
     *
     * @return the first such binary the text names, as written ({@code hypercube_perf}), or empty
     */
    static Optional<String> unmodelledBinary(String text) {
        Matcher m = PERF.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            if (m.group(1).equals("hypercube") || m.group(1).equals("alltoallv")) {
                return Optional.of(m.group(1) + "_perf");
            }
        }
        return Optional.empty();
    }

    /** @return the collectives named by words in the text (binaries included) */
    static Set<Collective> words(String text) {
        Set<Collective> out = new LinkedHashSet<>(perfBinaries(text));
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            String w = m.group(1).toLowerCase(Locale.ROOT).replace("bcast", "broadcast");
            parse(w.replace(" ", "")).ifPresent(out::add);
        }
        return out;
    }

    /** @return the one collective the text names, when it names exactly one */
    static Optional<Collective> single(Set<Collective> set) {
        return set.size() == 1 ? Optional.of(set.iterator().next()) : Optional.empty();
    }

    static Optional<Collective> parse(String name) {
        try {
            return Optional.of(Collective.parse(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
