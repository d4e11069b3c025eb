package dev.collsim.reports.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The layout changes that would make a job that does not fit in GPU memory fit, on the same GPUs: when tp or pp
 * doubles, dp halves (offered only while dp stays a whole number >= 1 and the global batch still divides into
 * micro-batch x dp), and tp never grows past one NVLink domain (the new tp must divide the domain's GPUs, so no
 * tensor-parallel group spans two domains). Tried in this order, cheapest first: {@code --sequence-parallel} (when
 * tp > 1; Korthikanti et al. 2022: the same traffic as the TP all-reduce), a higher {@code --zero} stage, twice
 * {@code --pp}, twice {@code --tp}, {@code --recompute full} (a third more compute). Every single change that fits is
 * listed; only when none does, the first pair of two different kinds that fits (at most one). This class holds no
 * state.
 */
final class MemoryFixes {

    /** One change: what the user types, and the job it gives (null when the change does not apply). */
    private record Change(String kind, String option, UnaryOperator<TrainingJob> apply) {
    }

    private MemoryFixes() {
    }

    /**
     * @param job              the job that does not fit
     * @param capacity         the GPU's memory, bytes
     * @param nvlinkDomainGpus GPUs of one NVLink domain (GPUs per host unless hosts share NVLink switches)
     * @return e.g. {@code --pp 2: 75.6 GiB per GPU on 8 GPUs (dp 4)}, each change that fits; else at most one pair
     */
    static List<String> of(TrainingJob job, double capacity, int nvlinkDomainGpus) {
        List<Change> changes = changes(job, nvlinkDomainGpus);
        List<String> out = new ArrayList<>();
        for (Change c : changes) {
            fit(job, c.option(), c.apply(), capacity).ifPresent(out::add);
        }
        for (int i = 0; i < changes.size() && out.isEmpty(); i++) {
            for (int k = i + 1; k < changes.size() && out.isEmpty(); k++) {
                Change a = changes.get(i);
                Change b = changes.get(k);
                if (!a.kind().equals(b.kind())) {
                    UnaryOperator<TrainingJob> both = j -> {
                        TrainingJob first = a.apply().apply(j);
                        return first == null ? null : b.apply().apply(first);
                    };
                    fit(job, a.option() + " " + b.option(), both, capacity).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    private static List<Change> changes(TrainingJob job, int nvlinkDomainGpus) {
        List<Change> out = new ArrayList<>();
        if (job.tp() > 1 && !job.sequenceParallel()) {
            out.add(new Change("sp", "--sequence-parallel", j -> j.withLayout(j.dp(), j.tp(), j.pp(), j.zero(), true,
                    j.recompute())));
        }
        for (int z = job.zero() + 1; z <= 3 && job.dp() * job.cp() > 1; z++) {
            int stage = z;
            out.add(new Change("zero", "--zero " + z, j -> j.withLayout(j.dp(), j.tp(), j.pp(), stage,
                    j.sequenceParallel(), j.recompute())));
        }
        out.add(new Change("pp", "--pp " + job.pp() * 2, j -> j.dp() % 2 != 0 ? null
                : j.withLayout(j.dp() / 2, j.tp(), j.pp() * 2, j.zero(), j.sequenceParallel(), j.recompute())));
        if (nvlinkDomainGpus % (job.tp() * 2) == 0 && job.shape().headsDivide(job.tp() * 2)) {
            out.add(new Change("tp", "--tp " + job.tp() * 2, j -> j.dp() % 2 != 0 ? null
                    : j.withLayout(j.dp() / 2, j.tp() * 2, j.pp(), j.zero(), j.sequenceParallel(), j.recompute())));
        }
        if (job.recompute() != Recompute.FULL) {
            out.add(new Change("recompute", "--recompute full", j -> j.withLayout(j.dp(), j.tp(), j.pp(), j.zero(),
                    j.sequenceParallel(), Recompute.FULL)));
        }
        return out;
    }

    private static Optional<String> fit(TrainingJob job, String option, UnaryOperator<TrainingJob> change,
            double capacity) {
        TrainingJob j;
        try {
            j = change.apply(job);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (j == null) {
            return Optional.empty();
        }
        MemoryPlan m = MemoryModel.need(j, capacity, List.of());
        if (!m.fits()) {
            return Optional.empty();
        }
        String dp = j.dp() == job.dp() ? "" : String.format(Locale.ROOT, " (dp %d)", j.dp());
        return Optional.of(String.format(Locale.ROOT, "%s: %.1f GiB per GPU on %d GPUs%s", option,
                m.totalBytes() / MemoryPlan.GIB, j.nGpus(), dp));
    }
}
